// Helpers for the organization API tests (orgs, members, invitations, sites): one `call` that
// returns status, body and headers whether the request succeeded or not (and fails the test when
// an error leaks database text), users and organizations made through the real routes, the
// organization-with-every-role fixture most files share, and database snapshots to prove that a
// refused request wrote nothing.
import type { SupabaseClient } from '@supabase/supabase-js';
import postgres from 'postgres';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ApiCallOptions, type ApiOutcome, callApi } from './api.ts';
import { createTestClient, signedInClient, uniqueEmail } from './clients.ts';
import { linkFrom, listMail } from './mail.ts';
import { stack } from './stack.ts';
import { totpFor } from './totp.ts';

export type Role = 'owner' | 'admin' | 'manager' | 'inspector' | 'viewer';
const NON_OWNER_ROLES = ['admin', 'manager', 'inspector', 'viewer'] as const;

// Words of Postgres' own error messages ("violates check constraint", "relation … does not
// exist", "syntax error", "duplicate key value", "invalid input syntax for type uuid").
const RAW_DATABASE_TEXT = /violates|relation|syntax|constraint|duplicate key|sqlstate|pg_|null value|column|uuid:|public\.|private\./i;

/** Fails when a problem document carries raw database text anywhere users could see it. */
export function expectNoRawDatabaseText(body: any): void {
  if (!body || typeof body !== 'object') return;
  const texts = [body.title, body.detail, ...(Array.isArray(body.errors) ? body.errors.map((e: { message?: string }) => e.message) : [])];
  for (const text of texts) {
    if (typeof text === 'string') expect(text, `raw database text in a problem: ${JSON.stringify(body)}`).not.toMatch(RAW_DATABASE_TEXT);
  }
}

/** Calls the api function and fails the test when a refusal carries raw database text. */
export async function call(client: SupabaseClient, path: string, options: ApiCallOptions = {}): Promise<ApiOutcome> {
  const outcome = await callApi(client, path, options);
  if (outcome.status >= 300) expectNoRawDatabaseText(outcome.body);
  return outcome;
}

/** Asserts a success status and returns the body; the message shows the problem otherwise. */
export function expectStatus(outcome: ApiOutcome, status: number): any {
  expect(outcome.status, `expected ${status}, got ${outcome.status}: ${JSON.stringify(outcome.body)}`).toBe(status);
  return outcome.body;
}

/** Asserts a problem document with the given status and code (and, if given, exactly these fields). */
export function expectProblem(outcome: ApiOutcome, status: number, code: string, fields?: string[]): any {
  expect(outcome.status, `expected ${status} ${code}, got ${outcome.status}: ${JSON.stringify(outcome.body)}`).toBe(status);
  expect(outcome.headers.get('content-type')).toBe('application/problem+json');
  expect(outcome.body).toMatchObject({
    type: `https://fieldcheck.app/problems/${code}`,
    status,
    code,
    title: expect.any(String),
    detail: expect.any(String),
    request_id: expect.any(String),
  });
  if (fields) {
    // A field may carry more than one message (e.g. "Choose a time zone." and "… from the list.").
    const reported = [...new Set(outcome.body.errors?.map((e: { field: string }) => e.field))];
    expect(reported, JSON.stringify(outcome.body)).toEqual(fields);
  }
  // A refusal carries no data of the thing it refused.
  expect(outcome.body).not.toHaveProperty('data');
  expect(outcome.body).not.toHaveProperty('id');
  return outcome.body;
}

export const post = (client: SupabaseClient, path: string, body: unknown, headers?: Record<string, string>) =>
  call(client, path, { method: 'POST', body, headers });
export const patch = (client: SupabaseClient, path: string, body: unknown) => call(client, path, { method: 'PATCH', body });
export const del = (client: SupabaseClient, path: string) => call(client, path, { method: 'DELETE' });

// --- database -------------------------------------------------------------------------------

let connection: postgres.Sql | undefined;

/** A connection as `postgres` (no superuser, as on hosted) to the stack's database, for checks the API cannot make. */
export function db(): postgres.Sql {
  connection ??= postgres(stack.DB_URL, { max: 3, onnotice: () => {} });
  return connection;
}

export async function closeDb(): Promise<void> {
  await connection?.end({ timeout: 5 });
  connection = undefined;
}

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

