// The inspections list's filters that analytics' figures link to (issue 28; docs/analytics.md,
// "Screens"): one template, the local day of submission and of the due time at each site (its own
// calendar, not UTC's), and a failed item — where an item the rules hid never counts. Each alone
// and combined, and bad values refused; the CSV export takes the same filters.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  answerItems, createGeofencedSite, createPublishedTemplate, inspectionPath, inspectionsPath, inspectionWorldAndStranger,
  type PublishedTemplate, scheduleInspection, startInspection,
} from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { csvReport } from '../reports/support.ts';

const { world } = inspectionWorldAndStranger();

/** A yes/no that hides the kitchen section, whose items can fail. */
const KITCHEN_DEFINITION = {
  sections: [
    {
      key: 'site',
      title: 'Site',
      items: [
        { key: 'has_kitchen', kind: 'yes_no', label: 'Is there a kitchen?', help: null, required: true, weight: 0, fail_on: null },
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
      ],
    },
    {
      key: 'kitchen',
      title: 'Kitchen',
      show_when: { match: 'all', conditions: [{ item: 'has_kitchen', op: 'equals', value: 'yes' }] },
      items: [{ key: 'hood', kind: 'pass_fail', label: 'Extractor hood is clean', help: null, required: true, weight: 1 }],
    },
  ],
};

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const list = async (query: string) => ids(expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?${query}`), 200).data);

let auckland: any;
let losAngeles: any;
let kitchen: PublishedTemplate;
const made: Record<string, string> = {};

/** Submits a kitchen inspection at `site` with `values`, then dates its submission `submittedAt` (UTC). */
async function submitted(site: any, values: Record<string, unknown>, submittedAt: string): Promise<string> {
  const { id } = await scheduleInspection(world, { site_id: site.id, template_id: kitchen.id });
  await startInspection(world, id, world.inspector);
  await answerItems(world, id, world.inspector, values);
  expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
  await db().begin(async (tx) => {
    // The clock cannot be set for one request: the submission is moved to the instant the test needs.
    await tx`set local session_replication_role = replica`;
    await tx`update public.inspections set submitted_at = ${submittedAt}::timestamptz where id = ${id}`;
  });
  return id;
}

beforeAll(async () => {
  [auckland, losAngeles, kitchen] = await Promise.all([
    createGeofencedSite(world.manager, world.org.id, { name: 'Auckland kitchen', timezone: 'Pacific/Auckland' }),
    createGeofencedSite(world.manager, world.org.id, { name: 'LA kitchen', timezone: 'America/Los_Angeles' }),
    createPublishedTemplate(world.manager, world.org.id, KITCHEN_DEFINITION, `Kitchen audit ${Date.now()}`),
  ]);
  // 1 March 12:00 UTC is 2 March 01:00 in Auckland (UTC+13); 2 March 05:00 UTC is 1 March 21:00 in Los Angeles (UTC−8).
  made.aucklandHoodFailed = await submitted(auckland, { has_kitchen: 'yes', floor: 'pass', hood: 'fail' }, '2026-03-01T12:00:00Z');
  made.laFloorFailed = await submitted(losAngeles, { has_kitchen: 'yes', floor: 'fail', hood: 'pass' }, '2026-03-02T05:00:00Z');
  // The hood failed, then the kitchen was answered away: the hood is hidden, its failed answer kept but not counted.
  const hidden = await scheduleInspection(world, { site_id: losAngeles.id, template_id: kitchen.id });
  await startInspection(world, hidden.id, world.inspector);
  await answerItems(world, hidden.id, world.inspector, { has_kitchen: 'yes', floor: 'pass', hood: 'fail' });
  await answerItems(world, hidden.id, world.inspector, { has_kitchen: 'no' });
  expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, hidden.id)}/submit`, undefined), 200);
  made.hiddenHoodFailed = hidden.id;
  // Due times, not submitted: the same instants as above, at the same sites, of the world's template.
  made.aucklandDue = (await scheduleInspection(world, { site_id: auckland.id, due_at: '2026-03-01T12:00:00Z' })).id;
  made.laDue = (await scheduleInspection(world, { site_id: losAngeles.id, due_at: '2026-03-02T05:00:00Z' })).id;
});

