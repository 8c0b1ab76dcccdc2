import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button } from './button';

interface ConfirmButtonProps {
  /** The first button's text, e.g. "Remove". */
  children: ReactNode;
  /** Accessible name of the first button when its text alone is ambiguous ("Remove Ada"). */
  label?: string;
  /** The question asked before acting, e.g. "Remove Ada from Acme?". */
  question: string;
  /** The second button's text, e.g. "Yes, remove". */
  confirmText: string;
  onConfirm: () => void;
  pending?: boolean;
  variant?: 'danger' | 'secondary';
}

/** A destructive action in two steps on the page itself: ask, then act (no browser dialog). */
export function ConfirmButton({ children, label, question, confirmText, onConfirm, pending = false, variant = 'danger' }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const firstRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);

  useEffect(() => {
    // Focus follows the step: onto the confirmation, and back to the first button on cancel.
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) firstRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <Button ref={firstRef} variant={variant} aria-label={label} pending={pending} onClick={() => setAsking(true)}>
        {children}
      </Button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <Button
        ref={confirmRef}
        variant="danger"
        pending={pending}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmText}
      </Button>
      <Button variant="secondary" onClick={() => setAsking(false)} disabled={pending}>
        Cancel
      </Button>
    </span>
  );
}
