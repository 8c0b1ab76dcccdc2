import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';
import './confirm-dialog.css';

export interface ConfirmDialogProps {
  /** The question, e.g. "Submit this inspection?". */
  title: string;
  /** What follows from saying yes, in sentences. */
  children: ReactNode;
  /** The button that acts, e.g. "Submit inspection". */
  confirmText: string;
  cancelText?: string;
  onConfirm: () => void;
  /** Closed without acting: the cancel button, Escape. */
  onCancel: () => void;
}

/**
 * A step that cannot be undone asks first, saying what follows: a modal `<dialog>` (the browser
 * keeps focus inside and the page behind it inert, Escape cancels). Focus starts on the safe
 * choice and returns to where it was. Loaded when asked for, never with a page.
 */
export function ConfirmDialog({ title, children, confirmText, cancelText = 'Cancel', onConfirm, onCancel }: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    dialog?.showModal();
    cancelRef.current?.focus();
    return () => {
      dialog?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      onCancel={(event) => {
        // Escape: closed by us, so the page's state says so too.
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={`${id}-title`}>{title}</h2>
      <div id={`${id}-body`} className="confirm-dialog-body">
        {children}
      </div>
      <div className="button-row confirm-dialog-buttons">
        <Button onClick={onConfirm}>{confirmText}</Button>
        <Button ref={cancelRef} variant="secondary" onClick={onCancel}>
          {cancelText}
        </Button>
      </div>
    </dialog>
  );
}
