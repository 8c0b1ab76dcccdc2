// Analytics (issue 28 part 6): every measure, asked through the api as an owner, a manager limited
// to one site group, a viewer API key and a viewer key limited to one site group when it was made
// (issue 27's site_group_ids), with each filter, equals the same measure recomputed in
// the test from the organization's inspections, answers and actions (support.ts). The data is made
// through the real routes — inspections submitted, sent back and resubmitted, approved, left in
// progress, canceled; an item answered and then hidden by its visibility rule (never counted); a
// template republished with a new label; occurrences of a schedule done on time, late, missed and
// canceled; actions resolved, verified, reopened, canceled, overdue — so the rollups are the ones the
// writes' triggers kept. Then a rebuild gives the same answers; then the rows are spread over half a
// year (their times moved back with triggers off, as a bulk load would) and rebuilt, and every
// measure is compared again, over settled days and the days not yet over. The CSVs carry the rows of
// the JSON answers (the limited key's hold its group's sites only, the org-wide key's the others
// too); bad queries are refused with the catalogue's field errors; other organizations' members get
// 404.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { closeDb, db } from '../../support/database.ts';
import { createSite, createTemplate, newUser, publish, tag, team, type User } from '../../support/fixtures.ts';
import { createKey, type Key } from '../keys/support.ts';
import { askWhileExportsBusy } from '../reports/support.ts';
import {
  addDays, type Ask, type Base, expectedActions, expectedFailedItems, expectedOnTime, expectedScores, expectedSites, type Interval, readBase, sameRows,
} from './support.ts';

const KITCHEN_ITEMS = [
  { key: 'cooks', kind: 'yes_no', label: 'Is food cooked here?', help: null, required: false, weight: 0, fail_on: null },
  { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: false, weight: 1 },
  { key: 'temp', kind: 'number', label: 'Fridge temperature', help: null, required: false, weight: 2, min: 0, max: 5, unit: '°C' },
  {
    key: 'core', kind: 'pass_fail', label: 'Core temperature checked', help: null, required: false, weight: 2,
    show_when: { match: 'all', conditions: [{ item: 'cooks', op: 'equals', value: 'yes' }] },
  },
];
const FIRE_ITEMS = [
  { key: 'exits', kind: 'pass_fail', label: 'Exits are clear', help: null, required: false, weight: 1 },
  { key: 'extinguisher', kind: 'yes_no', label: 'Extinguisher charged?', help: null, required: false, weight: 1, fail_on: 'no' },
];
const definitionOf = (items: unknown[]) => ({ sections: [{ key: 'main', title: 'Main', items }] });

const data = {} as {
  team: Awaited<ReturnType<typeof team<'manager' | 'inspector' | 'lee'>>>;
  org: string;
  sites: { auckland: any; brighton: any; capitol: any };
  groups: { north: string; south: string; harbour: string };
  kitchen: string;
  fire: string;
  key: Key;
  /** A viewer key made with `site_group_ids: [South]`: it sees Auckland only (in Harbour, under South). */
  southKey: Key;
  /** The org-wide key's equal for the CSV test, with its own bucket of requests. */
  wideKey: Key;
  stranger: User;
};
const today = (offset = 0) => addDays(new Date().toISOString().slice(0, 10), offset);

/** `PUT …/answers` as the inspector, on the current versions. */
async function answer(id: string, values: Record<string, unknown>) {
  const current = await db()`select item_key, version from public.answers where inspection_id = ${id}`;
  const versions = new Map(current.map((row) => [row.item_key as string, row.version as number]));
  const answers = Object.entries(values).map(([item_key, value]) => ({ item_key, value, note: null, base_version: versions.get(item_key) ?? null }));
  expectStatus(await call(data.team.members.inspector.client, `orgs/${data.org}/inspections/${id}/answers`, { method: 'PUT', body: { answers } }), 200);
}

const inspectionPath = (id: string) => `orgs/${data.org}/inspections/${id}`;
const inspector = () => data.team.members.inspector;
const manager = () => data.team.members.manager;

