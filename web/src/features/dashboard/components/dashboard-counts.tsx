import type { Dashboard } from '@schemas/dashboard';
import { INSPECTION_STATUSES, STATUS_LABELS } from '@schemas/inspection-states';
import { CircleX, TriangleAlert, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { CountTile, CountTilesLoading } from '@/components/ui/count-tile';
import { useDashboard } from '../api/get-dashboard';
import './dashboard.css';
import { QueryError } from '@/components/ui/query-error';

function useDashboardData(orgId: string, placeholders: { count: number; label: string }): { data?: Dashboard; problem?: ReactNode } {
  const dashboard = useDashboard(orgId);
  if (dashboard.isPending) return { problem: <CountTilesLoading {...placeholders} /> };
  if (dashboard.isError && !dashboard.data) {
    return {
      problem: (
        <div className="stack">
          <QueryError error={dashboard.error} onRetry={() => dashboard.refetch()} />
          <div>
            <Button variant="secondary" onClick={() => void dashboard.refetch()}>
              Try again
            </Button>
          </div>
        </div>
      ),
    };
  }
  return { data: dashboard.data };
}

/** Inspections by status, overdue work and failed items this week; each a link; refreshed live by org events. */
export function DashboardCounts({ orgId, orgPath }: { orgId: string; orgPath: string }) {
  const { data, problem } = useDashboardData(orgId, { count: INSPECTION_STATUSES.length + 2, label: 'Inspections by status' });
  if (!data) return problem;
  const inspections = `${orgPath}/inspections`;
  return (
    <div className="stack">
      <ul className="count-tiles" aria-label="Inspections by status">
        {INSPECTION_STATUSES.map((status) => (
          <CountTile key={status} to={`${inspections}?status=${status}`} count={data.inspections_by_status[status] ?? 0}>
            {STATUS_LABELS[status]}
          </CountTile>
        ))}
      </ul>
      <ul className="count-tiles" aria-label="Attention">
        <CountTile to={`${inspections}?overdue=true`} count={data.overdue} alert={data.overdue > 0}>
          <TriangleAlert aria-hidden="true" size={16} />
          Overdue inspections
        </CountTile>
        <CountTile to={`${orgPath}/actions`} count={data.failed_items_this_week} alert={data.failed_items_this_week > 0}>
          <CircleX aria-hidden="true" size={16} />
          Failed items this week
        </CountTile>
      </ul>
      <p>
        <Link to={inspections}>See all inspections</Link>
      </p>
    </div>
  );
}

/** Open and overdue corrective actions, and where each stands; each a link to the filtered list. */
export function ActionCounts({ orgId, orgPath }: { orgId: string; orgPath: string }) {
  const { data, problem } = useDashboardData(orgId, { count: 3, label: 'Actions' });
  if (!data) return problem;
  const actions = `${orgPath}/actions`;
  return (
    <div className="stack">
      <ul className="count-tiles" aria-label="Actions">
        <CountTile to={`${actions}?status=open,in_progress`} count={data.open_actions}>
          <Wrench aria-hidden="true" size={16} />
          Open actions
        </CountTile>
        <CountTile to={`${actions}?status=open,in_progress&overdue=true`} count={data.overdue_actions} alert={data.overdue_actions > 0}>
          <TriangleAlert aria-hidden="true" size={16} />
          Overdue actions
        </CountTile>
        <CountTile to={`${actions}?status=resolved`} count={data.actions_by_status.resolved}>
          Waiting for verification
        </CountTile>
      </ul>
      <p>
        <Link to={actions}>See all actions</Link>
      </p>
    </div>
  );
}

/** The caller's own work: inspections assigned and not yet submitted, actions assigned and open. */
export function MyWork({ orgId, orgPath }: { orgId: string; orgPath: string }) {
  const { data, problem } = useDashboardData(orgId, { count: 4, label: 'My work' });
  if (!data) return problem;
  const mine = data.my_work;
  return (
    <ul className="count-tiles" aria-label="My work">
      <CountTile to={`${orgPath}/inspections?assignee=me`} count={mine.inspections_due}>
        My inspections to do
      </CountTile>
      <CountTile to={`${orgPath}/inspections?assignee=me&overdue=true`} count={mine.inspections_overdue} alert={mine.inspections_overdue > 0}>
        My overdue inspections
      </CountTile>
      <CountTile to={`${orgPath}/actions?assignee=me&status=open,in_progress`} count={mine.open_actions}>
        My open actions
      </CountTile>
      <CountTile to={`${orgPath}/actions?assignee=me&status=open,in_progress&overdue=true`} count={mine.overdue_actions} alert={mine.overdue_actions > 0}>
        My overdue actions
      </CountTile>
    </ul>
  );
}
