import { can, type Role } from '@schemas/roles';
import type { Member } from '@schemas/members';
import { Fragment, useState, type ReactNode } from 'react';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadMoreButton } from '@/components/ui/paged-list';
import { describeErrorSentence } from '@/lib/errors';
import { grantableRoleOptions, roleLabel, roleOptions } from '@/lib/roles';
import { useMembers } from '../api/get-members';
import { useRemoveMember } from '../api/remove-member';
import { useUpdateMemberRole } from '../api/update-member-role';
import { QueryError } from '@/components/ui/query-error';

interface MembersTableProps {
  orgId: string;
  orgName: string;
  /** The signed-in user's role here: decides which controls appear. */
  role: Role;
  currentUserId: string;
  /** The user's own membership changed (new role) or ended (left): memberships must be re-read. */
  onOwnMembershipChanged: (left: boolean) => void;
  /** The sites each member sees (the members page brings it from the site groups). */
  siteAccess?: SiteAccessColumn;
}

/** A column of the sites each member sees, and for owners and admins an editor of them. */
export interface SiteAccessColumn {
  /** "All sites", "North, South". */
  describe: (member: Member) => string;
  /** The member's editor (when the caller may change what they see), closed with a notice once saved. */
  editor?: (member: Member, name: string, close: (notice?: string) => void) => ReactNode;
}

/** Which roles the caller may give `member` (none: the role is shown as text). */
function assignableRoles(callerRole: Role, member: Member): Role[] {
  if (!can.manageMembers(callerRole)) return [];
  // Admins manage everyone but owners, and can't make anyone an owner.
  if (member.role === 'owner' && !can.manageOwners(callerRole)) return [];
  return grantableRoleOptions(callerRole).map((option) => option.value);
}

function displayName(member: Member): string {
  return member.display_name || member.email || 'Unnamed member';
}

/** Whether the caller may limit `member` to site groups: owners and admins, of members who are neither. */
function mayChangeAccess(callerRole: Role, member: Member): boolean {
  return can.manageMembers(callerRole) && member.role !== 'owner' && member.role !== 'admin';
}

export function MembersTable({ orgId, orgName, role, currentUserId, onOwnMembershipChanged, siteAccess }: MembersTableProps) {
  const members = useMembers(orgId);
  const updateRole = useUpdateMemberRole();
  const removeMember = useRemoveMember();
  const [error, setError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [editingAccess, setEditingAccess] = useState<string | null>(null);

  if (members.isPending) return <p className="muted">Loading members…</p>;
  if (members.isError) return <QueryError error={members.error} onRetry={() => members.refetch()} />;

  const rows = members.data.pages.flatMap((page) => page.data);

  function changeRole(member: Member, newRole: Role) {
    setError(undefined);
    setNotice(undefined);
    updateRole.mutate(
      { orgId, userId: member.user_id, role: newRole },
      {
        onSuccess: () => {
          setNotice(`${displayName(member)} is now ${roleLabel(newRole).toLowerCase()}.`);
          if (member.user_id === currentUserId) onOwnMembershipChanged(false);
        },
        onError: (cause) => setError(describeErrorSentence(cause)),
      },
    );
  }

  function remove(member: Member) {
    setError(undefined);
    setNotice(undefined);
    const leaving = member.user_id === currentUserId;
    removeMember.mutate(
      { orgId, userId: member.user_id },
      {
        onSuccess: () => {
          if (leaving) onOwnMembershipChanged(true);
          else setNotice(`${displayName(member)} was removed from ${orgName}.`);
        },
        onError: (cause) => setError(describeErrorSentence(cause)),
      },
    );
  }

  return (
    <div className="stack">
      <FormAlert message={error} />
      <FormAlert tone="success" message={notice} />
      <div className="table-scroll">
        <table className="table table-stacked">
          <caption className="visually-hidden">Members of {orgName}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              {siteAccess ? <th scope="col">Sites</th> : null}
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((member) => {
              const isSelf = member.user_id === currentUserId;
              const roles = assignableRoles(role, member);
              const name = displayName(member);
              const pendingRole =
                updateRole.isPending && updateRole.variables.userId === member.user_id ? updateRole.variables.role : undefined;
              const removing = removeMember.isPending && removeMember.variables.userId === member.user_id;
              const accessEditor = siteAccess?.editor && mayChangeAccess(role, member) ? siteAccess.editor : undefined;
              return (
                <Fragment key={member.user_id}>
                  <tr>
                    <th scope="row">
                      {name}
                      {isSelf ? <span className="muted"> (you)</span> : null}
                    </th>
                    <td data-label="Email">{member.email ?? '—'}</td>
                    <td data-label="Role">
                      {roles.length > 0 ? (
                        <select
                          className="inline-select"
                          aria-label={`Role of ${name}`}
                          value={pendingRole ?? member.role}
                          disabled={pendingRole !== undefined}
                          onChange={(event) => changeRole(member, event.target.value as Role)}
                        >
                          {/* An owner seen by an admin keeps its label even though admins can't grant it. */}
                          {roleOptions
                            .filter((option) => roles.includes(option.value) || option.value === member.role)
                            .map((option) => (
                              <option key={option.value} value={option.value}>
                                {option.label}
                              </option>
                            ))}
                        </select>
                      ) : (
                        <span className="badge">{roleLabel(member.role)}</span>
                      )}
                    </td>
                    {siteAccess ? (
                      <td data-label="Sites" className="member-sites">
                        <span>{siteAccess.describe(member)}</span>
                        {accessEditor && editingAccess !== member.user_id ? (
                          <button
                            type="button"
                            className="button button-link member-sites-change"
                            aria-label={`Change the sites ${name} sees`}
                            onClick={() => {
                              setNotice(undefined);
                              setEditingAccess(member.user_id);
                            }}
                          >
                            Change
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                    <td className="table-actions">
                      {isSelf ? (
                        <ConfirmButton
                          variant="secondary"
                          question={`Leave ${orgName}?`}
                          confirmText="Yes, leave"
                          pending={removing}
                          onConfirm={() => remove(member)}
                        >
                          Leave
                        </ConfirmButton>
                      ) : roles.length > 0 ? (
                        <ConfirmButton
                          label={`Remove ${name}`}
                          question={`Remove ${name} from ${orgName}?`}
                          confirmText="Yes, remove"
                          pending={removing}
                          onConfirm={() => remove(member)}
                        >
                          Remove
                        </ConfirmButton>
                      ) : null}
                    </td>
                  </tr>
                  {accessEditor && editingAccess === member.user_id ? (
                    <tr className="member-access-row">
                      <td colSpan={5}>
                        {accessEditor(member, name, (done) => {
                          setEditingAccess(null);
                          if (done) setNotice(done);
                        })}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <LoadMoreButton query={members} />
    </div>
  );
}
