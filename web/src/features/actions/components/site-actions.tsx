import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { useActions } from '../api/get-actions';
import { ActionRows } from './action-rows';
import { QueryError } from '@/components/ui/query-error';

const OPEN = ['open', 'in_progress'] as const;

/** A site's open and in-progress actions, with a link to all of them. */
export function SiteActions({ orgId, orgSlug, siteId }: { orgId: string; orgSlug: string; siteId: string }) {
  const actions = useActions(orgId, { statuses: [...OPEN], priorities: [], assigneeId: '', siteId, inspectionId: '', overdue: false });
  const rows = actions.data?.pages.flatMap((page) => page.data) ?? [];
  if (actions.isPending) return <p className="muted">Loading actions…</p>;
  if (actions.isError && !actions.data) {
    return (
      <div className="stack">
        <QueryError error={actions.error} onRetry={() => actions.refetch()} />
        <div>
          <Button variant="secondary" onClick={() => void actions.refetch()}>
            Try again
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div className="stack">
      {rows.length === 0 ? <p className="muted">No open actions at this site.</p> : <ActionRows actions={rows} orgSlug={orgSlug} label="Open actions" showSite={false} />}
      <p>
        <Link to={`/o/${orgSlug}/actions?site=${siteId}`}>All actions at this site, including finished ones</Link>
      </p>
    </div>
  );
}
