// The actions list's filters that analytics' figures link to (issue 28; docs/analytics.md,
// "Screens"): the template of the inspection an action came from, the local days (each site's own
// calendar) it was opened, resolved, verified and due on, and missed_due — past due and not
// resolved by then, resolved late or not yet. Each alone and combined, and bad values refused.
import { beforeAll, describe, expect, it } from 'vitest';
import { actionIn, actionsPath, openAction, submittedWithFailures } from './support.ts';
import { call, expectProblem, expectStatus } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createGeofencedSite, createPublishedTemplate, inspectionWorldAndStranger, type PublishedTemplate } from '../../support/fixtures.ts';

const { world } = inspectionWorldAndStranger();

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
const sorted = (...values: string[]) => [...values].sort();
const list = async (query: string) => ids(expectStatus(await call(world.viewer.client, `${actionsPath(world.org.id)}?${query}`), 200).data);

let auckland: any;
let losAngeles: any;
let other: PublishedTemplate;
const made: Record<string, string> = {};
let fromSubmit: string[];

/** Dates an action's stamps (UTC instants): the clock cannot be set for one request. */
async function dated(id: string, stamps: Partial<Record<'created_at' | 'resolved_at' | 'verified_at' | 'due_at', string>>) {
  await db().begin(async (tx) => {
    await tx`set local session_replication_role = replica`;
    await tx`update public.actions set ${tx(stamps)} where id = ${id}`;
  });
}

beforeAll(async () => {
  [auckland, losAngeles, other] = await Promise.all([
    createGeofencedSite(world.manager, world.org.id, { name: 'Auckland kitchen', timezone: 'Pacific/Auckland' }),
    createGeofencedSite(world.manager, world.org.id, { name: 'LA kitchen', timezone: 'America/Los_Angeles' }),
    createPublishedTemplate(world.manager, world.org.id, undefined, `Other audit ${Date.now()}`),
  ]);
  // 1 March 12:00 UTC is 2 March in Auckland; 2 March 05:00 UTC is 1 March in Los Angeles.
  made.auckland = (await openAction(world, { site_id: auckland.id })).id;
  await dated(made.auckland, { created_at: '2026-03-01T12:00:00Z', due_at: '2026-03-01T12:00:00Z' });
  made.la = (await openAction(world, { site_id: losAngeles.id })).id;
  await dated(made.la, { created_at: '2026-03-02T05:00:00Z', due_at: '2026-03-02T05:00:00Z' });
  // Resolved by its due time, and verified; resolved after it; never resolved (and its due time to come).
  made.resolvedInTime = (await actionIn(world, 'verified')).id;
  await dated(made.resolvedInTime, { created_at: '2026-04-01T10:00:00Z', resolved_at: '2026-04-02T10:00:00Z', verified_at: '2026-04-03T10:00:00Z', due_at: '2026-04-05T10:00:00Z' });
  made.resolvedLate = (await actionIn(world, 'resolved')).id;
  await dated(made.resolvedLate, { created_at: '2026-04-01T10:00:00Z', resolved_at: '2026-04-09T10:00:00Z', due_at: '2026-04-05T10:00:00Z' });
  made.future = (await openAction(world)).id;
  await dated(made.future, { due_at: '2099-01-01T00:00:00Z' });
  // Actions opened by a submit carry the inspection's template.
  fromSubmit = ids(await db()`select id from public.actions where inspection_id = ${await submittedWithFailures(world)}`);
});

describe('GET /orgs/{org}/actions, the filters analytics links to', () => {
  it('opened_day_from and _to select by the local day of opening at each site, not by the UTC day', async () => {
    expect(await list('opened_day_from=2026-03-02&opened_day_to=2026-03-02')).toEqual([made.auckland]);
    expect(await list('opened_day_from=2026-03-01&opened_day_to=2026-03-01')).toEqual([made.la]);
    expect(await list('opened_day_to=2026-03-31')).toEqual(sorted(made.auckland, made.la));
  });

  it('due_day_from and _to select by the local day of the due time', async () => {
    expect(await list('due_day_from=2026-03-02&due_day_to=2026-03-02')).toEqual([made.auckland]);
    expect(await list('due_day_from=2026-03-01&due_day_to=2026-03-01')).toEqual([made.la]);
  });

  it('resolved_day_ and verified_day_ select by when it was resolved and verified; one not resolved is on no day', async () => {
    // The world's site is in UTC.
    expect(await list('resolved_day_from=2026-04-02&resolved_day_to=2026-04-02')).toEqual([made.resolvedInTime]);
    expect(await list('resolved_day_from=2026-04-01&resolved_day_to=2026-04-30')).toEqual(sorted(made.resolvedInTime, made.resolvedLate));
    expect(await list('verified_day_from=2026-04-01&verified_day_to=2026-04-30')).toEqual([made.resolvedInTime]);
    expect(await list('verified_day_from=2026-04-04')).toEqual([]);
  });

  it('missed_due selects those whose due time passed without their being resolved by it', async () => {
    const missed = await list('missed_due=true&due_day_from=2026-03-01&due_day_to=2026-04-30');
    expect(missed).toEqual(sorted(made.auckland, made.la, made.resolvedLate));
    expect(await list('missed_due=false&due_day_from=2026-03-01&due_day_to=2026-04-30')).toEqual([made.resolvedInTime]);
    expect(await list('missed_due=false')).toContain(made.future);
    expect(await list('missed_due=true')).not.toContain(made.future);
  });

  it('template_id selects the actions from inspections of one template', async () => {
    expect(fromSubmit).toHaveLength(3);
    expect(await list(`template_id=${world.template.id}`)).toEqual(fromSubmit);
    expect(await list(`template_id=${other.id}`)).toEqual([]);
  });

  it('combines with the other filters, as a chart links to it', async () => {
    expect(await list(`priority=medium&status=open,in_progress,resolved,verified&site_id=${auckland.id}&opened_day_from=2026-03-01&opened_day_to=2026-03-31`))
      .toEqual([made.auckland]);
    expect(await list(`site_id=${losAngeles.id}&opened_day_from=2026-03-02&opened_day_to=2026-03-31`)).toEqual([]);
  });

  const badQueries: Array<[string, string]> = [
    ['template_id=audit', 'query.template_id'],
    ['opened_day_from=2026-02-30', 'query.opened_day_from'],
    ['opened_day_to=today', 'query.opened_day_to'],
    ['resolved_day_from=2026-03-01T00:00:00Z', 'query.resolved_day_from'],
    ['resolved_day_to=2026-3-1', 'query.resolved_day_to'],
    ['verified_day_from=x', 'query.verified_day_from'],
    ['verified_day_to=2026-13-01', 'query.verified_day_to'],
    ['due_day_from=2026-00-10', 'query.due_day_from'],
    ['due_day_to=1', 'query.due_day_to'],
    ['missed_due=yes', 'query.missed_due'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query} with 422 on ${field}`, async () => {
      expectProblem(await call(world.viewer.client, `${actionsPath(world.org.id)}?${query}`), 422, 'validation_failed', [field]);
    });
  }
});
