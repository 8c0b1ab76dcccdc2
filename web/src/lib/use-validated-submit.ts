import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { describeError, type UserFacingError } from './errors';
import { formValues, validateForm } from './validation';

export interface SubmitHelpers {
  form: HTMLFormElement;
  /** Shows a failed request's error, in the catalogue's wording. */
  fail: (error: unknown) => void;
}

/**
 * The submit handler every form shares: parses the form's fields with `schema`, shows a message
 * beside each field that fails, and otherwise clears old messages and calls `submit` with the data.
 */
export function useValidatedSubmit<T>(schema: z.ZodType<T>, submit: (data: T, helpers: SubmitHelpers) => void) {
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const result = validateForm(schema, formValues(form));
    if (result.fieldErrors) {
      setFailure({ fieldErrors: result.fieldErrors });
      return;
    }
    setFailure(null);
    submit(result.data, { form, fail: (error) => setFailure(describeError(error)) });
  }

  return { failure, handleSubmit };
}
