import { can } from '@schemas/common';
import { isId } from '@schemas/ids';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { Link, useLocation, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { canManageActions, canOpenActions } from '@schemas/action-states';
import { NewActionPanel } from '@/features/actions/components/new-action-panel';
import { SiteActions } from '@/features/actions/components/site-actions';
import { SiteInspectionHistory } from '@/features/inspections/components/site-inspection-history';
import { ComplianceTable } from '@/features/schedules/components/compliance-figures';
import { useMe } from '@/features/profile/api/get-me';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useSiteFormGroups } from '@/features/site-groups/hooks/use-site-form-groups';
import { groupPathText } from '@/features/site-groups/utils/group-tree';
import { useSite } from '@/features/sites/api/get-site';
import { SiteArchiveControl } from '@/features/sites/components/site-archive-control';
import { SiteDetails } from '@/features/sites/components/site-details';
import { SiteEditor } from '@/features/sites/components/site-editor';
import { SiteViewers } from '@/features/sites/components/site-viewers';
import { describeError } from '@/lib/errors';
import { scopeOfMembership } from '@/lib/org-channel';
import { SiteTimeZone } from '@/lib/site-time-zone';
import { useOrgRoute } from '../org-context';
import { useMemberChoices, worksActions } from '../use-member-choices';
import { QueryError } from '@/components/ui/query-error';

export interface SiteRouteState {
  notice?: string;
}

const siteNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'site' });

export function SiteDetailRoute() {
  const { siteId = '' } = useParams();
  const validId = isId(siteId);
  return validId ? <SiteDetail siteId={siteId} /> : <SiteNotFound />;
}

function SiteNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={siteNotFound} description={membership.org_name}>
      <Link to={`/o/${membership.org_slug}/sites`}>Back to sites</Link>
    </ContentLayout>
  );
}

function SiteDetail({ siteId }: { siteId: string }) {
  const { membership, userId } = useOrgRoute();
  const location = useLocation();
  const me = useMe();
  const site = useSite(membership.org_id, siteId);
  const assignees = useMemberChoices(membership.org_id, worksActions);
  const { tree } = useGroupTree(membership.org_id);
  const groups = useSiteFormGroups(membership.org_id, { orgWide: membership.org_wide, groupIds: membership.site_group_ids });
  const notice = (location.state as SiteRouteState | null)?.notice;
  const sitesPath = `/o/${membership.org_slug}/sites`;

  if (site.isPending) return <LoadingScreen />;
  if (site.isError && !site.data) {
    const failure = describeError(site.error);
    if (failure.code === 'not_found') return <SiteNotFound />;
    return (
      <ContentLayout title="Site" description={membership.org_name}>
        <QueryError error={site.error} onRetry={() => site.refetch()} />
      </ContentLayout>
    );
  }

  const canManage = can.manageSites(membership.role);
  return (
    <ContentLayout title={site.data.name} description={membership.org_name}>
      <FormAlert tone="success" message={notice} />
      <SiteViewers
        orgId={membership.org_id}
        siteId={site.data.id}
        groupId={site.data.group_id}
        self={{ userId, displayName: me.data?.display_name || me.data?.email || 'A member' }}
      />
      <section className="panel" aria-labelledby="site-actions-heading">
        <h2 id="site-actions-heading">Open actions</h2>
        <div className="stack">
          <SiteActions orgId={membership.org_id} orgSlug={membership.org_slug} siteId={site.data.id} />
          {canOpenActions(membership.role) && !site.data.archived_at ? (
            // Its due time is typed on the site's clock.
            <SiteTimeZone.Provider value={site.data.timezone}>
              <NewActionPanel
                orgId={membership.org_id}
                orgSlug={membership.org_slug}
                context={{ site_id: site.data.id }}
                assignees={canManageActions(membership.role) ? assignees : undefined}
                buttonLabel={`Add action at ${site.data.name}`}
              />
            </SiteTimeZone.Provider>
          ) : null}
        </div>
      </section>
      <section className="panel" aria-labelledby="site-compliance-heading">
        <h2 id="site-compliance-heading">Compliance</h2>
        <ComplianceTable orgId={membership.org_id} orgSlug={membership.org_slug} groupBy="schedule" siteId={site.data.id} />
      </section>
      <section className="panel" aria-labelledby="site-history-heading">
        <h2 id="site-history-heading">Inspection history</h2>
        <SiteInspectionHistory orgId={membership.org_id} orgSlug={membership.org_slug} siteId={site.data.id} />
      </section>
      {canManage ? (
        <>
          <section className="panel" aria-labelledby="site-details-heading">
            <h2 id="site-details-heading">Details</h2>
            <SiteEditor key={site.data.id} orgId={membership.org_id} site={site.data} userId={userId} liveScope={scopeOfMembership(membership)} groups={groups} />
          </section>
          <section className="panel" aria-labelledby="site-archive-heading">
            <h2 id="site-archive-heading">{site.data.archived_at ? 'Archived' : 'Archive'}</h2>
            <SiteArchiveControl orgId={membership.org_id} site={site.data} />
          </section>
        </>
      ) : (
        <section className="panel" aria-labelledby="site-details-heading">
          <h2 id="site-details-heading">Details</h2>
          <SiteDetails site={site.data} group={tree && tree.roots.length > 0 ? groupPathText(tree, site.data.group_id) : undefined} />
        </section>
      )}
      <p>
        <Link to={sitesPath}>Back to sites</Link>
      </p>
    </ContentLayout>
  );
}