// --- users and organizations ------------------------------------------------------------------

export interface User {
  client: SupabaseClient;
  userId: string;
  email: string;
  password: string;
  displayName: string;
}

export async function newUser(label: string, displayName: string): Promise<User> {
  const signedIn = await signedInClient({ email: uniqueEmail(label), displayName, key: stack.PUBLISHABLE_KEY });
  return { client: signedIn.client, userId: signedIn.user.id, email: signedIn.email, password: signedIn.password, displayName };
}

/** A short random tag that keeps names and slugs unique across files and runs. */
export function tag(): string {
  return Math.random().toString(36).slice(2, 8);
}

export async function createOrg(owner: User, body: Record<string, unknown> = {}): Promise<any> {
  const name = (body.name as string | undefined) ?? `Org ${tag()}`;
  return expectStatus(await post(owner.client, 'orgs', { ...body, name }), 201);
}

/** The invitation token: the last path segment of the link in the invitation mail. */
function tokenFromLink(link: string): string {
  return new URL(link).pathname.split('/').filter(Boolean).pop()!;
}

/** Ids of the mails already delivered to `email`, so a later wait picks only a newer one. */
export async function mailIdsTo(email: string): Promise<Set<string>> {
  return new Set((await listMail()).filter((m) => m.to.includes(email.toLowerCase())).map((m) => m.id));
}

