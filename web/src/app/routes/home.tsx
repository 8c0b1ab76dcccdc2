import { Navigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useMe } from '@/features/profile/api/get-me';
import { readLastOrganization } from '@/lib/last-organization';
import { QueryError } from '@/components/ui/query-error';
import { isWaitingForNetwork, NotOnDevice, pageNotOnDevice } from '@/components/ui/not-on-device';

/** `/`: straight to the organization used last (or the first); without one, to /orgs. */
export function HomeRoute() {
  const me = useMe();
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
      <ContentLayout title="Fieldcheck">
        <QueryError error={me.error} onRetry={() => me.refetch()} />
      </ContentLayout>
    );
  }
  const { memberships } = me.data;
  if (memberships.length === 0) return <Navigate to="/orgs" replace />;
  const last = readLastOrganization(me.data.user_id);
  const target = memberships.find((membership) => membership.org_slug === last) ?? memberships[0];
  return <Navigate to={`/o/${target.org_slug}`} replace />;
}
