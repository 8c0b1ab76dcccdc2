import { useId } from 'react';

/**
 * What every labelled form control shares: its id, the hint and error beneath it, and the
 * aria attributes that tie them to the control (the error also marks it invalid).
 */
export function useField(hint: string | undefined, error: string | undefined) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return {
    controlProps: {
      id,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined,
    },
    hint: hint ? (
      <p id={hintId} className="field-hint">
        {hint}
      </p>
    ) : null,
    error: error ? (
      <p id={errorId} className="field-error" role="alert">
        {error}
      </p>
    ) : null,
  };
}
