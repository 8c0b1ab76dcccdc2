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
