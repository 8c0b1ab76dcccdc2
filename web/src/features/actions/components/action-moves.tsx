import type { ActionMove } from '@schemas/actions';
import { ACTION_NOTE_MAX_LENGTH, type ActionStatus } from '@schemas/action-states';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextAreaField } from '@/components/ui/textarea-field';
import { describeErrorSentence } from '@/lib/errors';
import { useTransitionAction } from '../api/transition-action';

// What each move's button says.
const buttonWords: Record<ActionStatus, string> = {
  in_progress: 'Start work',
  resolved: 'Mark resolved',
  verified: 'Verify fix',
  open: 'Reopen',
  canceled: 'Cancel action',
};

// Forward moves first, then going back, then giving up.
const order: ActionStatus[] = ['in_progress', 'resolved', 'verified', 'open', 'canceled'];

/** The moves the caller may make now (the API's `moves`), with the note some of them need. */
export function ActionMoves({ orgId, actionId, moves }: { orgId: string; actionId: string; moves: ActionMove[] }) {
  const transition = useTransitionAction();
  const [note, setNote] = useState('');
  const [noteError, setNoteError] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const needsNote = moves.filter((move) => move.note_message);
  const noteRef = useRef<HTMLTextAreaElement>(null);

  function make(move: ActionMove) {
    setError(undefined);
    setNoteError(undefined);
    const text = note.trim();
    if (move.note_message && text === '') {
      setNoteError(move.note_message);
      noteRef.current?.focus();
      return;
    }
    transition.mutate(
      { orgId, actionId, to: move.to, note: text === '' ? null : text },
      {
        onSuccess: () => setNote(''),
        onError: (cause) => setError(describeErrorSentence(cause)),
      },
    );
  }

  return (
    <div className="action-moves">
      <TextAreaField
        label="Note"
        name="note"
        ref={noteRef}
        rows={3}
        maxLength={ACTION_NOTE_MAX_LENGTH}
        value={note}
        onChange={(event) => {
          setNote(event.target.value);
          // "Say what was done…" is answered once there is a note.
          if (event.target.value.trim() !== '') setNoteError(undefined);
        }}
        hint={
          needsNote.length > 0
            ? `Needed to ${needsNote.map((move) => buttonWords[move.to].toLowerCase()).join(' or ')}; optional otherwise.`
            : 'Optional: kept in the history with the step.'
        }
        error={noteError}
      />
      <FormAlert message={error} />
      <div className="button-row">
        {[...moves].sort((a, b) => order.indexOf(a.to) - order.indexOf(b.to)).map((move) => (
          <Button
            key={move.to}
            variant={move.to === 'canceled' ? 'danger' : move.to === 'open' ? 'secondary' : 'primary'}
            pending={transition.isPending && transition.variables?.to === move.to}
            disabled={transition.isPending}
            onClick={() => make(move)}
          >
            {buttonWords[move.to]}
          </Button>
        ))}
      </div>
    </div>
  );
}
