// A member or API key limited to site groups (issue 27 parts 2 and 5), on every route it calls
// about something at a site: a row at a site outside its groups gets exactly the refusal another
// organization's row gets (404, the same title and detail; for a site named in a body, the same
// field error) and changes nothing, while the same call on a row inside its groups succeeds. The
// limited members are an inspector (Harbor), a manager and a viewer (North); the keys are limited
// to North with each key role. Both sides, always: inside works, outside and elsewhere do not.
import { createClient } from '@supabase/supabase-js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiOutcome, call, del, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import {
  answerEverythingRequired, INSIDE_GEOFENCE, inProgressInspection, inspectionPath, type InspectionWorld, scheduleInspection, type User,
} from '../../support/fixtures.ts';
import { db } from '../../support/database.ts';
import { JPEG } from '../../support/photos.ts';
import { stack } from '../../support/stack.ts';
import { openAction } from '../actions/support.ts';
import { createKey, type Key } from '../keys/support.ts';
import { askWhileExportsBusy } from '../reports/support.ts';
import { createSchedule, scheduleBody, schedulePath } from '../schedules/support.ts';
import { at, expectSameRefusal, regionWorldAndOtherOrg, siteWorldSnapshot } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('limited');
const org = () => world.org.id;

type LimitedRole = 'viewer' | 'inspector' | 'manager';
/** Where a case's row is made: inside the actors' groups, outside them, or in another organization. */
type Where = 'inside' | 'outside' | 'other';

function worldAt(where: Where): InspectionWorld {
  if (where === 'inside') return at(world, world.sites.harbor);
  if (where === 'outside') return at(world, world.sites.south);
  return other.world;
}

/** Uploads a photo to the signed URL a check-in answered, as another service would. */
async function upload(signed: { path: string; token: string }) {
  const storage = createClient(stack.API_URL, stack.PUBLISHABLE_KEY, { auth: { persistSession: false } }).storage;
  const { error } = await storage.from('evidence').uploadToSignedUrl(signed.path, signed.token, JPEG, { contentType: 'image/jpeg' });
  expect(error).toBeNull();
}

/** A photo of an in-progress inspection at `w`, checked in and uploaded by its manager; confirmed when asked. */
async function inspectionPhoto(w: InspectionWorld, confirmed: boolean) {
  const id = await inProgressInspection(w, w.manager);
  const base = `${inspectionPath(w.org.id, id)}/attachments`;
  const created = expectStatus(await post(w.manager.client, base, { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length }), 201);
  await upload(created.upload);
  if (confirmed) expectStatus(await post(w.manager.client, `${base}/${created.attachment.id}/confirm`, undefined), 200);
  return { parent: id, att: created.attachment.id as string };
}

/** A photo of an open action at `w`, checked in and uploaded by its manager; confirmed when asked. */
async function actionPhoto(w: InspectionWorld, confirmed: boolean) {
  const action = await openAction(w, {}, w.manager);
  const base = `orgs/${w.org.id}/actions/${action.id}/attachments`;
  const created = expectStatus(await post(w.manager.client, base, { content_type: 'image/jpeg', byte_size: JPEG.length }), 201);
  await upload(created.upload);
  if (confirmed) expectStatus(await post(w.manager.client, `${base}/${created.attachment.id}/confirm`, undefined), 200);
  return { parent: action.id as string, att: created.attachment.id as string };
}

/** An inspection at `w` in progress with every required item answered, ready to submit. */
async function readyToSubmit(w: InspectionWorld): Promise<string> {
  const id = await inProgressInspection(w, w.manager);
  await answerEverythingRequired(w, id, w.manager);
  return id;
}

