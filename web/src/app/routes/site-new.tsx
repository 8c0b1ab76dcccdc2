import { can } from '@schemas/roles';
import { errorCatalogue } from '@schemas/errors';
import { DEFAULT_GEOFENCE_M } from '@schemas/organizations';
import { Link, useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { QueryError } from '@/components/ui/query-error';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useSiteFormGroups } from '@/features/site-groups/hooks/use-site-form-groups';
import { SiteForm } from '@/features/sites/components/site-form';
import { useOrgRoute } from '../org-context';
import type { SiteRouteState } from './site-detail';

export function SiteNewRoute() {
  const { membership } = useOrgRoute();
  const navigate = useNavigate();
  const canManage = can.manageSites(membership.role);
  const organization = useOrganization(membership.org_id);
  const groupsRead = useGroupTree(membership.org_id).query;
  const groups = useSiteFormGroups(membership.org_id, { orgWide: membership.org_wide, groupIds: membership.site_group_ids });
  const sitesPath = `/o/${membership.org_slug}/sites`;

  if (!canManage) {
    return (
      <ContentLayout title="Add a site" description={membership.org_name}>
        <FormAlert message={errorCatalogue.forbidden.title} />
        <Link to={sitesPath}>Back to sites</Link>
      </ContentLayout>
    );
  }
  // A manager limited to groups must choose one of theirs: the form waits for them.
  if (!membership.org_wide && groupsRead.isError && !groupsRead.data) {
    return (
      <ContentLayout title="Add a site" description={membership.org_name}>
        <QueryError error={groupsRead.error} onRetry={() => groupsRead.refetch()} />
        <Link to={sitesPath}>Back to sites</Link>
      </ContentLayout>
    );
  }
  if (organization.isPending || (!membership.org_wide && !groups)) return <LoadingScreen />;
  if (groups && !groups.allowNone && groups.choices.length === 0) {
    return (
      <ContentLayout title="Add a site" description={membership.org_name}>
        <FormAlert message={errorCatalogue.forbidden.title} />
        <p className="muted">You add sites in your site groups, and none is yours now: an owner or admin can give you some.</p>
        <Link to={sitesPath}>Back to sites</Link>
      </ContentLayout>
    );
  }

  return (
    <ContentLayout title="Add a site" description={membership.org_name}>
      <section className="panel">
        <SiteForm
          orgId={membership.org_id}
          // Without the organization's default, the API applies it anyway.
          defaultGeofenceM={organization.data?.default_geofence_m ?? DEFAULT_GEOFENCE_M}
          groups={groups}
          onSaved={(site) =>
            navigate(`${sitesPath}/${site.id}`, { state: { notice: `${site.name} was added.` } satisfies SiteRouteState })
          }
        />
      </section>
      <p>
        <Link to={sitesPath}>Back to sites</Link>
      </p>
    </ContentLayout>
  );
}
