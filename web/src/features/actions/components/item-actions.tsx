import type { Action } from '@schemas/actions';
import { Link } from 'react-router-dom';
import { ActionStatusBadge, ItemPassesBadge } from './action-badges';
import type { Choice } from './action-form';
import { NewActionPanel } from './new-action-panel';
import './actions.css';

interface ItemActionsProps {
  orgId: string;
  orgSlug: string;
  inspectionId: string;
  itemKey: string;
  itemLabel: string;
  /** This item's actions (the page reads the inspection's once). */
  actions: Action[];
  suggestedTitle: string;
  /** Show "Add action" (the caller may open actions). */
  canOpen: boolean;
  /** For managers; inspectors open actions for themselves. */
  assignees?: Choice[];
  /** In the failed-items summary: the links only. */
  compact?: boolean;
}

/** An item's corrective actions as links with their status, and "Add action" on the item itself. */
export function ItemActions({ orgId, orgSlug, inspectionId, itemKey, itemLabel, actions, suggestedTitle, canOpen, assignees, compact = false }: ItemActionsProps) {
  const links =
    actions.length > 0 ? (
      <ul className="item-actions-list" aria-label={`Actions for ${itemLabel}`}>
        {actions.map((action) => (
          <li key={action.id} className="inline-icon">
            <Link to={`/o/${orgSlug}/actions/${action.id}`}>{compact ? 'Action' : action.title}</Link>
            <ActionStatusBadge status={action.status} />
            {action.item_passed_at && action.status !== 'verified' && action.status !== 'canceled' ? <ItemPassesBadge /> : null}
          </li>
        ))}
      </ul>
    ) : compact ? (
      <span className="muted">No action yet</span>
    ) : null;
  if (compact) return links;
  return (
    <div className="item-actions">
      {links}
      {canOpen ? (
        <NewActionPanel
          orgId={orgId}
          orgSlug={orgSlug}
          context={{ inspection_id: inspectionId, item_key: itemKey }}
          title={suggestedTitle}
          assignees={assignees}
          buttonLabel={`Add action for ${itemLabel}`}
        />
      ) : null}
    </div>
  );
}
