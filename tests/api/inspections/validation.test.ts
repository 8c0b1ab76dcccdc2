// Bad input on every inspection route: each is refused with the right status, code and field,
// and nothing is written (inspections, answers, attachments and the audit log are compared
// before and after).
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, MISSING_ID, patch, post } from '../../support/api.ts';
import {
  createGeofencedSite, INSIDE_GEOFENCE, inspectionPath, inspectionsPath, inspectionWorldAndStranger, scheduleInspection, tag, type User,
} from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';
import { inspectionSnapshot } from '../../support/snapshots.ts';

const { world } = inspectionWorldAndStranger();

interface BadCall {
  name: string;
  body: unknown;
  status: number;
  code: string;
  fields?: string[];
  headers?: Record<string, string>;
}

async function expectRefusedWithoutWrites(by: User, method: 'POST' | 'PATCH', path: string, bad: BadCall) {
  const before = await inspectionSnapshot(world.org.id);
  const outcome = await call(by.client, path, { method, body: bad.body, headers: bad.headers });
  expectProblem(outcome, bad.status, bad.code, bad.fields);
  expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  return outcome.body;
}

let archivedSite: any;
let draftTemplateId: string;
let scheduled: any;

beforeAll(async () => {
  archivedSite = await createGeofencedSite(world.manager, world.org.id, { name: `Closed ${tag()}` });
  await call(world.manager.client, `orgs/${world.org.id}/sites/${archivedSite.id}`, { method: 'DELETE' });
  const [draft] = await db()`
    insert into public.templates (org_id, name) values (${world.org.id}, ${`Draft ${tag()}`}) returning id
  `;
  draftTemplateId = draft.id;
  scheduled = await scheduleInspection(world, { external_ref: `REF-${tag()}` });
});

describe('POST /orgs/{org}/inspections', () => {
  const base = () => ({ site_id: world.site.id, template_id: world.template.id });
  // Bodies are functions: they read the world, which exists only once the hooks ran.
  const cases: Array<Omit<BadCall, 'body'> & { body: () => unknown }> = [
    { name: 'no site', body: () => ({ template_id: world.template.id }), status: 422, code: 'validation_failed', fields: ['site_id'] },
    { name: 'no template', body: () => ({ site_id: world.site.id }), status: 422, code: 'validation_failed', fields: ['template_id'] },
    { name: 'a site id that is not a uuid', body: () => ({ ...base(), site_id: 'depot' }), status: 422, code: 'validation_failed', fields: ['site_id'] },
    { name: 'a site that does not exist', body: () => ({ ...base(), site_id: MISSING_ID }), status: 422, code: 'validation_failed', fields: ['site_id'] },
    { name: 'an archived site', body: () => ({ ...base(), site_id: archivedSite.id }), status: 422, code: 'validation_failed', fields: ['site_id'] },
    { name: 'a template never published', body: () => ({ ...base(), template_id: draftTemplateId }), status: 422, code: 'validation_failed', fields: ['template_id'] },
    { name: 'a template that does not exist', body: () => ({ ...base(), template_id: MISSING_ID }), status: 422, code: 'validation_failed', fields: ['template_id'] },
    { name: 'a viewer as assignee', body: () => ({ ...base(), assignee_id: world.viewer.userId }), status: 422, code: 'validation_failed', fields: ['assignee_id'] },
    { name: 'a non-member as assignee', body: () => ({ ...base(), assignee_id: MISSING_ID }), status: 422, code: 'validation_failed', fields: ['assignee_id'] },
    { name: 'an empty title', body: () => ({ ...base(), title: '  ' }), status: 422, code: 'validation_failed', fields: ['title'] },
    { name: 'a title of 121 characters', body: () => ({ ...base(), title: 't'.repeat(121) }), status: 422, code: 'validation_failed', fields: ['title'] },
    { name: 'a due date without a time zone', body: () => ({ ...base(), due_at: '2030-01-01T09:00:00' }), status: 422, code: 'validation_failed', fields: ['due_at'] },
    { name: 'a due date that is not a date', body: () => ({ ...base(), due_at: 'tomorrow' }), status: 422, code: 'validation_failed', fields: ['due_at'] },
    { name: 'an external ref of 256 characters', body: () => ({ ...base(), external_ref: 'r'.repeat(256) }), status: 422, code: 'validation_failed', fields: ['external_ref'] },
    { name: 'an external ref already used', body: () => ({ ...base(), external_ref: scheduled.external_ref }), status: 409, code: 'duplicate' },
    { name: 'a status', body: () => ({ ...base(), status: 'approved' }), status: 422, code: 'validation_failed', fields: ['status'] },
    { name: 'a template version id', body: () => ({ ...base(), template_version_id: world.template.versionId }), status: 422, code: 'validation_failed', fields: ['template_version_id'] },
    { name: 'a JSON array', body: () => [base()], status: 422, code: 'validation_failed', fields: ['body'] },
    { name: 'malformed JSON', body: () => '{"site_id":', headers: { 'Content-Type': 'application/json' }, status: 422, code: 'validation_failed', fields: ['body'] },
    { name: 'no body', body: () => undefined, status: 422, code: 'validation_failed', fields: ['body'] },
  ];
  for (const bad of cases) {
    it(`refuses ${bad.name} with ${bad.status} ${bad.code}`, async () => {
      await expectRefusedWithoutWrites(world.manager, 'POST', inspectionsPath(world.org.id), { ...bad, body: bad.body() });
    });
  }

  it('words why an archived site is refused', async () => {
    const body = await expectRefusedWithoutWrites(world.manager, 'POST', inspectionsPath(world.org.id), {
      name: 'archived', body: { site_id: archivedSite.id, template_id: world.template.id }, status: 422, code: 'validation_failed', fields: ['site_id'],
    });
    expect(body.errors[0].message).toBe('This site is archived. Choose an active site.');
  });
});

