import { Navigate } from 'react-router-dom';
import { ContentLayout } from '../../components/layouts/content-layout';
import { FormAlert } from '../../components/ui/form-alert';
import { LoadingScreen } from '../../components/ui/loading-screen';
import { useMe } from '../../features/profile/api/get-me';
import { describeError } from '../../lib/errors';
import { readLastOrganization } from '../../lib/last-organization';

/** `/`: straight to the organization used last (or the first); without one, to /orgs. */
export function HomeRoute() {
  const me = useMe();
  if (me.isPending) return <LoadingScreen />;
  if (me.isError && !me.data) {
    return (
      <ContentLayout title="Fieldcheck">
        <FormAlert message={describeError(me.error).message} />
      </ContentLayout>
    );
  }
  const { memberships } = me.data;
  if (memberships.length === 0) return <Navigate to="/orgs" replace />;
  const last = readLastOrganization(me.data.user_id);
  const target = memberships.find((membership) => membership.org_slug === last) ?? memberships[0];
  return <Navigate to={`/o/${target.org_slug}`} replace />;
}
