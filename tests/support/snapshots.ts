// Snapshots of what an organization or a user has in the database, to compare before and after a
// refused request: a refusal must write nothing. Area-only ones live with their area
// (actionSnapshot in tests/api/actions, templateSnapshot in tests/api/templates).
import { db } from './database.ts';

/** Every row an organization owns, to compare before and after a refused request. */
export async function orgSnapshot(orgId: string) {
  const sql = db();
  const [organizations, memberships, invitations, sites, audit] = await Promise.all([
    sql`select * from public.organizations where id = ${orgId}`,
    sql`select * from public.memberships where org_id = ${orgId} order by id`,
    sql`select * from public.invitations where org_id = ${orgId} order by id`,
    sql`select * from public.sites where org_id = ${orgId} order by id`,
    sql`select count(*)::int as n from public.audit_log where org_id = ${orgId}`,
  ]);
  return { organizations: [...organizations], memberships: [...memberships], invitations: [...invitations], sites: [...sites], auditEntries: audit[0].n };
}

/** What a user has made or joined: organizations they created, memberships, stored request keys. */
export async function userSnapshot(userId: string) {
  const sql = db();
  const [organizations, memberships, keys] = await Promise.all([
    sql`select * from public.organizations where created_by = ${userId} order by id`,
    sql`select * from public.memberships where user_id = ${userId} order by id`,
    sql`select key, request_hash, response_status from public.idempotency_keys where principal_id = ${userId} order by key`,
  ]);
  return { organizations: [...organizations], memberships: [...memberships], idempotencyKeys: [...keys] };
}

/** Everything an organization has of inspections, to compare before and after a refused request. */
export async function inspectionSnapshot(orgId: string) {
  const sql = db();
  const [inspections, answers, attachments, audit] = await Promise.all([
    sql`select * from public.inspections where org_id = ${orgId} order by id`,
    sql`select * from public.answers where org_id = ${orgId} order by id`,
    sql`select * from public.attachments where org_id = ${orgId} order by id`,
    sql`select count(*)::int as n from public.audit_log where org_id = ${orgId}`,
  ]);
  return { inspections: [...inspections], answers: [...answers], attachments: [...attachments], auditEntries: audit[0].n };
}
