import { useRef, useState, type ClipboardEvent } from 'react';

const n = (count: number) => count.toLocaleString();

/**
 * A text field's limit kept in sight (issue 23): typing stops at `maxLength`, and a paste longer
 * than the room left keeps what fits (the browser's own behaviour) — never silently: `kept` is how
 * much of the pasted text was kept, until the next edit.
 */
export function useCharacterLimit(max: number) {
  const [kept, setKept] = useState<number | null>(null);
  // The paste's own input event follows it: that edit must not clear the message about it.
  const pasting = useRef(false);
  return {
    kept,
    onPaste(event: ClipboardEvent<HTMLTextAreaElement>) {
      const field = event.currentTarget;
      const text = event.clipboardData.getData('text').replace(/\r\n?/g, '\n');
      const room = max - field.value.length + (field.selectionEnd - field.selectionStart);
      pasting.current = room > 0;
      setKept(text.length > room ? Math.max(0, room) : null);
    },
    /** Call on every change of the text. */
    onEdit() {
      if (pasting.current) pasting.current = false;
      else setKept(null);
    },
  };
}

/**
 * "3,250 of 4,000 characters", shown from 80 % of the limit; at the limit it says typing stops
 * there. Screen readers hear it politely at 80 %, 90 % and the limit, not at every key.
 */
export function CharacterCount({ length, max, kept }: { length: number; max: number; kept: number | null }) {
  const stage = length >= max ? 3 : length >= max * 0.9 ? 2 : length >= max * 0.8 ? 1 : 0;
  const cut = kept === null ? '' : `Only the first ${n(kept)} characters of the pasted text were kept: the limit is ${n(max)}.`;
  return (
    <>
      {stage > 0 || cut ? (
        <p className={stage === 3 || cut ? 'char-count char-count-full' : 'char-count'}>
          {cut} {n(length)} of {n(max)} characters{stage === 3 ? ': the limit, nothing more can be added.' : '.'}
        </p>
      ) : null}
      <span className="visually-hidden" role="status">
        {cut || (stage === 3 ? `Limit of ${n(max)} characters reached.` : stage > 0 ? `Fewer than ${n(Math.round(max * (stage === 1 ? 0.2 : 0.1)))} characters left.` : '')}
      </span>
    </>
  );
}
