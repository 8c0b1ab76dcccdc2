import type { ActionDetail } from '@schemas/actions';
import { actionPhotosEditable, canManageActions, canWorkAction } from '@schemas/action-states';
import type { Role } from '@schemas/common';
import { ClipboardCheck, MapPin } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { formatDateTime } from '@/lib/format';
import { useUpdateAction } from '../api/update-action';
import { ActionOverdueBadge, ActionStatusBadge, ItemPassesBadge, PriorityBadge } from './action-badges';
import { ActionForm, type Choice } from './action-form';
import { ActionMoves } from './action-moves';
import { ActionPhotos } from './action-photos';
import { ActionTimeline } from './action-timeline';
import './actions.css';

interface ActionDetailViewProps {
  orgId: string;
  orgSlug: string;
  userId: string;
  role: Role;
  action: ActionDetail;
  /** Members who can work actions, for a manager reassigning. */
  assignees: Choice[];
}

/** One corrective action: what and where, its state, the fix's photos, the steps the caller may take, and its history. */
export function ActionDetailView({ orgId, orgSlug, userId, role, action, assignees }: ActionDetailViewProps) {
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState<string | undefined>();
  const updateAction = useUpdateAction();
  const finished = action.status === 'verified' || action.status === 'canceled';
  const mayEdit = canManageActions(role) && !finished;
  const photosEditable = canWorkAction(role, userId, action) && actionPhotosEditable(action.status);

  return (
    <div className="stack">
      <dl className="details">
        <div>
          <dt>Status</dt>
          <dd className="inline-icon">
            <ActionStatusBadge status={action.status} />
            {action.overdue ? <ActionOverdueBadge /> : null}
            {action.item_passed_at && !finished ? <ItemPassesBadge /> : null}
          </dd>
        </div>
        <div>
          <dt>Priority</dt>
          <dd>
            <PriorityBadge priority={action.priority} />
          </dd>
        </div>
        <div>
          <dt>Assignee</dt>
          <dd>{action.assignee_name ?? 'Unassigned'}</dd>
        </div>
        <div>
          <dt>Due</dt>
          <dd>{formatDateTime(action.due_at, action.site_timezone)}</dd>
        </div>
        <div>
          <dt>Site</dt>
          <dd>
            <span className="inline-icon">
              <MapPin aria-hidden="true" size={18} />
              <Link to={`/o/${orgSlug}/sites/${action.site_id}`}>{action.site_name}</Link>
            </span>
          </dd>
        </div>
        {action.inspection_id ? (
          <div>
            <dt>Inspection</dt>
            <dd>
              <span className="inline-icon">
                <ClipboardCheck aria-hidden="true" size={18} />
                <Link to={`/o/${orgSlug}/inspections/${action.inspection_id}${action.item_key ? `#item-${action.item_key}` : ''}`}>
                  {action.inspection_title}
                </Link>
              </span>
              {action.item_label ? <span className="muted"> · item “{action.item_label}”</span> : null}
            </dd>
          </div>
        ) : null}
        {action.resolution_note ? (
          <div>
            <dt>Resolution</dt>
            <dd className="description">{action.resolution_note}</dd>
          </div>
        ) : null}
      </dl>
      {action.item_passed_at && !finished ? (
        <p className="muted">A later submission of the inspection passed this item. Verify the fix, or cancel the action if nothing needed doing.</p>
      ) : null}

      {action.description ? (
        <section className="panel" aria-labelledby="description-heading">
          <h2 id="description-heading">Description</h2>
          <p className="description">{action.description}</p>
        </section>
      ) : null}

      {action.moves.length > 0 ? (
        <section className="panel" aria-labelledby="next-heading">
          <h2 id="next-heading">Next step</h2>
          <ActionMoves orgId={orgId} actionId={action.id} moves={action.moves} />
        </section>
      ) : null}

      <section className="panel" aria-labelledby="photos-heading">
        <h2 id="photos-heading">Photos of the fix</h2>
        <ActionPhotos orgId={orgId} actionId={action.id} attachments={action.attachments} editable={photosEditable} />
      </section>

      {mayEdit ? (
        <section className="panel" aria-labelledby="edit-heading">
          <h2 id="edit-heading">Details</h2>
          <FormAlert tone="success" message={saved} />
          {editing ? (
            <ActionForm
              label="Edit the action"
              initial={action}
              timeZone={action.site_timezone}
              assignees={assignees}
              dueRequired
              submitLabel="Save changes"
              pending={updateAction.isPending}
              onCancel={() => setEditing(false)}
              onSubmit={(values, { fail }) => {
                const { due_at, ...rest } = values;
                updateAction.mutate(
                  { orgId, actionId: action.id, body: due_at ? { ...rest, due_at } : rest },
                  {
                    onSuccess: () => {
                      setEditing(false);
                      setSaved('Changes saved.');
                    },
                    onError: fail,
                  },
                );
              }}
            />
          ) : (
            <div>
              <Button
                variant="secondary"
                onClick={() => {
                  setSaved(undefined);
                  setEditing(true);
                }}
              >
                Edit or reassign
              </Button>
            </div>
          )}
        </section>
      ) : null}

      <section className="panel" aria-labelledby="history-heading">
        <h2 id="history-heading">History</h2>
        <ActionTimeline action={action} />
      </section>
    </div>
  );
}
