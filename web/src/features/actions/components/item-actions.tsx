import type { Action } from '@schemas/actions';
import { Plus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { ActionStatusBadge, ItemPassesBadge } from './action-badges';
import type { Choice } from './action-form';

// The run and review pages show "Add action" under every item; the panel behind it (its form,
// zod, the create call) loads when one is pressed, not with the page (docs/offline.md, "Weight").
const NewActionPanel = lazy(() => import('./new-action-panel').then((module) => ({ default: module.NewActionPanel })));
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
  const [adding, setAdding] = useState(false);
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
      {canOpen && adding ? (
        <Suspense fallback={<p className="muted">Opening the form…</p>}>
          <NewActionPanel
            orgId={orgId}
            orgSlug={orgSlug}
            context={{ inspection_id: inspectionId, item_key: itemKey }}
            title={suggestedTitle}
            assignees={assignees}
            buttonLabel={`Add action for ${itemLabel}`}
            initiallyOpen
          />
        </Suspense>
      ) : canOpen ? (
        <div>
          <Button variant="link" onClick={() => setAdding(true)} aria-label={`Add action for ${itemLabel}`}>
            <Plus aria-hidden="true" size={18} />
            Add action
          </Button>
        </div>
      ) : null}
    </div>
  );
}
