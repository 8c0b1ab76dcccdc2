import type { ComponentPropsWithRef } from 'react';
import { useField } from './use-field';

interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'id'> {
  label: string;
  name: string;
  /** Message shown beside the field; also marks the input invalid for assistive technology. */
  error?: string;
  hint?: string;
}

export function TextField({ label, name, error, hint, ...inputProps }: TextFieldProps) {
  const field = useField(hint, error);
  return (
    <div className="field">
      <label htmlFor={field.controlProps.id}>{label}</label>
      {field.hint}
      <input name={name} {...field.controlProps} {...inputProps} />
      {field.error}
    </div>
  );
}

interface PasswordFieldProps {
  /** `current` to sign in with; `new` to choose one, with the rule it must follow under it. */
  purpose: 'current' | 'new';
  label?: string;
  error?: string;
}

/**
 * The password field of the auth and account forms: the browser's password manager fills a
 * `current` one and offers to generate and save a `new` one. Beside TextField rather than in a
 * module of its own: a module shared by four routes would be a chunk of its own, and its name one
 * more entry in the entry chunk that every page's first load carries (docs/offline.md, "Weight").
 */
export function PasswordField({ purpose, label = 'Password', error }: PasswordFieldProps) {
  return (
    <TextField
      label={label}
      name="password"
      type="password"
      autoComplete={`${purpose}-password`}
      required
      // The rule of lib/validation.ts's newPasswordField in words (it is checked there, with zod,
      // which sign-in does not load with its page).
      hint={purpose === 'new' ? 'At least 8 characters, with letters and digits.' : undefined}
      error={error}
    />
  );
}
