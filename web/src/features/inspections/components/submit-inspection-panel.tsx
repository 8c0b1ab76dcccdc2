import type { TemplateItem } from '@schemas/templates';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FormAlert } from '../../../components/ui/form-alert';
import { ApiError, describeError } from '../../../lib/errors';
import { useSubmitInspection } from '../api/submit-inspection';

interface SubmitInspectionPanelProps {
  orgId: string;
  inspectionId: string;
  /** Required items without an answer, as this page sees them. */
  missing: TemplateItem[];
  itemsByKey: Map<string, TemplateItem>;
  /** Saves what is waiting and resolves once nothing is on its way. */
  settle: () => Promise<boolean>;
  onShowItem: (itemKey: string) => void;
}

/** Submit, with what is still missing: the page's own count first, the server's list if it refuses. */
export function SubmitInspectionPanel({ orgId, inspectionId, missing, itemsByKey, settle, onShowItem }: SubmitInspectionPanelProps) {
  const submit = useSubmitInspection();
  const [settling, setSettling] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [serverMissing, setServerMissing] = useState<string[] | null>(null);
  const missingHere = new Set(missing.map((item) => item.key));
  // The server's list, less what has been answered on this page since it refused.
  const listed = serverMissing
    ? serverMissing.filter((key) => missingHere.has(key)).map((key) => itemsByKey.get(key)).filter((item): item is TemplateItem => item !== undefined)
    : missing;
  // Once everything the server listed is answered, its refusal is out of date.
  const shownError = serverMissing !== null && listed.length === 0 ? undefined : error;

  async function onSubmit() {
    setError(undefined);
    setServerMissing(null);
    setSettling(true);
    const saved = await settle();
    setSettling(false);
    if (!saved) {
      setError("Some answers couldn't be saved. Fix or retry them before submitting.");
      return;
    }
    submit.mutate(
      { orgId, inspectionId },
      {
        onError: (cause) => {
          const failure = describeError(cause);
          setError(failure.message);
          if (failure.code === 'required_items_missing' && cause instanceof ApiError) setServerMissing(cause.problem?.missing ?? []);
        },
      },
    );
  }

  return (
    <section className="panel" aria-labelledby="submit-heading">
      <h2 id="submit-heading">Submit</h2>
      {listed.length > 0 ? (
        <div className="stack">
          <p>
            {listed.length === 1 ? '1 required item is' : `${listed.length} required items are`} still unanswered:
          </p>
          <ul className="missing-list" aria-label="Unanswered required items">
            {listed.map((item) => (
              <li key={item.key}>
                <button type="button" className="button button-link" onClick={() => onShowItem(item.key)}>
                  {item.label}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p>Every required item is answered. Once submitted, the answers can no longer be changed.</p>
      )}
      <FormAlert message={shownError} />
      <div className="submit-actions">
        <Button pending={settling || submit.isPending} onClick={() => void onSubmit()}>
          Submit inspection
        </Button>
      </div>
    </section>
  );
}
