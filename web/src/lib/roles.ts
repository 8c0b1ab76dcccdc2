import { can, ROLES, type Role } from '@schemas/roles';

const roleLabels: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Admin',
  manager: 'Manager',
  inspector: 'Inspector',
  viewer: 'Viewer',
};

export function roleLabel(role: Role): string {
  return roleLabels[role];
}

/** "an inspector", "a viewer": for sentences. */
export function roleWithArticle(role: Role): string {
  return `${/^[aeiou]/i.test(role) ? 'an' : 'a'} ${role}`;
}

export const roleOptions = ROLES.map((role) => ({ value: role, label: roleLabels[role] }));

/** The roles `callerRole` may give someone: only owners make owners. */
export function grantableRoleOptions(callerRole: Role) {
  return roleOptions.filter((option) => option.value !== 'owner' || can.manageOwners(callerRole));
}
