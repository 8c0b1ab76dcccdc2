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

// The rule above in words is PasswordField's hint (components/ui/text-field.tsx).

// Sign-in only checks presence (asking for it, not calling it wrong): the server decides whether it is right.
export const currentPasswordField = z.string().min(1, 'Enter your password.');

export const totpCodeField = z
  .string()
  .trim()
  .regex(/^\d{6}$/, authErrorMessage('mfa_verification_failed'));

/** The input side of the same rule: a numeric keypad, and the code the device offers to fill in. */
export const totpCodeInputProps = { inputMode: 'numeric', autoComplete: 'one-time-code', pattern: '[0-9]{6}', maxLength: 6 } as const;
