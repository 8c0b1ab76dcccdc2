import type { Action } from '@schemas/actions';
import { MapPin } from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatDateTime } from '@/lib/format';
import { ActionOverdueBadge, ActionStatusBadge, ItemPassesBadge, PriorityBadge } from './action-badges';
import './actions.css';

/** Actions as rows: title, site, assignee and due date, with status, priority and overdue at a glance. */
export function ActionRows({ actions, orgSlug, label, showSite = true }: { actions: Action[]; orgSlug: string; label: string; showSite?: boolean }) {
  return (
    <ul className="action-list" aria-label={label}>
      {actions.map((action) => (
        <li key={action.id} className="action-row">
          <div className="action-row-main">
            <Link to={`/o/${orgSlug}/actions/${action.id}`} className="action-row-title">
              {action.title}
            </Link>
            <p className="action-row-meta">
              {showSite ? (
                <span className="inline-icon">
                  <MapPin aria-hidden="true" size={16} />
                  {action.site_name}
                </span>
              ) : null}
              <span>{action.assignee_name ? `Assigned to ${action.assignee_name}` : 'Unassigned'}</span>
              <span>Due {formatDateTime(action.due_at, action.site_timezone)}</span>
            </p>
          </div>
          <div className="action-row-state">
            <ActionStatusBadge status={action.status} />
            {action.overdue ? <ActionOverdueBadge /> : null}
            {action.priority === 'high' || action.priority === 'critical' ? <PriorityBadge priority={action.priority} /> : null}
            {action.item_passed_at && action.status !== 'verified' && action.status !== 'canceled' ? <ItemPassesBadge /> : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
