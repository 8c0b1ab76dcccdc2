import type { SelectHTMLAttributes } from 'react';
import { useField } from './use-field';

interface SelectOption {
  value: string;
  label: string;
}

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> {
  label: string;
  name: string;
  options: readonly SelectOption[];
  /** Message shown beside the field; also marks the select invalid for assistive technology. */
  error?: string;
  hint?: string;
}

export function SelectField({ label, name, options, error, hint, ...selectProps }: SelectFieldProps) {
  const field = useField(hint, error);
  return (
    <div className="field">
      <label htmlFor={field.controlProps.id}>{label}</label>
      {field.hint}
      <select name={name} {...field.controlProps} {...selectProps}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {field.error}
    </div>
  );
}