/** An inspection through the routes: scheduled, started, answered step by step, then taken to `end`. */
async function inspect(site: any, template: string, steps: Array<Record<string, unknown>>, end: 'submit' | 'approve' | 'send_back' | 'resubmit' | 'in_progress' | 'cancel') {
  const { id } = expectStatus(await post(manager().client, `orgs/${data.org}/inspections`, { site_id: site.id, template_id: template, assignee_id: inspector().userId }), 201);
  if (end === 'cancel') {
    expectStatus(await post(manager().client, `${inspectionPath(id)}/cancel`, undefined), 200);
    return id;
  }
  expectStatus(await post(inspector().client, `${inspectionPath(id)}/start`, {}), 200);
  for (const step of steps) await answer(id, step);
  if (end === 'in_progress') return id;
  expectStatus(await post(inspector().client, `${inspectionPath(id)}/submit`, undefined), 200);
  if (end === 'approve') expectStatus(await post(manager().client, `${inspectionPath(id)}/review`, { decision: 'approve' }), 200);
  if (end === 'send_back' || end === 'resubmit') {
    expectStatus(await post(manager().client, `${inspectionPath(id)}/review`, { decision: 'request_changes', note: 'Check again.' }), 200);
  }
  if (end === 'resubmit') {
    expectStatus(await post(inspector().client, `${inspectionPath(id)}/start`, {}), 200);
    await answer(id, { floor: 'pass' });
    expectStatus(await post(inspector().client, `${inspectionPath(id)}/submit`, undefined), 200);
  }
  return id;
}

/** A time of day (`HH:MM`) whose due time an hour later falls at least three hours from now at each site. */
function safeTimeOfDay(zones: string[]): string {
  const now = new Date();
  const nowHour = now.getUTCHours() + now.getUTCMinutes() / 60;
  const offset = (zone: string) => {
    const local = new Date(now.toLocaleString('en-US', { timeZone: zone }));
    const utc = new Date(now.toLocaleString('en-US', { timeZone: 'UTC' }));
    return (local.getTime() - utc.getTime()) / 3_600_000;
  };
  const distance = (a: number, b: number) => Math.min(((a - b) % 24 + 24) % 24, ((b - a) % 24 + 24) % 24);
  for (let hour = 0; hour < 24; hour++) {
    if (zones.every((zone) => distance(hour + 1 - offset(zone), nowHour) >= 3)) return `${String(hour).padStart(2, '0')}:00`;
  }
  throw new Error('no time of day keeps the due times away from now');
}

/** Moves an action through `POST …/transition`. */
async function move(id: string, by: User, to: string, note?: string) {
  expectStatus(await post(by.client, `orgs/${data.org}/actions/${id}/transition`, note ? { to, note } : { to }), 200);
}

