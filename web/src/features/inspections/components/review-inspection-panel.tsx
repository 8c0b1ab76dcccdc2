import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { TextAreaField } from '../../../components/ui/textarea-field';
import { describeErrorSentence } from '../../../lib/errors';
import { useReviewInspection } from '../api/review-inspection';

/** A manager's decision on a submitted inspection: approve, or send it back with a note. */
export function ReviewInspectionPanel({ orgId, inspectionId }: { orgId: string; inspectionId: string }) {
  const review = useReviewInspection();
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const decide = (decision: 'approve' | 'request_changes') => {
    setError(undefined);
    if (decision === 'request_changes' && note.trim() === '') {
      setError('Say what needs to change in the review note.');
      return;
    }
    review.mutate(
      { orgId, inspectionId, decision, note: note.trim() === '' ? null : note.trim() },
      { onError: (cause) => setError(describeErrorSentence(cause)) },
    );
  };
  return (
    <section className="panel" aria-labelledby="review-heading">
      <h2 id="review-heading">Review</h2>
      <div className="stack">
        <TextAreaField
          label="Review note"
          name="review_note"
          className="review-note"
          hint="Optional when approving; tells the inspector what to change when sending it back."
          rows={3}
          maxLength={2000}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
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
