import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { formatDateTime } from '@/lib/format';
import { useInspections } from '../api/get-inspections';
import type { Inspection } from '../types';
import { formatScore } from '../utils/inspection-format';
import { InspectionStatusBadge, OverdueBadge } from './inspection-status-badge';
import './inspections.css';
import { QueryError } from '@/components/ui/query-error';

/** When an inspection happened, as its history reads: submitted, else started, else due, else scheduled. */
function whenOf(inspection: Inspection): string {
  if (inspection.submitted_at) return `Submitted ${formatDateTime(inspection.submitted_at, inspection.site_timezone)}`;
  if (inspection.started_at) return `Started ${formatDateTime(inspection.started_at, inspection.site_timezone)}`;
  if (inspection.due_at) return `Due ${formatDateTime(inspection.due_at, inspection.site_timezone)}`;
  return `Scheduled ${formatDateTime(inspection.created_at, inspection.site_timezone)}`;
}

/** A site's inspections, newest first: date, template, score and status. */
export function SiteInspectionHistory({ orgId, orgSlug, siteId }: { orgId: string; orgSlug: string; siteId: string }) {
  const inspections = useInspections(orgId, { q: '', status: '', siteId, assigneeId: '', overdue: false });
  const rows = inspections.data?.pages.flatMap((page) => page.data) ?? [];
  if (inspections.isPending) return <p className="muted">Loading inspections…</p>;
  if (inspections.isError && rows.length === 0) {
    return (
      <div className="stack">
        <QueryError error={inspections.error} onRetry={() => inspections.refetch()} />
        <div>
          <Button variant="secondary" onClick={() => void inspections.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  if (rows.length === 0) return <p className="muted">No inspections of this site yet.</p>;
  return (
    <div className="stack">
      <ul className="inspection-list" aria-label="Inspection history">
        {rows.map((inspection) => {
          const score = formatScore(inspection);
          return (
            <li key={inspection.id} className="inspection-row">
              <div className="inspection-row-main">
                <Link to={`/o/${orgSlug}/inspections/${inspection.id}`} className="inspection-row-title">
                  {inspection.template_name} (version {inspection.template_version})
                </Link>
                <p className="inspection-row-meta">
                  <span>{whenOf(inspection)}</span>
                  {score ? <span>Score {score}</span> : null}
                  {inspection.failed_count > 0 ? <span>{inspection.failed_count} failed</span> : null}
                </p>
              </div>
              <div className="inspection-row-state">
                <InspectionStatusBadge status={inspection.status} />
                {inspection.overdue ? <OverdueBadge /> : null}
              </div>
            </li>
          );
        })}
      </ul>
      <LoadMoreButton query={inspections} />
    </div>
  );
}
