// Who may call a route, checked before its SQL runs so callers get the right error (RLS makes
// the same decisions again; these checks only choose between 404 and 403).
import type { Principal, UserPrincipal } from '../_shared/auth.ts';
import type { Rows, Tx } from '../_shared/db.ts';
import { inline, type InlineSql } from '../_shared/sql-literal.ts';
import { ApiError } from '../_shared/errors.ts';
import type { Role } from '../_shared/schemas/common.ts';

/**
 * Routes about people (profiles, the organizations they belong to, invitations) and everything a
 * key may never do (manage members, keys, webhooks, settings) are for signed-in users only.
 */
export function requireUser(principal: Principal): UserPrincipal {
  if (principal.kind !== 'user') throw ApiError.forbidden('Only signed-in users can do this.');
  return principal;
}

/**
 * The caller's role in `orgId`. An organization the caller does not belong to does not exist
 * for them (404, like any other organization's data); a role not in `allowed` is a 403.
 */
export async function requireRole(tx: Tx, orgId: string, allowed?: readonly Role[]): Promise<Role> {
  // Without bind parameters: one round trip instead of two (sql-literal.ts).
  return roleAllowed(await tx.unsafe<Rows>(roleStatement(orgId).text), allowed);
}

/**
 * The caller's role in `orgId`, for `read` (one round trip with the route's own statements):
 * the same helper RLS asks, a member's role or an API key's role in its own organization.
 */
export function roleStatement(orgId: string): InlineSql {
  return inline`select private.current_org_role(${orgId}::uuid) as role`;
}

/** roleStatement's rows → the role, or the 404 / 403 requireRole answers. */
export function roleAllowed(rows: Rows, allowed?: readonly Role[]): Role {
  const role = rows[0]?.role as Role | null | undefined;
  if (!role) throw ApiError.notFound('organization');
  if (allowed && !allowed.includes(role)) throw ApiError.forbidden();
  return role;
}

export const MEMBER_MANAGERS = ['owner', 'admin'] as const satisfies readonly Role[];
export const SITE_MANAGERS = ['owner', 'admin', 'manager'] as const satisfies readonly Role[];

/** Timestamps leave the API as ISO 8601 strings. */
export function iso(value: Date): string;
export function iso(value: Date | null): string | null;
export function iso(value: Date | null): string | null {
  return value === null ? null : value.toISOString();
}

/** The signed-in user behind a request, or null for an API key (a key is nobody's assignee). */
export function userIdOf(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.userId : null;
}
