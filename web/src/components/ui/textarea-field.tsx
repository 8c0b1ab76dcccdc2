import { useState, type ComponentPropsWithRef } from 'react';
import { CharacterCount, useCharacterLimit } from './character-count';
import { useField } from './use-field';

interface TextAreaFieldProps extends Omit<ComponentPropsWithRef<'textarea'>, 'id'> {
  label: string;
  name: string;
  error?: string;
  hint?: string;
}

/**
 * Longer text (a description, an item's help, a note) with its label, hint and error like
 * TextField; with a `maxLength`, its limit in sight near it (CharacterCount).
 */
export function TextAreaField({ label, name, error, hint, rows = 2, onChange, onPaste, ...textareaProps }: TextAreaFieldProps) {
  const field = useField(hint, error);
  const { maxLength, value, defaultValue } = textareaProps;
  const limit = useCharacterLimit(maxLength ?? Number.MAX_SAFE_INTEGER);
  // A controlled field's length is its value's; an uncontrolled one's is counted as it is typed.
  const [typed, setTyped] = useState(() => String(defaultValue ?? '').length);
  const length = value !== undefined ? String(value).length : typed;
  return (
    <div className="field">
      <label htmlFor={field.controlProps.id}>{label}</label>
      {field.hint}
      <textarea
        name={name}
        rows={rows}
        {...field.controlProps}
        {...textareaProps}
        onPaste={(event) => {
          limit.onPaste(event);
          onPaste?.(event);
        }}
        onChange={(event) => {
          limit.onEdit();
          setTyped(event.target.value.length);
          onChange?.(event);
        }}
      />
      {maxLength ? <CharacterCount length={length} max={maxLength} kept={limit.kept} /> : null}
      {field.error}
    </div>
  );
}
