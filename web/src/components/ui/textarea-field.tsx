import type { ComponentPropsWithRef } from 'react';
import { useField } from './use-field';

interface TextAreaFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'id'> {
  label: string;
  name: string;
  error?: string;
  hint?: string;
}

/** Longer text (a description, an item's help) with its label, hint and error like TextField. */
export function TextAreaField({ label, name, error, hint, rows = 2, ...textareaProps }: TextAreaFieldProps) {
  const field = useField(hint, error);
  return (
    <div className="field">
      <label htmlFor={field.controlProps.id}>{label}</label>
      {field.hint}
      <textarea name={name} rows={rows} {...field.controlProps} {...textareaProps} />
      {field.error}
    </div>
  );
}
