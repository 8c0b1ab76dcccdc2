import { canOpenActions } from '@schemas/action-states';
import { ContentLayout } from '@/components/layouts/content-layout';
import { ActionList, MyActions } from '@/features/actions/components/action-list';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useMemberChoices, worksActions } from '../use-member-choices';
import { useOrgRoute } from '../org-context';

/** `/o/:org/actions`: what is assigned to the caller first, then every action, filtered by the URL. */
export function ActionsRoute() {
  const { membership, userId } = useOrgRoute();
  const assignees = useMemberChoices(membership.org_id, worksActions);
  const groups = useGroupTree(membership.org_id).choices;
  return (
    <ContentLayout title="Actions" description={`Corrective actions in ${membership.org_name}: open a problem, fix it, prove it is fixed.`}>
      {canOpenActions(membership.role) ? (
        <section className="panel" aria-labelledby="mine-heading">
          <h2 id="mine-heading">Assigned to you</h2>
          <MyActions orgId={membership.org_id} orgSlug={membership.org_slug} userId={userId} />
        </section>
      ) : null}
      <section aria-labelledby="all-heading" className="stack">
        <h2 id="all-heading">All actions</h2>
        <ActionList orgId={membership.org_id} orgSlug={membership.org_slug} userId={userId} assignees={assignees} groups={groups} />
      </section>
    </ContentLayout>
  );
}
