import type { Dashboard } from '@schemas/dashboard';
import { INSPECTION_STATUSES, STATUS_LABELS } from '@schemas/inspection-states';
import { CircleX, TriangleAlert, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { CountTile, CountTileLoading } from '@/components/ui/count-tile';
import { withGroup } from '@/lib/group-param';
import { useDashboard } from '../api/get-dashboard';
import './dashboard.css';
import { QueryError } from '@/components/ui/query-error';

/** While the counts load, tiles of the same size hold their place, so nothing jumps when they arrive. */
function Placeholders({ count, label }: { count: number; label: string }) {
  return (
    <ul className="count-tiles" aria-label={label} aria-busy="true">
      {Array.from({ length: count }, (_, i) => (
        <CountTileLoading key={i} />
      ))}
    </ul>
  );
}

function useDashboardData(orgId: string, groupId: string, placeholders: { count: number; label: string }): { data?: Dashboard; problem?: ReactNode } {
  const dashboard = useDashboard(orgId, groupId);
  if (dashboard.isPending) return { problem: <Placeholders {...placeholders} /> };
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

/** What each count shows: the organization's, or one site group's (`?group=` of the dashboard, kept by the links). */
interface CountsProps {
  orgId: string;
  orgPath: string;
  groupId: string;
}

/** Inspections by status, overdue work and failed items this week; each a link; refreshed live by org events. */
export function DashboardCounts({ orgId, orgPath, groupId }: CountsProps) {
  const { data, problem } = useDashboardData(orgId, groupId, { count: INSPECTION_STATUSES.length + 2, label: 'Inspections by status' });
  if (!data) return problem;
  const inspections = `${orgPath}/inspections`;
  const to = (path: string) => withGroup(path, groupId);
  return (
    <div className="stack">
      <ul className="count-tiles" aria-label="Inspections by status">
        {INSPECTION_STATUSES.map((status) => (
          <CountTile key={status} to={to(`${inspections}?status=${status}`)} count={data.inspections_by_status[status] ?? 0}>
            {STATUS_LABELS[status]}
          </CountTile>
        ))}
      </ul>
      <ul className="count-tiles" aria-label="Attention">
        <CountTile to={to(`${inspections}?overdue=true`)} count={data.overdue} alert={data.overdue > 0}>
          <TriangleAlert aria-hidden="true" size={16} />
          Overdue inspections
        </CountTile>
        <CountTile to={to(`${orgPath}/actions`)} count={data.failed_items_this_week} alert={data.failed_items_this_week > 0}>
          <CircleX aria-hidden="true" size={16} />
          Failed items this week
        </CountTile>
      </ul>
      <p>
        <Link to={to(inspections)}>See all inspections</Link>
      </p>
    </div>
  );
}

/** Open and overdue corrective actions, and where each stands; each a link to the filtered list. */
export function ActionCounts({ orgId, orgPath, groupId }: CountsProps) {
  const { data, problem } = useDashboardData(orgId, groupId, { count: 3, label: 'Actions' });
  if (!data) return problem;
  const actions = `${orgPath}/actions`;
  const to = (path: string) => withGroup(path, groupId);
  return (
    <div className="stack">
      <ul className="count-tiles" aria-label="Actions">
        <CountTile to={to(`${actions}?status=open,in_progress`)} count={data.open_actions}>
          <Wrench aria-hidden="true" size={16} />
          Open actions
        </CountTile>
        <CountTile to={to(`${actions}?status=open,in_progress&overdue=true`)} count={data.overdue_actions} alert={data.overdue_actions > 0}>
          <TriangleAlert aria-hidden="true" size={16} />
          Overdue actions
        </CountTile>
        <CountTile to={to(`${actions}?status=resolved`)} count={data.actions_by_status.resolved}>
          Waiting for verification
        </CountTile>
      </ul>
      <p>
        <Link to={to(actions)}>See all actions</Link>
      </p>
    </div>
  );
}

/** The caller's own work: inspections assigned and not yet submitted, actions assigned and open. */
export function MyWork({ orgId, orgPath, groupId }: CountsProps) {
  const { data, problem } = useDashboardData(orgId, groupId, { count: 4, label: 'My work' });
  if (!data) return problem;
  const mine = data.my_work;
  const to = (path: string) => withGroup(path, groupId);
  return (
    <ul className="count-tiles" aria-label="My work">
      <CountTile to={to(`${orgPath}/inspections?assignee=me`)} count={mine.inspections_due}>
        My inspections to do
      </CountTile>
      <CountTile to={to(`${orgPath}/inspections?assignee=me&overdue=true`)} count={mine.inspections_overdue} alert={mine.inspections_overdue > 0}>
        My overdue inspections
      </CountTile>
      <CountTile to={to(`${orgPath}/actions?assignee=me&status=open,in_progress`)} count={mine.open_actions}>
        My open actions
      </CountTile>
      <CountTile to={to(`${orgPath}/actions?assignee=me&status=open,in_progress&overdue=true`)} count={mine.overdue_actions} alert={mine.overdue_actions > 0}>
        My overdue actions
      </CountTile>
    </ul>
  );
}