describe('PATCH /orgs/{org}/inspections/{id}', () => {
  const cases: BadCall[] = [
    { name: 'an empty body object', body: {}, status: 422, code: 'validation_failed', fields: ['body'] },
    { name: 'a null title', body: { title: null }, status: 422, code: 'validation_failed', fields: ['title'] },
    { name: 'a status beside a valid title', body: { title: 'Fine', status: 'approved' }, status: 422, code: 'validation_failed', fields: ['status'] },
    { name: 'a score beside a valid title', body: { title: 'Fine', score: 10 }, status: 422, code: 'validation_failed', fields: ['score'] },
    { name: 'a site beside a valid title', body: { title: 'Fine', site_id: MISSING_ID }, status: 422, code: 'validation_failed', fields: ['site_id'] },
    { name: 'a bad due date', body: { due_at: '31/12/2030' }, status: 422, code: 'validation_failed', fields: ['due_at'] },
    { name: 'an assignee id that is not a uuid', body: { assignee_id: 'me' }, status: 422, code: 'validation_failed', fields: ['assignee_id'] },
    { name: 'a non-member as assignee', body: { assignee_id: MISSING_ID }, status: 422, code: 'validation_failed', fields: ['assignee_id'] },
  ];
  for (const bad of cases) {
    it(`refuses ${bad.name} with ${bad.status} ${bad.code}`, async () => {
      await expectRefusedWithoutWrites(world.manager, 'PATCH', inspectionPath(world.org.id, scheduled.id), bad);
    });
  }

  it('changes, clears and keeps the given fields only', async () => {
    const inspection = await scheduleInspection(world, { due_at: '2030-01-01T00:00:00Z', external_ref: `X-${tag()}` });
    const edited = (await patch(world.manager.client, inspectionPath(world.org.id, inspection.id), {
      assignee_id: world.inspector2.userId,
      external_ref: '',
    })).body;
    expect(edited).toMatchObject({
      assignee_id: world.inspector2.userId,
      assignee_name: world.inspector2.displayName,
      external_ref: null,
      due_at: '2030-01-01T00:00:00.000Z',
      title: inspection.title,
      version: 2,
    });
  });
});

describe('POST …/start, …/submit, …/review, …/cancel', () => {
  const startCases: BadCall[] = [
    { name: 'a latitude of 91', body: { latitude: 91, longitude: 0, accuracy_m: 5 }, status: 422, code: 'validation_failed', fields: ['latitude'] },
    { name: 'a longitude of 181', body: { latitude: 0, longitude: 181, accuracy_m: 5 }, status: 422, code: 'validation_failed', fields: ['longitude'] },
    { name: 'a latitude without a longitude', body: { latitude: 51.5, accuracy_m: 5 }, status: 422, code: 'validation_failed', fields: ['longitude'] },
    { name: 'a negative accuracy', body: { ...INSIDE_GEOFENCE, accuracy_m: -1 }, status: 422, code: 'validation_failed', fields: ['accuracy_m'] },
    { name: 'an accuracy without a position', body: { accuracy_m: 5 }, status: 422, code: 'validation_failed', fields: ['accuracy_m'] },
    { name: 'a position as strings', body: { latitude: '51.5', longitude: '-0.12', accuracy_m: 5 }, status: 422, code: 'validation_failed', fields: ['latitude', 'longitude'] },
    { name: 'an unknown key', body: { ...INSIDE_GEOFENCE, altitude: 12 }, status: 422, code: 'validation_failed', fields: ['altitude'] },
    { name: 'no body', body: undefined, status: 422, code: 'validation_failed', fields: ['body'] },
  ];
  for (const bad of startCases) {
    it(`start refuses ${bad.name}`, async () => {
      await expectRefusedWithoutWrites(world.inspector, 'POST', `${inspectionPath(world.org.id, scheduled.id)}/start`, bad);
    });
  }

  it('submit and cancel take no body', async () => {
    for (const verb of ['submit', 'cancel']) {
      await expectRefusedWithoutWrites(world.manager, 'POST', `${inspectionPath(world.org.id, scheduled.id)}/${verb}`, {
        name: 'a body', body: { now: true }, status: 422, code: 'validation_failed', fields: ['body'],
      });
    }
  });

  const reviewCases: BadCall[] = [
    { name: 'no decision', body: { note: 'Fine' }, status: 422, code: 'validation_failed', fields: ['decision'] },
    { name: 'an unknown decision', body: { decision: 'reject' }, status: 422, code: 'validation_failed', fields: ['decision'] },
    { name: 'a note of 2001 characters', body: { decision: 'approve', note: 'n'.repeat(2001) }, status: 422, code: 'validation_failed', fields: ['note'] },
    { name: 'an unknown key', body: { decision: 'approve', score: 5 }, status: 422, code: 'validation_failed', fields: ['score'] },
  ];
  for (const bad of reviewCases) {
    it(`review refuses ${bad.name}`, async () => {
      await expectRefusedWithoutWrites(world.manager, 'POST', `${inspectionPath(world.org.id, scheduled.id)}/review`, bad);
    });
  }

  it('refuses an inspection id that is not a uuid with 422 on id', async () => {
    expectProblem(await post(world.manager.client, `${inspectionsPath(world.org.id)}/not-an-id/cancel`, undefined), 422, 'validation_failed', ['id']);
  });
});
