import type { z } from 'zod';

// Reading and checking a form's values. No zod at run time here: the rules (lib/validation.ts and
// @schemas) are zod schemas, but a page can keep them out of its first load (useValidatedSubmit).

/** Parses form values with `schema`, returning the data or one message per field. */
export function validateForm<T>(
  schema: z.ZodType<T>,
  values: unknown,
): { data: T; fieldErrors: null } | { data: null; fieldErrors: Record<string, string> } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, fieldErrors: null };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.join('.');
    fieldErrors[field] ??= issue.message;
  }
  return { data: null, fieldErrors };
}

/** Reads a form's named text fields into a plain object. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form)) {
    if (typeof value === 'string') values[name] = value;
  }
  return values;
}

/**
 * A number typed into a text field: empty is `empty` (left out, or null to clear), a number is
 * that number, and anything else stays text so the schema answers with its own message.
 */
export function numberField(value: string | undefined, empty: null | undefined = undefined): number | string | null | undefined {
  const text = value?.trim() ?? '';
  if (text === '') return empty;
  const number = Number(text.replace(',', '.'));
  return Number.isFinite(number) ? number : text;
}

/** A checkbox: FormData carries its value only when it is checked. */
export function checkboxField(value: string | undefined): boolean {
  return value !== undefined;
}