interface Case {
  /** The route's operationId. */
  operation: string;
  /** The limited role that may make this call inside its groups. */
  role: LimitedRole;
  /** Keys may not (a user-only route, or work only an assignee does). */
  membersOnly?: boolean;
  /** Makes the row the call is about, at `w` (as its organization's manager); its ids. */
  prepare: (w: InspectionWorld) => Promise<Record<string, string>>;
  /** The call, always under the limited actors' own organization's path. */
  run: (client: any, ids: Record<string, string>) => Promise<ApiOutcome>;
}

const inspection = (ids: Record<string, string>) => inspectionPath(org(), ids.id);
const action = (ids: Record<string, string>) => `orgs/${org()}/actions/${ids.id}`;
const photoOf = (kind: 'inspections' | 'actions', ids: Record<string, string>) => `orgs/${org()}/${kind}/${ids.parent}/attachments/${ids.att}`;
const scheduled = async (w: InspectionWorld) => ({ id: (await scheduleInspection(w, {}, w.manager)).id as string });
const schedule = async (w: InspectionWorld) => ({ id: (await createSchedule(w, [w.site.id], {}, w.manager)).id as string });

const CASES: Case[] = [
  // Sites.
  { operation: 'getSite', role: 'viewer', prepare: async (w) => ({ id: w.site.id }), run: (c, ids) => call(c, `orgs/${org()}/sites/${ids.id}`) },
  { operation: 'updateSite', role: 'manager', prepare: async (w) => ({ id: w.site.id }),
    run: (c, ids) => patch(c, `orgs/${org()}/sites/${ids.id}`, { geofence_m: 150 }) },
  { operation: 'archiveSite', role: 'manager',
    prepare: async (w) => ({ id: expectStatus(await post(w.manager.client, `orgs/${w.org.id}/sites`, { name: 'To archive', group_id: w.site.group_id }), 201).id }),
    run: (c, ids) => del(c, `orgs/${org()}/sites/${ids.id}`) },
  // Site groups: the group a site is in.
  { operation: 'updateSiteGroup', role: 'manager',
    prepare: async (w) => ({
      id: expectStatus(await post(w.manager.client, `orgs/${w.org.id}/site-groups`, { name: `Inner ${crypto.randomUUID()}`, parent_id: w.site.group_id }), 201).id,
    }),
    run: (c, ids) => patch(c, `orgs/${org()}/site-groups/${ids.id}`, { name: `Renamed ${crypto.randomUUID()}` }) },
  { operation: 'deleteSiteGroup', role: 'manager',
    prepare: async (w) => ({
      id: expectStatus(await post(w.manager.client, `orgs/${w.org.id}/site-groups`, { name: `Inner ${crypto.randomUUID()}`, parent_id: w.site.group_id }), 201).id,
    }),
    run: (c, ids) => del(c, `orgs/${org()}/site-groups/${ids.id}`) },
  // Inspections.
  { operation: 'getInspection', role: 'viewer', prepare: scheduled, run: (c, ids) => call(c, inspection(ids)) },
  { operation: 'patchInspection', role: 'manager', prepare: scheduled, run: (c, ids) => patch(c, inspection(ids), { title: 'Retitled' }) },
  { operation: 'startInspection', role: 'inspector', prepare: scheduled, run: (c, ids) => post(c, `${inspection(ids)}/start`, INSIDE_GEOFENCE) },
  { operation: 'saveAnswers', role: 'inspector', prepare: async (w) => ({ id: await inProgressInspection(w, w.manager) }),
    run: (c, ids) => call(c, `${inspection(ids)}/answers`, { method: 'PUT', body: { answers: [{ item_key: 'fridge_temp', value: 4, note: null, base_version: null }] } }) },
  { operation: 'submitInspection', role: 'inspector', prepare: async (w) => ({ id: await readyToSubmit(w) }),
    run: (c, ids) => post(c, `${inspection(ids)}/submit`, undefined) },
  { operation: 'reviewInspection', role: 'manager',
    prepare: async (w) => {
      const id = await readyToSubmit(w);
      expectStatus(await post(w.manager.client, `${inspectionPath(w.org.id, id)}/submit`, undefined), 200);
      return { id };
    },
    run: (c, ids) => post(c, `${inspection(ids)}/review`, { decision: 'approve' }) },
  { operation: 'cancelInspection', role: 'manager', prepare: scheduled, run: (c, ids) => post(c, `${inspection(ids)}/cancel`, undefined) },
  { operation: 'inspectionReportPdf', role: 'viewer', prepare: scheduled, run: (c, ids) => askWhileExportsBusy(() => call(c, `${inspection(ids)}/report.pdf`)) },
  // Inspection photos.
  { operation: 'createAttachment', role: 'inspector', prepare: async (w) => ({ id: await inProgressInspection(w, w.manager) }),
    run: (c, ids) => post(c, `${inspection(ids)}/attachments`, { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length }) },
  { operation: 'confirmAttachment', role: 'inspector', prepare: (w) => inspectionPhoto(w, false),
    run: (c, ids) => post(c, `${photoOf('inspections', ids)}/confirm`, undefined) },
  { operation: 'getAttachmentUrl', role: 'viewer', prepare: (w) => inspectionPhoto(w, true), run: (c, ids) => call(c, `${photoOf('inspections', ids)}/url`) },
  { operation: 'deleteAttachment', role: 'inspector', prepare: (w) => inspectionPhoto(w, true), run: (c, ids) => del(c, photoOf('inspections', ids)) },
  // Actions and their photos (an inspector works only actions assigned to them: the manager's here).
  { operation: 'getAction', role: 'viewer', prepare: async (w) => ({ id: (await openAction(w, {}, w.manager)).id }), run: (c, ids) => call(c, action(ids)) },
  { operation: 'patchAction', role: 'manager', prepare: async (w) => ({ id: (await openAction(w, {}, w.manager)).id }),
    run: (c, ids) => patch(c, action(ids), { title: 'Retitled' }) },
  { operation: 'transitionAction', role: 'manager', prepare: async (w) => ({ id: (await openAction(w, {}, w.manager)).id }),
    run: (c, ids) => post(c, `${action(ids)}/transition`, { to: 'in_progress' }) },
  { operation: 'createActionAttachment', role: 'manager', prepare: async (w) => ({ id: (await openAction(w, {}, w.manager)).id }),
    run: (c, ids) => post(c, `${action(ids)}/attachments`, { content_type: 'image/jpeg', byte_size: JPEG.length }) },
  { operation: 'confirmActionAttachment', role: 'manager', prepare: (w) => actionPhoto(w, false),
    run: (c, ids) => post(c, `${photoOf('actions', ids)}/confirm`, undefined) },
  { operation: 'getActionAttachmentUrl', role: 'viewer', prepare: (w) => actionPhoto(w, true), run: (c, ids) => call(c, `${photoOf('actions', ids)}/url`) },
  { operation: 'deleteActionAttachment', role: 'manager', prepare: (w) => actionPhoto(w, true), run: (c, ids) => del(c, photoOf('actions', ids)) },
  // Schedules (of one site each).
  { operation: 'getSchedule', role: 'viewer', prepare: schedule, run: (c, ids) => call(c, schedulePath(org(), ids.id)) },
  { operation: 'updateSchedule', role: 'manager', prepare: schedule, run: (c, ids) => patch(c, schedulePath(org(), ids.id), { name: 'Renamed' }) },
  { operation: 'deleteSchedule', role: 'manager', prepare: schedule, run: (c, ids) => del(c, schedulePath(org(), ids.id)) },
  { operation: 'pauseSchedule', role: 'manager', prepare: schedule, run: (c, ids) => post(c, `${schedulePath(org(), ids.id)}/pause`, undefined) },
  { operation: 'resumeSchedule', role: 'manager',
    prepare: async (w) => {
      const ids = await schedule(w);
      expectStatus(await post(w.manager.client, `${schedulePath(w.org.id, ids.id)}/pause`, undefined), 200);
      return ids;
    },
    run: (c, ids) => post(c, `${schedulePath(org(), ids.id)}/resume`, undefined) },
  { operation: 'listScheduleOccurrences', role: 'viewer', prepare: schedule,
    run: (c, ids) => call(c, `${schedulePath(org(), ids.id)}/occurrences?from=${new Date(Date.now() - 7 * 86_400_000).toISOString()}&to=${new Date(Date.now() + 30 * 86_400_000).toISOString()}`) },
];