beforeAll(async () => {
  data.team = await team({
    label: 'analytics', org: `Analytics ${tag()}`, owner: 'Olive Owner',
    members: { manager: ['manager', 'Mia Manager'], inspector: ['inspector', 'Ian Inspector'], lee: ['manager', 'Lee Limited'] },
  });
  data.org = data.team.org.id;
  const owner = data.team.owner;
  data.stranger = await newUser('analytics-stranger', 'Sam Stranger');
  const [auckland, brighton, capitol] = await Promise.all([
    createSite(owner, data.org, { name: 'Auckland Quay', timezone: 'Pacific/Auckland' }),
    createSite(owner, data.org, { name: 'Brighton Market', timezone: 'UTC' }),
    createSite(owner, data.org, { name: 'Capitol Hill', timezone: 'America/Los_Angeles' }),
  ]);
  data.sites = { auckland, brighton, capitol };
  const kitchen = await createTemplate(owner.client, data.org, { name: 'Kitchen audit', definition: definitionOf(KITCHEN_ITEMS) });
  const fire = await createTemplate(owner.client, data.org, { name: 'Fire walk', definition: definitionOf(FIRE_ITEMS) });
  await publish(owner.client, data.org, kitchen.id);
  await publish(owner.client, data.org, fire.id);
  data.kitchen = kitchen.id;
  data.fire = fire.id;

  // Site groups (issue 27), straight in the database: North holds Brighton; South has Harbour
  // under it, which holds Auckland; Capitol Hill is in none. Lee, a manager, is limited to South.
  const sql = db();
  const [north] = await sql`insert into public.site_groups (org_id, name) values (${data.org}, 'North') returning id`;
  const [south] = await sql`insert into public.site_groups (org_id, name) values (${data.org}, 'South') returning id`;
  const [harbour] = await sql`insert into public.site_groups (org_id, parent_id, name) values (${data.org}, ${south.id}, 'Harbour') returning id`;
  data.groups = { north: north.id, south: south.id, harbour: harbour.id };
  await sql`update public.sites set group_id = ${north.id} where id = ${brighton.id}`;
  await sql`update public.sites set group_id = ${harbour.id} where id = ${auckland.id}`;
  await sql`update public.memberships set site_access_limited = true where org_id = ${data.org} and user_id = ${data.team.members.lee.userId}`;
  await sql`insert into public.membership_site_groups (org_id, user_id, site_group_id) values (${data.org}, ${data.team.members.lee.userId}, ${south.id})`;

  // Inspections of the kitchen audit. Scores: floor 1, temperature 2, core 2 (only where food is cooked).
  await inspect(brighton, kitchen.id, [{ cooks: 'yes', floor: 'pass', temp: 3, core: 'fail' }], 'approve'); // 60 %, core failed
  // Core answered (failed) while cooking was "yes", then hidden: it never counts.
  await inspect(brighton, kitchen.id, [{ cooks: 'yes', core: 'fail' }, { cooks: 'no', floor: 'fail', temp: 4 }], 'submit'); // 2 of 3
  await inspect(auckland, kitchen.id, [{ cooks: 'yes', floor: 'pass', temp: 9, core: 'pass' }], 'submit'); // temperature failed
  await inspect(auckland, kitchen.id, [{ cooks: 'no', floor: 'fail', temp: 2 }], 'resubmit'); // sent back, floor fixed, submitted again
  await inspect(capitol, kitchen.id, [{ cooks: 'no', floor: 'na', temp: 1 }], 'approve'); // n/a is not judged
  await inspect(capitol, kitchen.id, [{ cooks: 'no', floor: 'fail' }], 'send_back'); // sent back and left: not counted
  await inspect(capitol, kitchen.id, [{ floor: 'fail' }], 'in_progress'); // never submitted
  await inspect(brighton, kitchen.id, [], 'cancel');
  await inspect(capitol, kitchen.id, [{ cooks: 'no' }], 'submit'); // nothing to score
  // Version 2 renames the floor item; both versions' answers count under its key, with the new label.
  expectStatus(await patch(owner.client, `orgs/${data.org}/templates/${kitchen.id}`, {
    definition: definitionOf(KITCHEN_ITEMS.map((item) => (item.key === 'floor' ? { ...item, label: 'Floor is clean and dry' } : item))),
  }), 200);
  await publish(owner.client, data.org, kitchen.id);
  await inspect(auckland, kitchen.id, [{ cooks: 'yes', floor: 'fail', temp: 6, core: 'fail' }], 'approve');
  await inspect(brighton, kitchen.id, [{ cooks: 'no', floor: 'fail', temp: 2 }], 'submit');
  await inspect(capitol, fire.id, [{ exits: 'fail', extinguisher: 'no' }], 'submit');
  await inspect(auckland, fire.id, [{ exits: 'pass', extinguisher: 'yes' }], 'approve');

  // A daily fire walk at the three sites, made as the background run would have twelve days ago.
  const schedule = expectStatus(await post(manager().client, `orgs/${data.org}/schedules`, {
    template_id: fire.id, site_ids: [auckland.id, brighton.id, capitol.id], rrule: 'FREQ=DAILY', start_date: today(-20), end_date: null,
    time_of_day: safeTimeOfDay(['Pacific/Auckland', 'UTC', 'America/Los_Angeles']), due_after: 'PT1H', assignee_id: inspector().userId,
    rotation_user_ids: [], title_pattern: 'Fire walk — {site} — {date}',
  }), 201);
  await sql`select private.materialise_schedule(${schedule.id}, ${new Date(Date.now() - 12 * 86_400_000)}, null, true)`;
  const occurrences = await sql`select id, due_at, site_id from public.inspections where schedule_id = ${schedule.id} order by due_at, site_id`;
  const past = occurrences.filter((o) => o.due_at < new Date());
  const future = occurrences.filter((o) => o.due_at > new Date());
  const work = async (id: string, values: Record<string, unknown>) => {
    expectStatus(await post(inspector().client, `${inspectionPath(id)}/start`, {}), 200);
    await answer(id, values);
    expectStatus(await post(inspector().client, `${inspectionPath(id)}/submit`, undefined), 200);
  };
  for (const [n, o] of past.slice(0, 5).entries()) await work(o.id, { exits: n % 2 ? 'pass' : 'fail', extinguisher: 'yes' }); // late
  expectStatus(await post(manager().client, `${inspectionPath(past[6].id)}/cancel`, undefined), 200);
  expectStatus(await post(inspector().client, `${inspectionPath(past[7].id)}/start`, {}), 200); // started, never submitted: missed
  for (const o of future.slice(0, 4)) await work(o.id, { exits: 'pass', extinguisher: 'no' }); // done early: on time
  expectStatus(await post(manager().client, `${inspectionPath(future[5].id)}/cancel`, undefined), 200);

  // Actions: those the submits opened, worked; and some by hand, one overdue, one canceled.
  const opened = await sql`select id from public.actions where org_id = ${data.org} order by created_at, id`;
  for (const { id } of opened.slice(0, 6)) {
    await move(id, inspector(), 'in_progress');
    await move(id, inspector(), 'resolved', 'Fixed it.');
  }
  for (const { id } of opened.slice(0, 3)) await move(id, manager(), 'verified');
  await move(opened[3].id, manager(), 'open', 'Not fixed.');
  await move(opened[6].id, manager(), 'canceled');
  const hand = async (body: Record<string, unknown>) => expectStatus(await post(manager().client, `orgs/${data.org}/actions`, body), 201);
  const late = await hand({ title: 'Replace the seal', site_id: capitol.id, priority: 'high', due_at: new Date(Date.now() - 50 * 3_600_000).toISOString(), assignee_id: inspector().userId });
  await move(late.id, inspector(), 'in_progress');
  await move(late.id, inspector(), 'resolved', 'Replaced.');
  await hand({ title: 'Check the alarm', site_id: auckland.id, priority: 'critical', due_at: new Date(Date.now() - 30 * 3_600_000).toISOString() });
  await hand({ title: 'Paint the line', site_id: brighton.id, priority: 'low' });

  data.key = await createKey(owner, data.org, 'viewer');
  [data.southKey, data.wideKey] = await Promise.all([
    createKey(owner, data.org, 'viewer', { site_group_ids: [south.id] }), createKey(owner, data.org, 'viewer'),
  ]);
}, 300_000);