describe('GET /orgs/{org}/inspections, the filters analytics links to', () => {
  it('submitted_day_from and _to select by the local day of submission at each site, not by the UTC day', async () => {
    expect(await list('submitted_day_from=2026-03-02&submitted_day_to=2026-03-02')).toEqual([made.aucklandHoodFailed]);
    expect(await list('submitted_day_from=2026-03-01&submitted_day_to=2026-03-01')).toEqual([made.laFloorFailed]);
    expect(await list('submitted_day_from=2026-03-01&submitted_day_to=2026-03-02')).toEqual(ids([{ id: made.aucklandHoodFailed }, { id: made.laFloorFailed }]));
    // Either end alone; the hidden one was submitted now.
    expect(await list('submitted_day_to=2026-03-01')).toEqual([made.laFloorFailed]);
    expect(await list('submitted_day_from=2026-03-03')).toEqual([made.hiddenHoodFailed]);
    expect(await list('submitted_day_from=2026-02-27&submitted_day_to=2026-02-28')).toEqual([]);
  });

  it('due_day_from and _to select by the local day of the due time at each site', async () => {
    expect(await list('due_day_from=2026-03-02&due_day_to=2026-03-02')).toEqual([made.aucklandDue]);
    expect(await list('due_day_from=2026-03-01&due_day_to=2026-03-01')).toEqual([made.laDue]);
    // An inspection without a due time is on no day.
    expect(await list('due_day_from=2000-01-01')).toEqual(ids([{ id: made.aucklandDue }, { id: made.laDue }]));
  });

  it('template_id selects one template\'s inspections', async () => {
    expect(await list(`template_id=${kitchen.id}`)).toEqual(ids([{ id: made.aucklandHoodFailed }, { id: made.laFloorFailed }, { id: made.hiddenHoodFailed }]));
    expect(await list(`template_id=${world.template.id}`)).toEqual(ids([{ id: made.aucklandDue }, { id: made.laDue }]));
    expect(await list(`template_id=${crypto.randomUUID()}`)).toEqual([]);
  });

  it('failed_item selects the inspections whose answer to the item failed, never where the rules hid it', async () => {
    expect(await list('failed_item=hood')).toEqual([made.aucklandHoodFailed]);
    expect(await list('failed_item=floor')).toEqual([made.laFloorFailed]);
    expect(await list('failed_item=has_kitchen')).toEqual([]);
    // Combined, as a failed-item bar links: the template, the item, the days, the counted statuses.
    expect(await list(`template_id=${kitchen.id}&failed_item=hood&status=submitted,approved&submitted_day_from=2026-03-01&submitted_day_to=2026-03-31&site_id=${auckland.id}`))
      .toEqual([made.aucklandHoodFailed]);
    expect(await list(`failed_item=hood&site_id=${losAngeles.id}`)).toEqual([]);
  });

  it('the inspections CSV takes the same filters', async () => {
    const { records } = await csvReport(world.viewer.client, world.org.id, 'inspections', { failed_item: 'hood', submitted_day_to: '2026-03-31' });
    expect(records.map((record: Record<string, string>) => record.inspection_id)).toEqual([made.aucklandHoodFailed]);
  });

  const badQueries: Array<[string, string]> = [
    ['template_id=kitchen', 'query.template_id'],
    ['submitted_day_from=2026-02-30', 'query.submitted_day_from'],
    ['submitted_day_to=2026-03-01T00:00:00Z', 'query.submitted_day_to'],
    ['due_day_from=yesterday', 'query.due_day_from'],
    ['due_day_to=2026-3-1', 'query.due_day_to'],
    ['failed_item=Not%20a%20key', 'query.failed_item'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query} with 422 on ${field}`, async () => {
      expectProblem(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?${query}`), 422, 'validation_failed', [field]);
    });
  }
});
