import { ACTION_PRIORITY_LABELS, ACTION_STATUS_LABELS, type ActionPriority, type ActionStatus } from '@schemas/action-states';
import './actions.css';

export function ActionStatusBadge({ status }: { status: ActionStatus }) {
  return <span className={`status-badge action-status-${status}`}>{ACTION_STATUS_LABELS[status]}</span>;
}

export function PriorityBadge({ priority }: { priority: ActionPriority }) {
  return <span className={`status-badge priority-${priority}`}>{ACTION_PRIORITY_LABELS[priority]} priority</span>;
}

export function ActionOverdueBadge() {
  return <span className="status-badge status-overdue">Overdue</span>;
}

/** A later submission of the inspection passed the item this action is about. */
export function ItemPassesBadge() {
  return <span className="status-badge item-passes">Item now passes</span>;
}
