import { describeAuditEntry } from '@schemas/audit-entries';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { formatDateTime } from '@/lib/format';
import { useActivity } from '../api/get-activity';
import { entryPath } from './entry-link';
import './audit.css';
import { QueryError } from '@/components/ui/query-error';

/**
 * The last steps of the organization's work, newest first; org-live-updates refreshes it on every
 * change. A step at a site reads on the site's clock (as its due dates), the rest on this device's.
 */
export function ActivityFeed({ orgId, orgSlug }: { orgId: string; orgSlug: string }) {
  const activity = useActivity(orgId);
  // Room held for the feed while it loads, so the page below does not jump.
  if (activity.isPending) return <p className="muted activity-loading">Loading activity…</p>;
  if (activity.isError && !activity.data) {
    return (
      <div className="stack">
        <QueryError error={activity.error} onRetry={() => activity.refetch()} />
        <div>
          <Button variant="secondary" onClick={() => void activity.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  const entries = activity.data.data;
  if (entries.length === 0) return <p className="muted">Nothing has happened yet. Schedule an inspection to get going.</p>;
  return (
    <ol className="activity-feed" aria-label="Latest activity" aria-live="polite">
      {entries.map((entry) => {
        const path = entryPath(entry, orgSlug);
        const sentence = describeAuditEntry(entry);
        return (
          <li key={entry.id} className="activity-entry">
            <p>{path ? <Link to={path}>{sentence}</Link> : sentence}</p>
            <p className="muted">
              <time dateTime={entry.at}>{formatDateTime(entry.at, entry.site_timezone ?? undefined)}</time>
            </p>
          </li>
        );
      })}
    </ol>
  );
}
