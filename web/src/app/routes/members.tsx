import { can } from '@schemas/roles';
import { INVITATION_LIFETIME_DAYS } from '@schemas/members';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { InviteMemberForm } from '@/features/invitations/components/invite-member-form';
import { PendingInvitations } from '@/features/invitations/components/pending-invitations';
import { MembersTable, type SiteAccessColumn } from '@/features/members/components/members-table';
import { MemberAccessEditor, memberAccessText } from '@/features/site-groups/components/member-access-editor';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useOrgRoute } from '../org-context';
import { refreshOrganizations } from '../refresh-memberships';
import type { OrgsRouteState } from './orgs';

export function MembersRoute() {
  const { membership, userId } = useOrgRoute();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { tree } = useGroupTree(membership.org_id);
  const siteAccess: SiteAccessColumn = {
    describe: (member) => memberAccessText(member, tree),
    editor: can.manageMembers(membership.role)
      ? (member, name, close) => (
          <MemberAccessEditor
            orgId={membership.org_id}
            member={member}
            name={name}
            tree={tree}
            noGroups={
              <>
                This organization has no site groups yet. <Link to={`/o/${membership.org_slug}/sites`}>Make them on the Sites page.</Link>
              </>
            }
            onDone={close}
          />
        )
      : undefined,
  };

  function onOwnMembershipChanged(left: boolean) {
    if (left) {
      navigate('/orgs', { replace: true, state: { notice: `You left ${membership.org_name}.` } satisfies OrgsRouteState });
    }
    // The organization list shows roles too: leaving or a new role of one's own changes it.
    refreshOrganizations(queryClient);
  }

  return (
    <ContentLayout title="Members" description={membership.org_name}>
      <section className="panel" aria-labelledby="members-heading">
        <h2 id="members-heading">People in {membership.org_name}</h2>
        <MembersTable
          orgId={membership.org_id}
          orgName={membership.org_name}
          role={membership.role}
          currentUserId={userId}
          onOwnMembershipChanged={onOwnMembershipChanged}
          siteAccess={siteAccess}
        />
      </section>
      {can.manageMembers(membership.role) ? (
        <>
          <section className="panel" aria-labelledby="invite-heading">
            <h2 id="invite-heading">Invite someone</h2>
            <p className="muted">They get an email with a link to join. The link works for {INVITATION_LIFETIME_DAYS} days.</p>
            <InviteMemberForm orgId={membership.org_id} role={membership.role} />
          </section>
          <section className="panel" aria-labelledby="pending-heading">
            <h2 id="pending-heading">Pending invitations</h2>
            <PendingInvitations orgId={membership.org_id} />
          </section>
        </>
      ) : null}
    </ContentLayout>
  );
}
