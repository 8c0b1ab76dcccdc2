// The test fixtures: what the API and browser tests build again and again, made one way here —
// users (with a second factor where asked), organizations with a member of every role, memberships
// (through the real invitation routes, or straight in the database where a test is about
// something else), sites, templates and inspections. A fixture is set-up, not the thing under
// test: any step refused fails the test at once, with the answer in the message.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll } from 'vitest';
import { call, expectStatus, post } from './api.ts';
import { createTestClient, signedInClient, uniqueEmail } from './clients.ts';
import { closeDb, db } from './database.ts';
import { linkFrom, listMail } from './mail.ts';
import { TINY_PNG_DATA_URL } from './png.ts';
import { stack } from './stack.ts';
import { totpFor } from './totp.ts';

export type Role = 'owner' | 'admin' | 'manager' | 'inspector' | 'viewer';
const NON_OWNER_ROLES = ['admin', 'manager', 'inspector', 'viewer'] as const;

/** A short random tag that keeps names and slugs unique across files and runs. */
export function tag(): string {
  return Math.random().toString(36).slice(2, 8);
}

// --- users ------------------------------------------------------------------------------------

export interface User {
  client: SupabaseClient;
  userId: string;
  email: string;
  password: string;
  displayName: string;
}

/**
 * A new user, signed up and signed in through Auth with the publishable key, with a unique email
 * made from `label`. `password`: for the browser tests, which type it in the sign-in form.
 */
export async function newUser(label: string, displayName: string, options: { password?: string } = {}): Promise<User> {
  const signedIn = await signedInClient({ email: uniqueEmail(label), displayName, key: stack.PUBLISHABLE_KEY, password: options.password });
  return { client: signedIn.client, userId: signedIn.user.id, email: signedIn.email, password: signedIn.password, displayName };
}

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

// --- organizations and memberships ------------------------------------------------------------

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

/**
 * Memberships written straight in the database, `[user id, role]` each: for a test about something
 * other than invitations, which `addMember` takes through the real routes (and a mail) instead.
 * The membership triggers run as for any insert.
 */
export async function insertMemberships(orgId: string, members: ReadonlyArray<readonly [userId: string, role: Role]>): Promise<void> {
  const sql = db();
  const rows = members.map(([userId, role]) => ({ org_id: orgId, user_id: userId, role }));
  await sql`insert into public.memberships ${sql(rows, 'org_id', 'user_id', 'role')}`;
}

export interface Team<K extends string> {
  /** The organization as `POST /orgs` answered it (id, slug, name, …). */
  org: any;
  owner: User;
  members: Record<K, User>;
}

/**
 * An organization created through the API by a new owner, with a new user for each of `members`
 * (key: `[role, display name]`) made a member straight in the database: the quick team of the
 * browser and live tests. Display names are given because the screens show them. `org` is the
 * organization's name or the whole `POST /orgs` body.
 */
