import { ArrowRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeErrorSentence } from '@/lib/errors';
import { useStartInspection } from '../api/start-inspection';
import { locateForStart } from '../utils/start-location';
import type { Inspection } from '../types';

interface StartInspectionControlProps {
  orgId: string;
  inspection: Inspection;
}

/** "Start inspection" (or "Continue" after changes were requested): stamps the start with the device's location when it can. */
export function StartInspectionControl({ orgId, inspection }: StartInspectionControlProps) {
  const start = useStartInspection();
  const [locating, setLocating] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const continuing = inspection.status === 'changes_requested';

  async function onStart() {
    setError(undefined);
    setLocating(true);
    const outcome = await locateForStart();
    setLocating(false);
    start.mutate(
      { orgId, inspectionId: inspection.id, location: outcome.location },
      // Without a location the start still goes ahead: the header then says it has none.
      { onError: (cause) => setError(describeErrorSentence(cause)) },
    );
  }

  return (
    <div className="stack start-control">
      <p className="muted">
        {continuing
          ? 'Changes were requested: continue to edit the answers, then submit again.'
          : 'Starting records the time and, if your browser allows it, where you are.'}
      </p>
      <div>
        <Button pending={locating || start.isPending} onClick={() => void onStart()}>
          {continuing ? 'Continue inspection' : 'Start inspection'}
          <ArrowRight aria-hidden="true" size={18} />
        </Button>
      </div>
      {locating ? (
        <p className="muted" role="status">
          Getting your location…
        </p>
      ) : null}
      <FormAlert message={error} />
    </div>
  );
}