/**
 * A new viewer key limited to South when it is made, as an integration's would be: a test that asks
 * through it a round of every measure (12 requests, in a fraction of a second) has the key's burst
 * of 60 to itself, as one key used by test after test would not.
 */
const newSouthKey = () => createKey(data.team.owner, data.org, 'viewer', { site_group_ids: [data.groups.south] });

afterAll(closeDb);

type Caller = 'owner' | 'lee' | 'key' | 'south key';
const clientOf = (caller: Caller) =>
  ({ owner: data.team.owner.client, lee: data.team.members.lee.client, key: data.key.client, 'south key': data.southKey.client })[caller];
/** The caller's client for one test: a key limited to South of its own, else the caller's. */
const clientForOneTest = async (caller: Caller) => (caller === 'south key' ? (await newSouthKey()).client : clientOf(caller));
/** What a caller sees: Lee and the South key only Auckland, in Harbour under South; the others every site. */
const sightOf = (caller: Caller) => (caller === 'lee' || caller === 'south key' ? new Set([data.sites.auckland.id]) : undefined);

const FILTERS: Array<[string, () => Partial<Ask>]> = [
  ['no filter', () => ({})],
  ['a template', () => ({ template_id: data.kitchen })],
  ['a site', () => ({ site_id: data.sites.capitol.id })],
  ['a site group and the groups under it', () => ({ site_group_id: data.groups.south })],
];

function queryOf(ask: Partial<Ask>, extra: Record<string, string | number> = {}): string {
  const params = new URLSearchParams();
  for (const key of ['from', 'to', 'interval', 'site_id', 'template_id', 'site_group_id'] as const) {
    if (ask[key]) params.set(key, String(ask[key]));
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, String(value));
  return params.toString();
}

