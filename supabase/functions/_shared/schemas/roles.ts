// Roles and what each may do (docs/product.md §6), without zod: the web app's frame (navigation, which
// buttons to show) reads these on every screen, and should not carry a validation library for it.
export const ROLES = ['owner', 'admin', 'manager', 'inspector', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do (docs/product.md §6); the web shows only the buttons a role allows. */
export const can = {
  manageMembers: (role: Role) => role === 'owner' || role === 'admin',
  manageOwners: (role: Role) => role === 'owner',
  manageSites: (role: Role) => role === 'owner' || role === 'admin' || role === 'manager',
  manageSettings: (role: Role) => role === 'owner' || role === 'admin',
  /** The full audit log, on the settings page (issue 11; docs/actions.md). */
  readAuditLog: (role: Role) => role === 'owner' || role === 'admin' || role === 'manager',
  deleteOrganization: (role: Role) => role === 'owner',
};
