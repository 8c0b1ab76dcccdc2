import { isId } from '@schemas/ids';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { Link, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useAction } from '@/features/actions/api/get-action';
import { ActionDetailView } from '@/features/actions/components/action-detail-view';
import { describeError } from '@/lib/errors';
import { useMemberChoices, worksActions } from '../use-member-choices';
import { useOrgRoute } from '../org-context';
import { QueryError } from '@/components/ui/query-error';

const actionNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'action' });

/** `/o/:org/actions/:actionId`: one corrective action. */
export function ActionDetailRoute() {
  const { actionId = '' } = useParams();
  return isId(actionId) ? <ActionDetail actionId={actionId} /> : <ActionNotFound />;
}

function BackToActions() {
  const { membership } = useOrgRoute();
  return (
    <p>
      <Link to={`/o/${membership.org_slug}/actions`}>Back to actions</Link>
    </p>
  );
}

function ActionNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={actionNotFound} description={membership.org_name}>
      <BackToActions />
    </ContentLayout>
  );
}

function ActionDetail({ actionId }: { actionId: string }) {
  const { membership, userId } = useOrgRoute();
  const action = useAction(membership.org_id, actionId);
  const assignees = useMemberChoices(membership.org_id, worksActions);

  if (action.isPending) return <LoadingScreen />;
  if (action.isError && !action.data) {
    const failure = describeError(action.error);
    if (failure.code === 'not_found') return <ActionNotFound />;
    return (
      <ContentLayout title="Action" description={membership.org_name}>
        <QueryError error={action.error} onRetry={() => action.refetch()} />
        <div>
          <Button variant="secondary" onClick={() => void action.refetch()}>
            Try again
          </Button>
        </div>
        <BackToActions />
      </ContentLayout>
    );
  }
  return (
    <ContentLayout title={action.data.title} description={membership.org_name}>
      <ActionDetailView
        orgId={membership.org_id}
        orgSlug={membership.org_slug}
        userId={userId}
        role={membership.role}
        action={action.data}
        assignees={assignees}
      />
      <BackToActions />
    </ContentLayout>
  );
}
