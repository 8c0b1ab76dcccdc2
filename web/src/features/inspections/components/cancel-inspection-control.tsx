import { useState } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { useCancelInspection } from '../api/cancel-inspection';

/** Managers cancel a scheduled or running inspection; canceled is final. */
export function CancelInspectionControl({ orgId, inspectionId }: { orgId: string; inspectionId: string }) {
  const cancel = useCancelInspection();
  const [error, setError] = useState<string | undefined>();
  return (
    <section className="panel panel-danger" aria-labelledby="cancel-heading">
      <h2 id="cancel-heading">Cancel</h2>
      <p>Canceling is final: the inspection can't be started or answered afterwards.</p>
      <FormAlert message={error} />
      <div>
        <ConfirmButton
          question="Cancel this inspection?"
          confirmText="Yes, cancel inspection"
          pending={cancel.isPending}
          onConfirm={() => {
            setError(undefined);
            cancel.mutate({ orgId, inspectionId }, { onError: (cause) => setError(describeErrorSentence(cause)) });
          }}
        >
          Cancel inspection
        </ConfirmButton>
      </div>
    </section>
  );
}