/** Waits for a mail to `email` that is not among `seen`, and reads the invitation link from it. */
export async function invitationMail(email: string, seen: Set<string> = new Set()) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = (await listMail()).find((m) => m.to.includes(email.toLowerCase()) && !seen.has(m.id));
    if (mail) {
      const link = linkFrom(mail, /\/invitations\/[^/?#]+$/);
      return { mail, link, token: tokenFromLink(link) };
    }
    if (Date.now() > deadline) throw new Error(`No invitation mail to ${email} within the timeout`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Invites `email` through the API and returns the invitation and the token from its mail. */
export async function invite(inviter: User, orgId: string, email: string, role: Role) {
  const seen = await mailIdsTo(email);
  const invitation = expectStatus(await post(inviter.client, `orgs/${orgId}/invitations`, { email, role }), 201);
  const { token, link, mail } = await invitationMail(email, seen);
  return { invitation, token, link, mail };
}

/** Invites `user` with `role` and accepts as them: a membership made through the real routes. */
export async function addMember(inviter: User, orgId: string, user: User, role: Role) {
  const { invitation, token } = await invite(inviter, orgId, user.email, role);
  expectStatus(await post(user.client, 'invitations/accept', { token }), 200);
  return invitation;
}

export interface RoleFixture {
  org: any;
  owner: User;
  admin: User;
  manager: User;
  inspector: User;
  viewer: User;
  byRole: Record<Role, User>;
}

const DISPLAY_NAMES: Record<Role, string> = {
  owner: 'Olive Owner',
  admin: 'Ada Admin',
  manager: 'Mia Manager',
  inspector: 'Ivan Inspector',
  viewer: 'Vera Viewer',
};

/** An organization created by its owner with one member of every other role, via the API. */
export async function orgWithEveryRole(body: Record<string, unknown> = {}): Promise<RoleFixture> {
  const owner = await newUser('owner', DISPLAY_NAMES.owner);
  const org = await createOrg(owner, body);
  const members = await Promise.all(
    NON_OWNER_ROLES.map(async (role) => {
      const user = await newUser(role, DISPLAY_NAMES[role]);
      await addMember(owner, org.id, user, role);
      return [role, user] as const;
    }),
  );
  const byRole = { owner, ...Object.fromEntries(members) } as Record<Role, User>;
  return { org, owner, byRole, admin: byRole.admin, manager: byRole.manager, inspector: byRole.inspector, viewer: byRole.viewer };
}

/**
 * The world most files test in: before all tests, `orgWithEveryRole(body)` and a stranger who is
 * in no organization; after all, the database connection closed. The two objects are filled in
 * when the hook runs, so a file can hold them from the start.
 */
export function orgWithEveryRoleAndStranger(body: Record<string, unknown> = {}): { fixture: RoleFixture; stranger: User } {
  const fixture = {} as RoleFixture;
  const stranger = {} as User;
  beforeAll(async () => {
    const [org, user] = await Promise.all([orgWithEveryRole(body), newUser('stranger', 'Sam Stranger')]);
    Object.assign(fixture, org);
    Object.assign(stranger, user);
  });
  afterAll(closeDb);
  return { fixture, stranger };
}

// --- two-factor sessions ----------------------------------------------------------------------

export interface MfaUser extends User {
  factorId: string;
  secret: string;
  /** A second session of the same user, signed in with the password only (aal1). */
  aal1: SupabaseClient;
}

/** A user with a verified TOTP factor: `client` is at aal2, `aal1` a password-only session. */
export async function newMfaUser(label: string, displayName: string): Promise<MfaUser> {
  const user = await newUser(label, displayName);
  const enrolled = await user.client.auth.mfa.enroll({ factorType: 'totp', friendlyName: 'phone app' });
  if (enrolled.error) throw enrolled.error;
  const secret = enrolled.data.totp.secret;
  const verified = await user.client.auth.mfa.challengeAndVerify({ factorId: enrolled.data.id, code: totpFor(secret).generate() });
  if (verified.error) throw verified.error;
  const aal1 = createTestClient({ key: stack.PUBLISHABLE_KEY });
  const signIn = await aal1.auth.signInWithPassword({ email: user.email, password: user.password });
  if (signIn.error) throw signIn.error;
  return { ...user, factorId: enrolled.data.id, secret, aal1 };
}

/** Steps a password-only session up to aal2 with the user's authenticator. */
export async function stepUp(client: SupabaseClient, user: { factorId: string; secret: string }): Promise<void> {
  const verified = await client.auth.mfa.challengeAndVerify({ factorId: user.factorId, code: totpFor(user.secret).generate() });
  if (verified.error) throw verified.error;
}

export function aalOf(client: SupabaseClient): Promise<string | undefined> {
  return client.auth.getSession().then(({ data }) =>
    data.session ? JSON.parse(Buffer.from(data.session.access_token.split('.')[1], 'base64url').toString()).aal : undefined,
  );
}

// --- lists ------------------------------------------------------------------------------------

/** Every page of a list, following next_cursor; `between` runs after each page that has a next one. */
export async function allPages(client: SupabaseClient, path: string, limit: number, between?: (page: any[]) => Promise<void>) {
  const separator = path.includes('?') ? '&' : '?';
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const url: string = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const page = expectStatus(await call(client, url), 200);
    pages.push(page.data);
    cursor = page.next_cursor;
    if (cursor && between) await between(page.data);
  } while (cursor && pages.length < 100);
  return pages;
}

/** Cursors a client could forge that no list accepts: not base64 JSON, wrong shape or types, bad ids. */
export function forgedCursors(): Record<string, string> {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return {
    'not base64 JSON': 'not-a-real-cursor',
    '["name","not-a-uuid"]': encode(['name', 'not-a-uuid']),
    '["2030-01-01T00:00:00Z","not-a-uuid"]': encode(['2030-01-01T00:00:00Z', 'not-a-uuid']),
    '[null,"not-a-uuid"]': encode([null, 'not-a-uuid']),
    '[1,2]': encode([1, 2]),
    '["only one"]': encode(['only one']),
    '{"name":"x"}': encode({ name: 'x' }),
    '[12.5,"zz"]': encode([12.5, 'zz']),
  };
}

/** Sends every cursor to a list and returns what each got, to compare with the expected refusals. */
export async function cursorOutcomes(client: SupabaseClient, path: string, cursors: Record<string, string>) {
  const separator = path.includes('?') ? '&' : '?';
  const outcomes: Record<string, string> = {};
  for (const [label, cursor] of Object.entries(cursors)) {
    const { status, body } = await call(client, `${path}${separator}cursor=${cursor}`);
    outcomes[label] = `${status} ${body?.code} ${JSON.stringify(body?.errors?.map((e: { field: string }) => e.field) ?? null)}`;
  }
  return outcomes;
}

/** What every forged cursor should get: 422 validation_failed on query.cursor. */
export function refusedCursors(cursors: Record<string, string>) {
  return Object.fromEntries(Object.keys(cursors).map((label) => [label, '422 validation_failed ["query.cursor"]']));
}

export const ISO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const MISSING_ID = '00000000-0000-4000-8000-000000000000';
