import { authErrorMessage } from '@schemas/errors';
import { z } from 'zod';

// Client-side checks mirror the auth server's rules (supabase/config.toml: minimum_password_length 8,
// password_requirements "letters_digits") so most mistakes are caught before a request.
export const emailField = z.string().trim().toLowerCase().pipe(z.email(authErrorMessage('email_address_invalid')));

export const newPasswordField = z
  .string()
  .min(8, authErrorMessage('weak_password'))
  .regex(/[A-Za-z]/, authErrorMessage('weak_password'))
  .regex(/[0-9]/, authErrorMessage('weak_password'));

/** The rule above in words, shown under every field that sets a password. */
export const newPasswordHint = 'At least 8 characters, with letters and digits.';

// Sign-in only checks presence (asking for it, not calling it wrong): the server decides whether it is right.
export const currentPasswordField = z.string().min(1, 'Enter your password.');

export const totpCodeField = z
  .string()
  .trim()
  .regex(/^\d{6}$/, authErrorMessage('mfa_verification_failed'));

/** The input side of the same rule: a numeric keypad, and the code the device offers to fill in. */
export const totpCodeInputProps = { inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9]{6}', maxLength: 6 } as const;

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
