import { formatWording, errorCatalogue } from '@schemas/errors';
import { useEffect } from 'react';
import { Link, Outlet, useParams } from 'react-router-dom';
import { ContentLayout } from '../../components/layouts/content-layout';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingScreen } from '../../components/ui/loading-screen';
import { useMe } from '../../features/profile/api/get-me';
import { describeError } from '../../lib/errors';
import { rememberLastOrganization } from '../../lib/last-organization';
import type { OrgRouteContext } from '../org-context';

/** `/o/:org`: resolves the slug through the user's memberships; an unknown one is not found. */
export function OrgLayout() {
  const { org: slug = '' } = useParams();
  const me = useMe();
  const membership = me.data?.memberships.find((candidate) => candidate.org_slug === slug);
  const userId = me.data?.user_id;

  useEffect(() => {
    if (membership && userId) rememberLastOrganization(userId, membership.org_slug);
  }, [membership, userId]);

  if (me.isPending) return <LoadingScreen />;
  if (me.isError) {
    return (
      <ContentLayout title="Organization">
        <FormAlert message={describeError(me.error).message} />
      </ContentLayout>
    );
  }
  if (!membership) {
    // Just joined or created: the memberships may still be on their way.
    if (me.isFetching) return <LoadingScreen />;
    return (
      <ContentLayout title={formatWording(errorCatalogue.not_found.title, { thing: 'organization' })}>
        <p>It may have been deleted, or you are not a member of it.</p>
        <Link className="button button-primary" to="/orgs">
          See your organizations
        </Link>
      </ContentLayout>
    );
  }

  return <Outlet context={{ membership, userId: me.data.user_id } satisfies OrgRouteContext} />;
}
