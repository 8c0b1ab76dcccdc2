import { formatWording, errorCatalogue } from '@schemas/errors';
import { useEffect, useState } from 'react';
import { Link, Navigate, Outlet, useLocation, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useMe } from '@/features/profile/api/get-me';
import { rememberLastOrganization } from '@/lib/last-organization';
import { useOrgLiveUpdates } from '../org-live-updates';
import type { OrgRouteContext } from '../org-context';
import { QueryError } from '@/components/ui/query-error';
import { isWaitingForNetwork, NotOnDevice, pageNotOnDevice } from '@/components/ui/not-on-device';

/** `/o/:org`: resolves the slug through the user's memberships; an unknown one is not found. */
export function OrgLayout() {
  const { org: slug = '' } = useParams();
  const location = useLocation();
  const me = useMe();
  const membership = me.data?.memberships.find((candidate) => candidate.org_slug === slug);
  const userId = me.data?.user_id;
  // The organization this page showed last, to follow it when its slug is changed while we look.
  const [shown, setShown] = useState<{ orgId: string; slug: string } | undefined>();
  useOrgLiveUpdates(membership, userId);

  useEffect(() => {
    if (membership && userId) rememberLastOrganization(userId, membership.org_slug);
    if (membership) setShown({ orgId: membership.org_id, slug: membership.org_slug });
  }, [membership, userId]);

  if (!me.data && isWaitingForNetwork(me)) {
    return (
      <ContentLayout title="Fieldcheck">
        <NotOnDevice message={pageNotOnDevice} />
      </ContentLayout>
    );
  }
  if (me.isPending) return <LoadingScreen />;
  if (me.isError && !me.data) {
    return (
      <ContentLayout title="Organization">
        <QueryError error={me.error} onRetry={() => me.refetch()} />
      </ContentLayout>
    );
  }
  if (!membership) {
    const renamed = shown?.slug === slug ? me.data.memberships.find((candidate) => candidate.org_id === shown.orgId) : undefined;
    if (renamed) {
      const rest = location.pathname.slice(`/o/${slug}`.length);
      return <Navigate to={`/o/${renamed.org_slug}${rest}${location.search}${location.hash}`} replace />;
    }
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
