import { INSPECTION_STATUSES, STATUS_LABELS } from '@schemas/inspections';
import { TriangleAlert, CircleX } from 'lucide-react';
import { Link } from 'react-router-dom';
import { FormAlert } from '../../../components/ui/form-alert';
import { describeError } from '../../../lib/errors';
import { useDashboard } from '../api/get-dashboard';
import './dashboard.css';

/** Inspections by status, overdue work and failed items this week; refreshed live by org events. */
export function DashboardCounts({ orgId, inspectionsPath }: { orgId: string; inspectionsPath: string }) {
  const dashboard = useDashboard(orgId);
  if (dashboard.isPending) return <p className="muted">Loading counts…</p>;
  if (dashboard.isError) return <FormAlert message={describeError(dashboard.error).message} />;
  const counts = dashboard.data;
  return (
    <div className="stack">
      <ul className="dashboard-counts" aria-label="Inspections by status">
        {INSPECTION_STATUSES.map((status) => (
          <li key={status} className="dashboard-count">
            <span className="dashboard-number">{counts.inspections_by_status[status] ?? 0}</span>
            <span className="dashboard-label">{STATUS_LABELS[status]}</span>
          </li>
        ))}
      </ul>
      <ul className="dashboard-counts" aria-label="Attention">
        <li className={`dashboard-count${counts.overdue > 0 ? ' dashboard-count-alert' : ''}`}>
          <span className="dashboard-number">{counts.overdue}</span>
          <span className="dashboard-label">
            <TriangleAlert aria-hidden="true" size={16} />
            Overdue
          </span>
        </li>
        <li className={`dashboard-count${counts.failed_items_this_week > 0 ? ' dashboard-count-alert' : ''}`}>
          <span className="dashboard-number">{counts.failed_items_this_week}</span>
          <span className="dashboard-label">
            <CircleX aria-hidden="true" size={16} />
            Failed items this week
          </span>
        </li>
      </ul>
      <p>
        <Link to={inspectionsPath}>See all inspections</Link>
      </p>
    </div>
  );
}
