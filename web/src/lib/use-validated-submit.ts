import { useEffect, useRef, useState, type FormEvent } from 'react';
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
 * A field's message goes as soon as that field is changed ("Choose a published template." once
 * one is chosen): it described the value that was there. The message above the form stays until
 * the next attempt: it is about that attempt.
 */
export function useValidatedSubmit<T>(schema: SchemaSource<T>, submit: (data: T, helpers: SubmitHelpers) => void) {
  const [failure, setFailure] = useState<UserFacingError | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);

  const hasFieldErrors = failure !== null && Object.keys(failure.fieldErrors).length > 0;
  useEffect(() => {
    const form = formRef.current;
    if (!hasFieldErrors || !form) return;
    const clear = (event: Event) => {
      const target = event.target as HTMLElement;
      // A control that stands for a field it does not submit itself (DueField) names it in data-field.
      const field = target.getAttribute('name') ?? target.dataset.field;
      if (!field) return;
      setFailure((current) => {
        if (!current || !(field in current.fieldErrors)) return current;
        const { [field]: _changed, ...fieldErrors } = current.fieldErrors;
        return { ...current, fieldErrors };
      });
    };
    form.addEventListener('input', clear);
    form.addEventListener('change', clear);
    return () => {
      form.removeEventListener('input', clear);
      form.removeEventListener('change', clear);
    };
  }, [hasFieldErrors]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    formRef.current = form;
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
