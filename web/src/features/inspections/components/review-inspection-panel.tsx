import { useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextAreaField } from '../../../components/ui/textarea-field';
import { describeErrorSentence } from '../../../lib/errors';
import { useReviewInspection } from '../api/review-inspection';

/**
 * A manager's decision on a submitted inspection: approve, or send it back with a note. It stays
 * in view at the top of the page while the reviewer scrolls the answers (sticky), so the decision
 * never waits at the bottom of a long checklist; the note opens when wanted.
 */
export function ReviewInspectionPanel({ orgId, inspectionId }: { orgId: string; inspectionId: string }) {
  const review = useReviewInspection();
  const [note, setNote] = useState('');
  const [noteOpen, setNoteOpen] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const decide = (decision: 'approve' | 'request_changes') => {
    setError(undefined);
    if (decision === 'request_changes' && note.trim() === '') {
      setNoteOpen(true);
      setError('Say what needs to change in the review note.');
      requestAnimationFrame(() => noteRef.current?.focus());
      return;
    }
    review.mutate(
      { orgId, inspectionId, decision, note: note.trim() === '' ? null : note.trim() },
      { onError: (cause) => setError(describeErrorSentence(cause)) },
    );
  };
  return (
    <section className="panel review-bar" aria-labelledby="review-heading">
      <h2 id="review-heading">Review</h2>
      <div className="stack">
        {noteOpen ? (
          <TextAreaField
            ref={noteRef}
            label="Review note"
            name="review_note"
            className="review-note"
            hint="Optional when approving; tells the inspector what to change when sending it back."
            rows={2}
            maxLength={2000}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        ) : (
          <div>
            <button type="button" className="button button-link" onClick={() => {
              setNoteOpen(true);
              requestAnimationFrame(() => noteRef.current?.focus());
            }}>
              Add a review note
            </button>
          </div>
        )}
        <FormAlert message={error} />
        <div className="button-row">
          <Button pending={review.isPending && review.variables?.decision === 'approve'} disabled={review.isPending} onClick={() => decide('approve')}>
            Approve
          </Button>
          <Button
            variant="secondary"
            pending={review.isPending && review.variables?.decision === 'request_changes'}
            disabled={review.isPending}
            onClick={() => decide('request_changes')}
          >
            Request changes
          </Button>
        </div>
      </div>
    </section>
  );
}
