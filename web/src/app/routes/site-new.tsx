import { can } from '@schemas/roles';
import { errorCatalogue } from '@schemas/errors';
import { DEFAULT_GEOFENCE_M } from '@schemas/organizations';
import { Link, useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useSiteFormGroups } from '@/features/site-groups/hooks/use-site-form-groups';
import { SiteForm } from '@/features/sites/components/site-form';
import { useOrgRoute } from '../org-context';
import type { SiteRouteState } from './site-detail';

export function SiteNewRoute() {
  const { membership } = useOrgRoute();
  const navigate = useNavigate();
  const canManage = can.manageSites(membership.role);
  const organization = useOrganization(membership.org_id);
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
  if (organization.isPending || (!membership.org_wide && !groups)) return <LoadingScreen />;

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
