import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { ApiError, describeError, type UserFacingError } from './errors';
import { formValues, validateForm } from './form-values';

export interface SubmitHelpers {
  form: HTMLFormElement;
  /** Shows a failed request's error, in the catalogue's wording. */
  fail: (error: unknown) => void;
}

/**
 * Keeps beside the fields only the messages of fields this form has; the others (a refinement of
 * the whole body, a header) join the message above the form, so nothing is silently dropped.
 */
export function placeFailure(form: HTMLFormElement, failure: UserFacingError): UserFacingError {
  const fieldErrors: Record<string, string> = {};
  const elsewhere: string[] = [];
  for (const [field, message] of Object.entries(failure.fieldErrors)) {
    if (field !== '' && form.elements.namedItem(field)) fieldErrors[field] = message;
    else elsewhere.push(message);
  }
  const shownBesideFields = new Set(Object.values(fieldErrors));
  // A duplicate's sentence shown beside its field need not be repeated above the form.
  const message = failure.message && !shownBesideFields.has(failure.message) ? failure.message : undefined;
  const combined = [message, ...elsewhere.filter((text) => text !== message)].filter(Boolean).join(' ');
  return { ...failure, message: combined || undefined, fieldErrors };
}

/**
 * A form's rules, or a loader of them: a page that must be light on first load (sign-in) loads zod
 * and its schema when the form is first used or submitted, not before it is shown.
 */
export type SchemaSource<T> = z.ZodType<T> | (() => Promise<z.ZodType<T>>);

/**
 * The submit handler every form shares: parses the form's fields with `schema`, shows a message
 * beside each field that fails, and otherwise clears old messages and calls `submit` with the data.
 */
export function useValidatedSubmit<T>(schema: SchemaSource<T>, submit: (data: T, helpers: SubmitHelpers) => void) {
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const values = formValues(form);
    let rules: z.ZodType<T>;
    try {
      rules = typeof schema === 'function' ? await schema() : schema;
    } catch {
      // The rules' script could not be fetched (offline on a first visit): nothing was sent.
      setFailure(placeFailure(form, describeError(new ApiError(null, null, null))));
      return;
    }
    const result = validateForm(rules, values);
    if (result.fieldErrors) {
      setFailure(placeFailure(form, { fieldErrors: result.fieldErrors }));
      return;
    }
    setFailure(null);
    submit(result.data, { form, fail: (error) => setFailure(placeFailure(form, describeError(error))) });
  }

  return { failure, handleSubmit };
}
