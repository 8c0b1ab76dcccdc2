import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FormAlert } from '@/components/ui/form-alert';
import { TextAreaField } from '@/components/ui/textarea-field';
import { describeErrorSentence } from '@/lib/errors';
import { useReviewInspection } from '../api/review-inspection';

type Decision = 'approve' | 'request_changes';

interface ReviewInspectionPanelProps {
  orgId: string;
  inspectionId: string;
  /** Failed items of the submission: their corrective actions stay open after approval. */
  failedCount: number;
  /** Who is asked to change it ("the inspector" when nobody is assigned). */
  assigneeName: string | null;
}

/**
 * A manager's decision on a submitted inspection: approve, or send it back with a note, each
 * confirmed in a dialog that says what follows. It stays in view at the top of the page while the
 * reviewer scrolls the answers (sticky), so the decision never waits at the bottom of a long
 * checklist; the note opens when wanted. Loaded only where there is a decision to take.
 */
export function ReviewInspectionPanel({ orgId, inspectionId, failedCount, assigneeName }: ReviewInspectionPanelProps) {
  const review = useReviewInspection();
  const [note, setNote] = useState('');
  const [noteOpen, setNoteOpen] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [asking, setAsking] = useState<Decision | null>(null);
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const trimmed = note.trim();

  const ask = (decision: Decision) => {
    setError(undefined);
    if (decision === 'request_changes' && trimmed === '') {
      setNoteOpen(true);
      setError('Say what needs to change in the review note.');
      requestAnimationFrame(() => noteRef.current?.focus());
      return;
    }
    setAsking(decision);
  };
  const decide = (decision: Decision) => {
    setAsking(null);
    review.mutate(
      { orgId, inspectionId, decision, note: trimmed === '' ? null : trimmed },
      { onError: (cause) => setError(describeErrorSentence(cause)) },
    );
  };
  const failed = failedCount === 1 ? '1 failed item keeps its corrective action' : `${failedCount} failed items keep their corrective actions`;
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
            onChange={(event) => {
              setNote(event.target.value);
              // The request for a note is answered once there is one.
              if (event.target.value.trim() !== '') setError(undefined);
            }}
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
          <Button pending={review.isPending && review.variables?.decision === 'approve'} disabled={review.isPending} onClick={() => ask('approve')}>
            Approve
          </Button>
          <Button
            variant="secondary"
            pending={review.isPending && review.variables?.decision === 'request_changes'}
            disabled={review.isPending}
            onClick={() => ask('request_changes')}
          >
            Request changes
          </Button>
        </div>
      </div>
      {asking === 'approve' ? (
        <ConfirmDialog title="Approve this inspection?" confirmText="Approve" onConfirm={() => decide('approve')} onCancel={() => setAsking(null)}>
          <p>Approval is final: the answers can no longer be changed, and the inspection can no longer be sent back.</p>
          {failedCount > 0 ? <p>Its {failed}, open until each fix is verified.</p> : null}
          {trimmed !== '' ? <p>Your review note is kept with it.</p> : null}
        </ConfirmDialog>
      ) : asking === 'request_changes' ? (
        <ConfirmDialog title="Send it back for changes?" confirmText="Request changes" onConfirm={() => decide('request_changes')} onCancel={() => setAsking(null)}>
          <p>
            {assigneeName ?? 'The inspector'} can change the answers and submit it again. Your note tells them what to change: “{trimmed}”
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
