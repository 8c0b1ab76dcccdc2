// Fixtures for the inspection, answer and attachment API tests: an organization with every role,
// a site with a position and a geofence, a published template with one item of every kind, and
// helpers to schedule and move inspections through the real routes. The answers and evidence
// tests import this file too, so its exports stay stable.
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll } from 'vitest';
import {
  addMember, call, closeDb, db, expectStatus, newUser, orgWithEveryRole, post, type RoleFixture, tag, type User,
} from '../../support/fixtures.ts';
import { waitFor as waitUntil } from '../../support/realtime.ts';

export { call, db, del, expectProblem, expectStatus, MISSING_ID, patch, post, tag, UUID, ISO_TIMESTAMP } from '../../support/fixtures.ts';
export type { Role, User } from '../../support/fixtures.ts';

/** The site of the world: a position in central London with a 100 m geofence. */
export const SITE_POSITION = { latitude: 51.5007, longitude: -0.1246 } as const;
export const SITE_GEOFENCE_M = 100;
/** About 50 m north of the site: inside its geofence. */
export const INSIDE_GEOFENCE = { latitude: 51.50115, longitude: -0.1246, accuracy_m: 8 } as const;
/** About 1.1 km north of the site: outside its geofence. */
export const OUTSIDE_GEOFENCE = { latitude: 51.5107, longitude: -0.1246, accuracy_m: 20 } as const;

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
  signature: { signer: 'Mia Manager', image: 'data:image/png;base64,iVBORw0KGgo=' },
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
 * SQL rather than the routes so these files test inspections, not the template routes.
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

export async function createSite(user: User, orgId: string, body: Record<string, unknown> = {}): Promise<any> {
  return expectStatus(
    await post(user.client, `orgs/${orgId}/sites`, {
      name: `Site ${tag()}`,
      ...SITE_POSITION,
      geofence_m: SITE_GEOFENCE_M,
      ...body,
    }),
    201,
  );
}

export interface InspectionWorld extends RoleFixture {
  site: any;
  template: PublishedTemplate;
  /** A second inspector, for collaboration and assignment tests. */
  inspector2: User;
}

/** An organization with every role plus a second inspector, a site and a published template. */
export async function inspectionWorld(): Promise<InspectionWorld> {
  const fixture = await orgWithEveryRole();
  const inspector2 = await newUser('inspector2', 'Iris Inspector');
  await addMember(fixture.owner, fixture.org.id, inspector2, 'inspector');
  const [site, template] = await Promise.all([
    createSite(fixture.manager, fixture.org.id),
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
    const [site, template] = await Promise.all([createSite(user, org.id), createPublishedTemplate(user, org.id)]);
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

/** Marks a confirmed photo on an item, written by the superuser (the evidence routes are tested elsewhere). */
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

/** Polls `find` until it returns something (a realtime event, a presence state), and returns that; fails with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  let found: T | undefined;
  await waitUntil(what, () => (found = find()) !== undefined, timeoutMs);
  return found as T;
}

/** Moves an inspection straight to `status` with the superuser, for tests about a given state. */
export async function forceStatus(id: string, status: string): Promise<void> {
  const sql = db();
  await sql.begin(async (tx) => {
    // Skips the transition trigger for this transaction only: the point is to reach a state fast.
    await tx`set local session_replication_role = replica`;
    await tx`update public.inspections set status = ${status}::public.inspection_status where id = ${id}`;
  });
}

export type { SupabaseClient };