/** Cases where the site is named in the body rather than the path: the same field error as another organization's site. */
const BODY_CASES: Case[] = [
  { operation: 'createInspection', role: 'manager', prepare: async (w) => ({ site: w.site.id }),
    run: (c, ids) => post(c, `orgs/${org()}/inspections`, { site_id: ids.site, template_id: world.template.id }) },
  { operation: 'createAction', role: 'manager', prepare: async (w) => ({ site: w.site.id }),
    run: (c, ids) => post(c, `orgs/${org()}/actions`, { title: 'Opened here', site_id: ids.site }) },
  { operation: 'createSchedule', role: 'manager', prepare: async (w) => ({ site: w.site.id }),
    run: (c, ids) => post(c, `orgs/${org()}/schedules`, scheduleBody(world, [ids.site])) },
];

const keys = {} as Record<LimitedRole, Key>;
beforeAll(async () => {
  for (const role of ['manager', 'inspector', 'viewer'] as const) {
    keys[role] = await createKey(world.owner, org(), role, { site_group_ids: [world.groups.north.id] });
  }
});

/** The limited callers of a role: the member, and the key (unless the case is for members only). */
function callersOf(test: Case): Array<[string, () => any]> {
  const callers: Array<[string, () => any]> = [[`the limited ${test.role}`, () => (world.limited[test.role] as User).client]];
  if (!test.membersOnly) callers.push([`a limited ${test.role} key`, () => keys[test.role].client]);
  return callers;
}

