import { useState } from 'react';
import { TextField } from './text-field';

interface DueFieldProps {
  label?: string;
  name?: string;
  defaultValue?: string;
  required?: boolean;
  error?: string;
  /** Shown under the field while it is not in the past. */
  hint?: string;
  /** What a date in the past means here ("the inspection will be overdue at once"). */
  pastMeaning: string;
}

/**
 * A due date and time (the browser's `datetime-local`). A date in the past is allowed — a late
 * inspection is still scheduled — but never silently: the field says it will be overdue at once.
 */
export function DueField({ label = 'Due', name = 'due_at', defaultValue = '', required, error, hint, pastMeaning }: DueFieldProps) {
  const [value, setValue] = useState(defaultValue);
  const past = value !== '' && !Number.isNaN(new Date(value).getTime()) && new Date(value).getTime() < Date.now();
  return (
    <TextField
      label={label}
      name={name}
      type="datetime-local"
      required={required}
      value={value}
      onChange={(event) => setValue(event.target.value)}
      hint={past ? `This is in the past: ${pastMeaning}.` : hint}
      error={error}
    />
  );
}
