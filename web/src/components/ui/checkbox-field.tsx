import type { InputHTMLAttributes } from 'react';
import { useField } from './use-field';

interface CheckboxFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'type'> {
  label: string;
  name: string;
  error?: string;
  hint?: string;
}

export function CheckboxField({ label, name, error, hint, ...inputProps }: CheckboxFieldProps) {
  const field = useField(hint, error);
  return (
    <div className="field field-checkbox">
      <div className="checkbox-row">
        <input name={name} type="checkbox" {...field.controlProps} {...inputProps} />
        <label htmlFor={field.controlProps.id}>{label}</label>
      </div>
      {field.hint}
      {field.error}
    </div>
  );
}