/** Asks every measure with `ask` as `caller`, and compares each with the recomputation. */
async function compareEveryMeasure(caller: Caller, ask: Ask, client = clientOf(caller)) {
  const base: Base = await readBase(data.org);
  const now = Date.now();
  const sighted = { ...ask, visibleSites: sightOf(caller) };
  const get = async (measure: string, extra: Record<string, string | number> = {}) =>
    expectStatus(await call(client, `orgs/${data.org}/analytics/${measure}?${queryOf(ask, extra)}`), 200);
  const check = (what: string, actual: any[], expected: any[]) => expect(sameRows(actual, expected), `${caller} ${what} ${JSON.stringify(ask)}`).toBeNull();

  const scores = await get('scores');
  expect(scores).toMatchObject({ from: ask.from, to: ask.to, interval: ask.interval });
  check('scores', scores.data, expectedScores(base, sighted));
  check('on-time', (await get('on-time')).data, expectedOnTime(base, sighted, now));
  check('actions', (await get('actions')).data, expectedActions(base, sighted, now));
  for (const groupBy of ['template', 'site'] as const) {
    for (const limit of [2, 200]) {
      check(`failed-items by ${groupBy}, ${limit}`, (await get('failed-items', { group_by: groupBy, limit })).data, expectedFailedItems(base, sighted, groupBy, limit));
    }
  }
  for (const sort of ['score', 'on_time', 'score_change', 'on_time_change'] as const) {
    const answer = await get('sites', { sort, limit: 50 });
    const expected = expectedSites(base, sighted, sort, 50, now);
    expect(answer).toMatchObject({ previous_from: expected.previous_from, previous_to: expected.previous_to, sort });
    check(`sites by ${sort}`, answer.data, expected.data);
  }
  check('sites, limited', (await get('sites', { sort: 'score', limit: 1 })).data, expectedSites(base, sighted, 'score', 1, now).data);
}

/** Every measure's JSON answer for one ask, as the owner. */
async function everyAnswer(ask: Partial<Ask>) {
  const answers: Record<string, unknown> = {};
  for (const [measure, extra] of [['scores', {}], ['on-time', {}], ['actions', {}], ['failed-items', { group_by: 'site' }], ['sites', { sort: 'score_change' }]] as const) {
    answers[measure] = expectStatus(await call(data.team.owner.client, `orgs/${data.org}/analytics/${measure}?${queryOf(ask, extra)}`), 200);
  }
  return answers;
}

