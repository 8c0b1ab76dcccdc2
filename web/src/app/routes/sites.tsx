import { can } from '@schemas/roles';
import { Plus } from 'lucide-react';
import { Link } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { SiteList } from '@/features/sites/components/site-list';
import { useOrgRoute } from '../org-context';

export function SitesRoute() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout
      title="Sites"
      description={membership.org_name}
      actions={
        can.manageSites(membership.role) ? (
          <Link className="button button-primary" to={`/o/${membership.org_slug}/sites/new`}>
            <Plus aria-hidden="true" size={18} />
            Add site
          </Link>
        ) : null
      }
    >
      <SiteList orgId={membership.org_id} orgSlug={membership.org_slug} />
    </ContentLayout>
  );
}