for (const test of [...CASES, ...BODY_CASES]) {
  describe(test.operation, () => {
    for (const [who, client] of callersOf(test)) {
      it(`${who}: inside its groups it works; outside them it is refused exactly as another organization's row, and nothing changes`, async () => {
        const [inside, outside, elsewhere] = [await test.prepare(worldAt('inside')), await test.prepare(worldAt('outside')), await test.prepare(worldAt('other'))];
        const before = await siteWorldSnapshot(org());
        const refused = await test.run(client(), outside);
        expect(await siteWorldSnapshot(org()), `${test.operation} outside wrote something`).toEqual(before);
        const otherOrgs = await test.run(client(), elsewhere);
        expectSameRefusal(refused, otherOrgs, `${test.operation} by ${who}`);
        if (!BODY_CASES.includes(test)) expectProblem(refused, 404, 'not_found');
        const allowed = await test.run(client(), inside);
        expect(allowed.status, `${test.operation} inside by ${who}: ${JSON.stringify(allowed.body)}`).toBeLessThan(300);
      });
    }
  });
}

describe('lists, the dashboard and compliance of a limited member', () => {
  let rows: Record<'inside' | 'outside', { inspection: string; action: string; schedule: string }>;
  beforeAll(async () => {
    const make = async (where: 'inside' | 'outside') => {
      const w = worldAt(where);
      const [inspectionRow, actionRow, scheduleRow] = [await scheduleInspection(w), await openAction(w), await createSchedule(w, [w.site.id])];
      return { inspection: inspectionRow.id, action: actionRow.id, schedule: scheduleRow.id };
    };
    rows = { inside: await make('inside'), outside: await make('outside') };
  });

  const listIds = async (client: any, path: string) => {
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const separator = path.includes('?') ? '&' : '?';
      const page: any = expectStatus(await call(client, `${path}${separator}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`), 200);
      ids.push(...page.data.map((row: any) => row.id ?? row.entity_id));
      cursor = page.next_cursor;
    } while (cursor);
    return ids;
  };

  for (const role of ['inspector', 'manager', 'viewer'] as const) {
    it(`the limited ${role} lists inspections, actions and schedules of its groups' sites only, as does a limited key`, async () => {
      for (const client of [world.limited[role].client, keys[role].client]) {
        const inspections = await listIds(client, `orgs/${org()}/inspections`);
        expect(inspections).toContain(rows.inside.inspection);
        expect(inspections).not.toContain(rows.outside.inspection);
        const actions = await listIds(client, `orgs/${org()}/actions`);
        expect(actions).toContain(rows.inside.action);
        expect(actions).not.toContain(rows.outside.action);
        const schedules = await listIds(client, `orgs/${org()}/schedules`);
        expect(schedules).toContain(rows.inside.schedule);
        expect(schedules).not.toContain(rows.outside.schedule);
        // Filtering by a site outside is as by another organization's: nothing.
        expect(await listIds(client, `orgs/${org()}/inspections?site_id=${world.sites.south.id}`)).toEqual([]);
        expect(await listIds(client, `orgs/${org()}/actions?site_group_id=${world.groups.south.id}`)).toEqual([]);
      }
    });
  }

  it('the activity feed and the audit log show only entries about its groups\' sites', async () => {
    const feed = expectStatus(await call(world.limited.manager.client, `orgs/${org()}/activity?limit=200`), 200).data;
    const about = (entries: any[], id: string) => entries.some((e) => JSON.stringify(e).includes(id));
    expect(about(feed, rows.inside.inspection) || about(feed, rows.inside.action)).toBe(true);
    expect(about(feed, rows.outside.inspection)).toBe(false);
    expect(about(feed, rows.outside.action)).toBe(false);
    const audit = expectStatus(await call(world.limited.manager.client, `orgs/${org()}/audit-log?limit=200`), 200).data;
    expect(about(audit, rows.inside.inspection)).toBe(true);
    expect(about(audit, rows.outside.inspection)).toBe(false);
    expect(about(audit, world.sites.south.id)).toBe(false);
  });

  it("the dashboard counts only its groups' sites, and its site_group_id narrows to a subtree", async () => {
    const count = (d: any) => Object.values<number>(d.inspections_by_status).reduce((a, b) => a + b, 0);
    const wide = expectStatus(await call(world.owner.client, `orgs/${org()}/dashboard`), 200);
    const limited = expectStatus(await call(world.limited.viewer.client, `orgs/${org()}/dashboard`), 200);
    const [{ n: north }] = await db()`select count(*)::int as n from public.inspections i join public.sites s on s.id = i.site_id
      where i.org_id = ${org()} and s.group_id in (${world.groups.north.id}, ${world.groups.harbor.id})`;
    expect(count(limited)).toBe(north);
    expect(count(wide)).toBeGreaterThan(north);
    const south = expectStatus(await call(world.owner.client, `orgs/${org()}/dashboard?site_group_id=${world.groups.south.id}`), 200);
    const [{ n: inSouth }] = await db()`select count(*)::int as n from public.inspections i join public.sites s on s.id = i.site_id
      where i.org_id = ${org()} and s.group_id = ${world.groups.south.id}`;
    expect(count(south)).toBe(inSouth);
    // A limited member filtering by a group outside theirs counts nothing.
    expect(count(expectStatus(await call(world.limited.viewer.client, `orgs/${org()}/dashboard?site_group_id=${world.groups.south.id}`), 200))).toBe(0);
  });

  it('compliance groups only its sites', async () => {
    const body = expectStatus(await call(world.limited.viewer.client, `orgs/${org()}/compliance?from=2026-01-01T00:00:00Z&to=2026-12-31T00:00:00Z&group_by=site`), 200);
    expect(body.groups.map((g: any) => g.id)).not.toContain(world.sites.south.id);
  });
});