describe('as the writes left them', () => {
  // A key limited to South is a limited member's equal: every filter, both intervals.
  for (const caller of ['owner', 'lee', 'south key'] as const) {
    for (const [name, filter] of FILTERS) {
      for (const interval of ['week', 'month'] as Interval[]) {
        it(`${caller}: every measure by ${interval}, ${name}, equals its recomputation`, async () => {
          await compareEveryMeasure(caller, { from: today(-40), to: today(1), interval, ...filter() }, await clientForOneTest(caller));
        });
      }
    }
  }
  // A key is held to its rate limit (60 at once): one round of every measure.
  it('a viewer key: every measure by week equals its recomputation', async () => {
    await compareEveryMeasure('key', { from: today(-40), to: today(1), interval: 'week' });
  });

  it('the data has what the measures are about: hidden answers, n/a, failures, every occurrence outcome, overdue actions', async () => {
    const base = await readBase(data.org);
    const hiddenAndAnswered = base.answers.filter((a) => base.inspections.find((i) => i.id === a.inspection_id)!.hidden_item_keys.includes(a.item_key) && a.failed !== null);
    expect(hiddenAndAnswered.length).toBeGreaterThan(0);
    const onTime = expectedOnTime(base, { from: today(-40), to: today(14), interval: 'month' }, Date.now());
    const sum = (key: 'on_time' | 'late' | 'missed') => onTime.reduce((n, row) => n + row[key], 0);
    expect([sum('on_time'), sum('late'), sum('missed')].every((n) => n > 0)).toBe(true);
    const actions = expectedActions(base, { from: today(-40), to: today(14), interval: 'month' }, Date.now()).filter((r) => r.priority === null);
    expect(actions.reduce((n, r) => n + r.overdue, 0)).toBeGreaterThan(0);
    expect(actions.reduce((n, r) => n + r.verified, 0)).toBeGreaterThan(0);
    // To tomorrow: it is already tomorrow in Auckland for half of the day.
    const items = expectedFailedItems(base, { from: today(-40), to: today(1), interval: 'month' }, 'template', 200);
    expect(items.find((i) => i.item_key === 'core')).toMatchObject({ failed: 2 }); // the hidden one is not among them
    expect(items.find((i) => i.item_key === 'floor')).toMatchObject({ item_label: 'Floor is clean and dry' });
  });

  it('the default range is the last twelve weeks (or months), to today', async () => {
    const weeks = expectStatus(await call(data.team.owner.client, `orgs/${data.org}/analytics/scores`), 200);
    expect(weeks.interval).toBe('week');
    expect(weeks.to).toBe(today());
    expect(weeks.data).toHaveLength(12);
    expect(weeks.from).toBe(weeks.data[0].period_start);
    const months = expectStatus(await call(data.team.owner.client, `orgs/${data.org}/analytics/on-time?interval=month`), 200);
    expect(months.data).toHaveLength(12);
    expect(months.from).toBe(`${months.data[0].period_start}`);
  });

  it('each CSV holds the rows of its JSON answer, column by column', async () => {
    const ask = { from: today(-40), to: today(), interval: 'week' as Interval };
    const answers = await everyAnswer(ask);
    for (const [measure, extra] of [['scores', {}], ['on-time', {}], ['actions', {}], ['failed-items', { group_by: 'site' }], ['sites', { sort: 'score_change' }]] as const) {
      const outcome = await askWhileExportsBusy(() => call(data.team.owner.client, `orgs/${data.org}/analytics/${measure}.csv?${queryOf(ask, extra)}`));
      expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
      expect(outcome.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(outcome.headers.get('content-disposition')).toContain(`-analytics-${measure}-${ask.from}-${ask.to}.csv`);
      const records: Record<string, string>[] = parse(outcome.body, { columns: true, bom: true });
      const rows = (answers[measure] as { data: Record<string, unknown>[] }).data;
      expect(records.length, measure).toBe(rows.length);
      expect(records.length, measure).toBeGreaterThan(0);
      records.forEach((record, n) => {
        expect(Object.keys(record)).toEqual(Object.keys(rows[n]));
        for (const [key, value] of Object.entries(rows[n])) expect(record[key], `${measure} ${n} ${key}`).toBe(value === null ? '' : String(value));
      });
    }
  });

  it("a key limited to one site group gets every measure, as JSON and as CSV, of its group's sites only; an org-wide key the other sites' too", async () => {
    const ask = { from: today(-40), to: today(1), interval: 'week' as Interval };
    const base = await readBase(data.org);
    const now = Date.now();
    const measures = [
      ['scores', {}], ['on-time', {}], ['actions', {}], ['failed-items', { group_by: 'site', limit: 200 }], ['sites', { sort: 'score', limit: 200 }],
    ] as const;
    const recomputed = (sighted: Ask): Record<(typeof measures)[number][0], Array<Record<string, unknown>>> => ({
      scores: expectedScores(base, sighted),
      'on-time': expectedOnTime(base, sighted, now),
      actions: expectedActions(base, sighted, now),
      'failed-items': expectedFailedItems(base, sighted, 'site', 200),
      sites: expectedSites(base, sighted, 'score', 200, now).data,
    });
    const wanted = { 'south key': recomputed({ ...ask, visibleSites: sightOf('south key') }), key: recomputed(ask) };
    // 10 requests of each key (and a few more while the exports are busy), each key's own bucket.
    const clients = { 'south key': data.southKey.client, key: data.wideKey.client };
    const sitesNamed = { 'south key': new Set<string>(), key: new Set<string>() };
    for (const [measure, extra] of measures) {
      // The two sides differ in every measure: the other sites have figures in the range.
      expect(sameRows(wanted.key[measure], wanted['south key'][measure]), `${measure}: org-wide and limited alike`).not.toBeNull();
      for (const caller of ['south key', 'key'] as const) {
        const path = `orgs/${data.org}/analytics/${measure}`;
        const json = expectStatus(await call(clients[caller], `${path}?${queryOf(ask, extra)}`), 200);
        expect(sameRows(json.data, wanted[caller][measure]), `${caller} ${measure}`).toBeNull();
        const outcome = await askWhileExportsBusy(() => call(clients[caller], `${path}.csv?${queryOf(ask, extra)}`));
        expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
        const records: Record<string, string>[] = parse(outcome.body, { columns: true, bom: true });
        expect(records.length, `${caller} ${measure}.csv`).toBe(json.data.length);
        records.forEach((record, n) => {
          for (const [key, value] of Object.entries(json.data[n] as Record<string, unknown>)) {
            expect(record[key], `${caller} ${measure}.csv ${n} ${key}`).toBe(value === null ? '' : String(value));
          }
          if (record.site_id) sitesNamed[caller].add(record.site_id);
        });
      }
    }
    expect([...sitesNamed['south key']]).toEqual([data.sites.auckland.id]);
    expect(sitesNamed.key).toEqual(new Set([data.sites.auckland.id, data.sites.brighton.id, data.sites.capitol.id]));
  });

  it('a rebuild of the rollups from the base tables gives the same answers as the triggers kept', async () => {
    for (const interval of ['week', 'month'] as Interval[]) {
      const ask = { from: today(-40), to: today(14), interval };
      const before = await everyAnswer(ask);
      await db()`select private.rebuild_analytics(${data.org})`;
      expect(await everyAnswer(ask)).toEqual(before);
    }
  });
});

describe('spread over half a year and rebuilt', () => {
  beforeAll(async () => {
    // Each inspection and action moved back a whole number of days, every time of it alike (so its
    // outcome stays what it was; an occurrence keeps its occurrence_at, which no measure reads and
    // which keeps occurrences distinct). Triggers off, as a bulk load; then the rollups rebuilt.
    const sql = db();
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        with moved as (
          select i.id, make_interval(days => ((row_number() over (order by i.created_at, i.id) - 1) * 11 % 170)::int) as back
          from public.inspections i where i.org_id = ${data.org}
        )
        update public.inspections i set
          created_at = i.created_at - m.back, updated_at = i.updated_at - m.back, started_at = i.started_at - m.back,
          submitted_at = i.submitted_at - m.back, reviewed_at = i.reviewed_at - m.back, canceled_at = i.canceled_at - m.back,
          due_at = i.due_at - m.back, first_submitted_at = i.first_submitted_at - m.back
        from moved m where m.id = i.id`;
      await tx`
        with moved as (
          select a.id, make_interval(days => ((row_number() over (order by a.created_at, a.id) - 1) * 13 % 150)::int) as back
          from public.actions a where a.org_id = ${data.org}
        )
        update public.actions a set
          created_at = a.created_at - m.back, updated_at = a.updated_at - m.back, resolved_at = a.resolved_at - m.back,
          verified_at = a.verified_at - m.back, canceled_at = a.canceled_at - m.back, due_at = a.due_at - m.back
        from moved m where m.id = a.id`;
    });
    await sql`select private.rebuild_analytics(${data.org})`;
  });

  for (const caller of ['owner', 'lee', 'south key'] as const) {
    for (const [name, filter] of FILTERS) {
      for (const interval of ['week', 'month'] as Interval[]) {
        it(`${caller}: every measure by ${interval} over 200 days to two weeks ahead, ${name}, equals its recomputation`, async () => {
          await compareEveryMeasure(caller, { from: today(-200), to: today(14), interval, ...filter() }, await clientForOneTest(caller));
        });
      }
    }
  }

  it('the longest range, a year, answers every measure the same way', async () => {
    await compareEveryMeasure('owner', { from: today(-365), to: today(), interval: 'month' });
  });
});

describe('refusals', () => {
  const refused = async (query: string, fields: string[]) =>
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/scores?${query}`), 422, 'validation_failed', fields);

  it('bad ranges, dates, intervals, groupings, sorts and limits are field errors', async () => {
    await refused(`from=${today()}&to=${today(-1)}`, ['query.to']);
    await refused(`from=${today(-366)}&to=${today()}`, ['query.to']);
    await refused(`from=${today(1)}`, ['query.from']);
    // Only `from` sent: the range runs to today, and the error is on the field that was sent.
    await refused(`from=${today(-400)}`, ['query.from']);
    await refused('from=2026-02-30', ['query.from']);
    await refused('to=1999-12-31', ['query.to']);
    await refused('interval=day', ['query.interval']);
    await refused('site_id=nope', ['query.site_id']);
    await refused('site_group_id=nope', ['query.site_group_id']);
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/scores?limit=5`), 422, 'validation_failed');
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/failed-items?group_by=item`), 422, 'validation_failed', ['query.group_by']);
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/failed-items?limit=201`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/sites?sort=name`), 422, 'validation_failed', ['query.sort']);
    expectProblem(await call(data.team.owner.client, `orgs/${data.org}/analytics/sites.csv?limit=0`), 422, 'validation_failed', ['query.limit']);
  });

  it('another organization is not found, as JSON and as CSV', async () => {
    expectProblem(await call(data.stranger.client, `orgs/${data.org}/analytics/scores`), 404, 'not_found');
    expectProblem(await call(data.stranger.client, `orgs/${data.org}/analytics/sites.csv`), 404, 'not_found');
    expectProblem(await call(data.team.owner.client, 'orgs/00000000-0000-4000-8000-000000000000/analytics/actions'), 404, 'not_found');
  });
});
