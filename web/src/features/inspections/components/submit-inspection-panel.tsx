import type { TemplateItem } from '@schemas/templates';
import { lazy, Suspense, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { ApiError, describeError } from '@/lib/errors';
import { useSubmitInspection } from '../api/submit-inspection';

// The confirmation loads when Submit is pressed: not part of the run page's first load.
const ConfirmDialog = lazy(() => import('@/components/ui/confirm-dialog').then((module) => ({ default: module.ConfirmDialog })));

interface SubmitInspectionPanelProps {
  orgId: string;
  inspectionId: string;
  /** Required items without an answer, as this page sees them. */
  missing: TemplateItem[];
  /** Items that show: how many are answered, how many there are, how many are required. */
  answered: number;
  total: number;
  requiredTotal: number;
  /** How many answers fail their item now (asked when Submit is pressed). */
  countFailed: () => number;
  itemsByKey: Map<string, TemplateItem>;
  /** Saves what is waiting and resolves once nothing is on its way. */
  settle: () => Promise<boolean>;
  onShowItem: (itemKey: string) => void;
  /** Changes of this inspection still on the device, and whether the browser is online. */
  waiting: number;
  needsAttention: number;
  online: boolean;
}

/** Submit, with what is still missing: the page's own count first, the server's list if it refuses. */
export function SubmitInspectionPanel(props: SubmitInspectionPanelProps) {
  const { orgId, inspectionId, missing, itemsByKey, settle, onShowItem, waiting, needsAttention, online } = props;
  const submit = useSubmitInspection();
  // While asked to confirm: the failed items counted when Submit was pressed.
  const [confirming, setConfirming] = useState<number | null>(null);
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
    setConfirming(null);
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

  // Why submitting must wait, in the words the button's neighbour says it.
  const blockedBy =
    listed.length > 0
      ? `Answer ${listed.length} more required ${listed.length === 1 ? 'item' : 'items'} to submit.`
      : needsAttention > 0
        ? `${needsAttention === 1 ? '1 answer needs' : `${needsAttention} answers need`} your attention before submitting.`
        : waiting > 0
          ? online
            ? `${waiting === 1 ? '1 change is' : `${waiting} changes are`} still being sent.`
            : `${waiting === 1 ? '1 change is' : `${waiting} changes are`} on this device: submit once they are sent, when online.`
          : null;

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
        {blockedBy ? (
          <p className="muted" id="submit-blocked">
            {blockedBy}{' '}
            {listed[0] ? (
              <button type="button" className="button button-link" onClick={() => onShowItem(listed[0].key)}>
                Go to “{listed[0].label}”
              </button>
            ) : null}
          </p>
        ) : null}
        <Button
          pending={settling || submit.isPending}
          disabled={blockedBy !== null}
          aria-describedby={blockedBy ? 'submit-blocked' : undefined}
          onClick={() => {
            setError(undefined);
            setConfirming(props.countFailed());
          }}
        >
          Submit inspection
        </Button>
      </div>
      {confirming !== null ? (
        <Suspense fallback={null}>
          <ConfirmDialog title="Submit this inspection?" confirmText="Submit inspection" cancelText="Keep editing" onConfirm={() => void onSubmit()} onCancel={() => setConfirming(null)}>
            <p>
              {props.answered} of {props.total} items answered
              {props.requiredTotal > 0 ? `, all ${props.requiredTotal} required ${props.requiredTotal === 1 ? 'item' : 'items'} among them` : ''}.
            </p>
            <p>
              {confirming === 0
                ? 'No item failed: no corrective actions will open.'
                : `${confirming === 1 ? '1 failed item opens a corrective action' : `${confirming} failed items will open corrective actions`} (none for an item that already has one).`}
            </p>
            <p>Once submitted, the answers can no longer be changed; a manager reviews them.</p>
          </ConfirmDialog>
        </Suspense>
      ) : null}
    </section>
  );
}
