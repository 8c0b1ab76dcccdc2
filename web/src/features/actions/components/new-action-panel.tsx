import type { Action, ActionCreate } from '@schemas/actions';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useCreateAction } from '../api/create-action';
import type { Choice } from './action-form';

// The form (and zod, which checks it) loads when "Add action" is pressed: the run page shows this
// button under every item and should not carry the form's weight on first load (docs/offline.md).
const ActionForm = lazy(() => import('./action-form').then((module) => ({ default: module.ActionForm })));

interface NewActionPanelProps {
  orgId: string;
  orgSlug: string;
  /** Where the action belongs: a site, or an item of an inspection (the site is the inspection's). */
  context: Pick<ActionCreate, 'site_id' | 'inspection_id' | 'item_key'>;
  /** Starting title, e.g. "Floor is clean — Fail". */
  title?: string;
  description?: string | null;
  /** For managers; inspectors open actions for themselves. */
  assignees?: Choice[];
  /** What the button says, e.g. "Add action for Floor is clean". */
  buttonLabel: string;
  /** Open with the form showing (the button that asked for it was the page's own: AddActionButton). */
  initiallyOpen?: boolean;
}

/** "Add action": opens a small form in place; on success says so with a link to the new action. */
export function NewActionPanel({ orgId, orgSlug, context, title, description, assignees, buttonLabel, initiallyOpen = false }: NewActionPanelProps) {
  const [open, setOpen] = useState(initiallyOpen);
  const [created, setCreated] = useState<Action | null>(null);
  const createAction = useCreateAction();
  const idempotency = useIdempotencyKey();
  const buttonRef = useRef<HTMLButtonElement>(null);

  function close() {
    setOpen(false);
    requestAnimationFrame(() => buttonRef.current?.focus());
  }

  if (!open) {
    return (
      <div className="stack">
        {created ? (
          <FormAlert
            tone="success"
            message={`Action opened: ${created.title}${created.assignee_name ? `, assigned to ${created.assignee_name}` : ''}.`}
          />
        ) : null}
        {created ? (
          <p>
            <Link to={`/o/${orgSlug}/actions/${created.id}`}>Open the new action</Link>
          </p>
        ) : null}
        <div>
          <Button
            ref={buttonRef}
            variant="link"
            onClick={() => {
              // "Action opened: …" was about the last one, not the one about to be written.
              setCreated(null);
              setOpen(true);
            }}
            aria-label={buttonLabel}
          >
            <Plus aria-hidden="true" size={18} />
            Add action
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="new-action">
      <Suspense fallback={<p className="muted">Opening the form…</p>}>
        <ActionForm
          label={buttonLabel}
          initial={{ title, description }}
          assignees={assignees}
          submitLabel="Open action"
          pending={createAction.isPending}
          onCancel={close}
          onSubmit={(values, { fail }) => {
            const body: ActionCreate = { ...context, ...values };
            createAction.mutate(
              { orgId, body, idempotencyKey: idempotency.keyFor(body) },
              {
                onSuccess: (action) => {
                  idempotency.reset();
                  setCreated(action);
                  close();
                },
                onError: fail,
              },
            );
          }}
        />
      </Suspense>
    </div>
  );
}