export async function team<K extends string = never>(options: {
  /** Starts every email, e.g. `act` gives act-owner-…@example.test. */
  label: string;
  org: string | Record<string, unknown>;
  owner: string;
  members?: Record<K, readonly [Role, string]>;
  password?: string;
}): Promise<Team<K>> {
  const entries = Object.entries(options.members ?? {}) as Array<[K, readonly [Role, string]]>;
  const [owner, ...users] = await Promise.all([
    newUser(`${options.label}-owner`, options.owner, { password: options.password }),
    ...entries.map(([key, [, displayName]]) => newUser(`${options.label}-${key}`, displayName, { password: options.password })),
  ]);
  const org = await createOrg(owner, typeof options.org === 'string' ? { name: options.org } : options.org);
  if (users.length > 0) await insertMemberships(org.id, entries.map(([, [role]], index) => [users[index].userId, role] as const));
  const members = Object.fromEntries(entries.map(([key], index) => [key, users[index]])) as Record<K, User>;
  return { org, owner, members };
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

// --- sites ------------------------------------------------------------------------------------

/** Creates a site through the API: a unique name unless `body` gives one, nothing else unless given. */
export async function createSite(by: User, orgId: string, body: Record<string, unknown> = {}): Promise<any> {
  return expectStatus(await post(by.client, `orgs/${orgId}/sites`, { name: `Site ${tag()}`, ...body }), 201);
}

/** The site of the inspection world: a position in central London with a 100 m geofence. */
export const SITE_POSITION = { latitude: 51.5007, longitude: -0.1246 } as const;
export const SITE_GEOFENCE_M = 100;
/** About 50 m north of the site: inside its geofence. */
export const INSIDE_GEOFENCE = { latitude: 51.50115, longitude: -0.1246, accuracy_m: 8 } as const;
/** About 1.1 km north of the site: outside its geofence. */
export const OUTSIDE_GEOFENCE = { latitude: 51.5107, longitude: -0.1246, accuracy_m: 20 } as const;

/** A site at SITE_POSITION with a SITE_GEOFENCE_M geofence, unless `body` says otherwise. */
export async function createGeofencedSite(by: User, orgId: string, body: Record<string, unknown> = {}): Promise<any> {
  return await createSite(by, orgId, { ...SITE_POSITION, geofence_m: SITE_GEOFENCE_M, ...body });
}

// --- templates --------------------------------------------------------------------------------

export const templatesPath = (orgId: string) => `orgs/${orgId}/templates`;
export const templatePath = (orgId: string, id: string) => `orgs/${orgId}/templates/${id}`;

/** Creates a draft template through the API (`body`: name, definition, …). */
export async function createTemplate(client: SupabaseClient, orgId: string, body: Record<string, unknown>): Promise<any> {
  return expectStatus(await post(client, templatesPath(orgId), body), 201);
}

/** Publishes a template's draft through the API. */
export async function publish(client: SupabaseClient, orgId: string, id: string): Promise<any> {
  return expectStatus(await post(client, `${templatePath(orgId, id)}/publish`, undefined), 200);
}

/** One item of every kind (contract "Template definition"); the required ones are listed below. */
export const EVERY_KIND_DEFINITION = {
  sections: [
    {
      key: 'checks',
      title: 'Checks',
      items: [
        { key: 'floor_clean', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 2 },
        { key: 'fridge_locked', kind: 'yes_no', label: 'Fridge is locked', help: null, required: true, weight: 1, fail_on: 'no' },
        { key: 'fridge_temp', kind: 'number', label: 'Fridge temperature', help: 'Read the display.', required: true, weight: 3, min: 0, max: 5, unit: '°C' },
        { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 0 },
      ],
    },
    {
      key: 'details',
      title: 'Details',
      items: [
        {
          key: 'cleanliness', kind: 'single_choice', label: 'Overall cleanliness', help: null, required: true, weight: 2,
          options: ['Good', 'Fair', 'Poor'], failing_options: ['Poor'],
        },
        {
          key: 'hazards', kind: 'multi_choice', label: 'Hazards seen', help: null, required: false, weight: 1,
          options: ['Wet floor', 'Blocked exit', 'None'], failing_options: ['Wet floor', 'Blocked exit'],
        },
        { key: 'last_service', kind: 'date', label: 'Last service date', help: null, required: false, weight: 0 },
        { key: 'photo', kind: 'photo', label: 'Photo of the kitchen', help: null, required: true, weight: 0, max_photos: 2 },
        { key: 'signature', kind: 'signature', label: 'Manager signature', help: null, required: false, weight: 0 },
      ],
    },
  ],
} as const;

/** Keys of the required items of EVERY_KIND_DEFINITION, in definition order. */
export const REQUIRED_ITEM_KEYS = ['floor_clean', 'fridge_locked', 'fridge_temp', 'cleanliness', 'photo'] as const;

/** A valid answer value for every non-photo item (photos are attachments, their value stays null). */
export const VALID_VALUES: Record<string, unknown> = {
  floor_clean: 'pass',
  fridge_locked: 'yes',
  fridge_temp: 3.5,
  remarks: 'All fine.',
  cleanliness: 'Good',
  hazards: ['None'],
  last_service: '2026-01-31',
  signature: { signer: 'Mia Manager', image: TINY_PNG_DATA_URL },
};

export interface PublishedTemplate {
  id: string;
  name: string;
  /** template_versions.id of the published version. */
  versionId: string;
  version: number;
  definition: unknown;
}

/**
 * A published template, credited to `author`: a draft inserted with SQL, then its version 1, both
 * through the templates migration's triggers (the same checks and copy the publish route uses).
 * SQL rather than the routes so the files using it test inspections, not the template routes.
 */
export async function createPublishedTemplate(
  author: User,
  orgId: string,
  definition: unknown = EVERY_KIND_DEFINITION,
  name = `Audit ${tag()}`,
): Promise<PublishedTemplate> {
  const sql = db();
  return await sql.begin(async (tx) => {
    const [template] = await tx`
      insert into public.templates (org_id, name, definition, created_by)
      values (${orgId}, ${name}, ${tx.json(definition as never)}, ${author.userId})
      returning id
    `;
    // The templates migration copies the draft into the next version (publishing).
    const [version] = await tx`
      insert into public.template_versions (org_id, template_id, version, name, definition, published_by)
      values (${orgId}, ${template.id}, 1, ${name}, ${tx.json(definition as never)}, ${author.userId})
      returning id, version
    `;
    return { id: template.id, name, versionId: version.id, version: version.version, definition };
  });
}

// --- inspections ------------------------------------------------------------------------------

export interface InspectionWorld extends RoleFixture {
  site: any;
  template: PublishedTemplate;
  /** A second inspector, for collaboration and assignment tests. */
  inspector2: User;
}

/** An organization with every role plus a second inspector, a geofenced site and a published template of every item kind. */
export async function inspectionWorld(): Promise<InspectionWorld> {
  const fixture = await orgWithEveryRole();
  const inspector2 = await newUser('inspector2', 'Iris Inspector');
  await addMember(fixture.owner, fixture.org.id, inspector2, 'inspector');
  const [site, template] = await Promise.all([
    createGeofencedSite(fixture.manager, fixture.org.id),
    createPublishedTemplate(fixture.manager, fixture.org.id),
  ]);
  return { ...fixture, inspector2, site, template };
}

/**
 * The world most inspection files test in: before all tests an inspection world (filled into
 * `world` when the hook runs), a stranger in an organization of their own (`strangerOrg`), and
 * after all the database connection closed.
 */
export function inspectionWorldAndStranger(): { world: InspectionWorld; stranger: User; strangerWorld: { orgId: string; site: any; template: PublishedTemplate } } {
  const world = {} as InspectionWorld;
  const stranger = {} as User;
  const strangerWorld = {} as { orgId: string; site: any; template: PublishedTemplate };
  beforeAll(async () => {
    const [built, user] = await Promise.all([inspectionWorld(), newUser('stranger', 'Sam Stranger')]);
    Object.assign(world, built);
    Object.assign(stranger, user);
    const org = expectStatus(await post(user.client, 'orgs', { name: `Stranger org ${tag()}` }), 201);
    const [site, template] = await Promise.all([createGeofencedSite(user, org.id), createPublishedTemplate(user, org.id)]);
    Object.assign(strangerWorld, { orgId: org.id, site, template });
  });
  afterAll(closeDb);
  return { world, stranger, strangerWorld };
}

export const inspectionsPath = (orgId: string) => `orgs/${orgId}/inspections`;
export const inspectionPath = (orgId: string, id: string) => `orgs/${orgId}/inspections/${id}`;

/** Schedules an inspection of the world's site and template through the API (as the manager by default). */
export async function scheduleInspection(world: InspectionWorld, body: Record<string, unknown> = {}, by: User = world.manager): Promise<any> {
  return expectStatus(
    await post(by.client, inspectionsPath(world.org.id), { site_id: world.site.id, template_id: world.template.id, ...body }),
    201,
  );
}

/** Starts an inspection (with a position inside the geofence unless told otherwise). */
export async function startInspection(world: InspectionWorld, id: string, by: User, location: unknown = INSIDE_GEOFENCE): Promise<any> {
  return expectStatus(await post(by.client, `${inspectionPath(world.org.id, id)}/start`, location), 200);
}

/** An inspection of the world, scheduled by the manager with `body` and started by `by`; returns its id. */
export async function inProgressInspection(world: InspectionWorld, by: User, body: Record<string, unknown> = {}): Promise<string> {
  const { id } = await scheduleInspection(world, body);
  await startInspection(world, id, by);
  return id;
}

/** Answers items as `by` through `PUT …/answers`, based on the current versions (never a conflict). */
export async function answerItems(world: InspectionWorld, id: string, by: User, values: Record<string, unknown>): Promise<void> {
  const current = await db()`select item_key, version from public.answers where inspection_id = ${id}`;
  const versions = new Map(current.map((row) => [row.item_key as string, row.version as number]));
  const answers = Object.entries(values).map(([item_key, value]) => ({ item_key, value, note: null, base_version: versions.get(item_key) ?? null }));
  expectStatus(await call(by.client, `${inspectionPath(world.org.id, id)}/answers`, { method: 'PUT', body: { answers } }), 200);
}

/** Marks a confirmed photo on an item, written straight in the database (the evidence routes are tested elsewhere). */
export async function addConfirmedPhoto(world: InspectionWorld, id: string, itemKey: string, by: User): Promise<void> {
  await db()`
    insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, confirmed_at, uploaded_by)
    values (${world.org.id}, ${id}, ${itemKey}, ${`${world.org.id}/${id}/${itemKey}/${crypto.randomUUID()}.jpg`}, 'image/jpeg', 1024, now(), ${by.userId})
  `;
}

/** An inspection answered completely (required items and a confirmed photo), ready to submit. */
export async function answerEverythingRequired(world: InspectionWorld, id: string, by: User): Promise<void> {
  const values = Object.fromEntries(REQUIRED_ITEM_KEYS.filter((k) => k !== 'photo').map((k) => [k, VALID_VALUES[k]]));
  await answerItems(world, id, by, values);
  await addConfirmedPhoto(world, id, 'photo', by);
}

/** Moves an inspection straight to `status` in the database, for tests about a given state. */
export async function forceStatus(id: string, status: string): Promise<void> {
  const sql = db();
  await sql.begin(async (tx) => {
    // Skips the transition trigger for this transaction only: the point is to reach a state fast.
    await tx`set local session_replication_role = replica`;
    await tx`update public.inspections set status = ${status}::public.inspection_status where id = ${id}`;
  });
}
