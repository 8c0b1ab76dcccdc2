// `site_group_id` on the inspections and actions lists, the dashboard and compliance (issue 27
// part 1): a group stands for its sites and its subgroups' sites; an unknown group, or one the
// caller cannot see, selects nothing (as an unknown site_id does); a bad id is a field error.
import { beforeAll, describe, expect, it } from 'vitest';
import { allPages } from '../../support/paging.ts';
import { call, expectProblem, expectStatus } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { scheduleInspection } from '../../support/fixtures.ts';
import { openAction } from '../actions/support.ts';
import { createSchedule, materialiseAt, today } from '../schedules/support.ts';
import { at, regionWorldAndOtherOrg } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('filters');
const org = () => world.org.id;
const ids = async (client: any, path: string) => (await allPages(client, path, 200)).flat().map((row: any) => row.id);

let made: Record<'harbor' | 'south' | 'loose', { inspection: string; action: string }>;
beforeAll(async () => {
  const make = async (site: any) => {
    const w = at(world, site);
    return { inspection: (await scheduleInspection(w)).id, action: (await openAction(w)).id };
  };
  made = { harbor: await make(world.sites.harbor), south: await make(world.sites.south), loose: await make(world.sites.loose) };
});

describe('the inspections and actions lists', () => {
  it('by a top-level group: its subgroups\' sites too; by a subgroup: only its own', async () => {
    for (const [list, key] of [['inspections', 'inspection'], ['actions', 'action']] as const) {
      const north = await ids(world.viewer.client, `orgs/${org()}/${list}?site_group_id=${world.groups.north.id}`);
      expect(north).toEqual([made.harbor[key]]);
      expect(await ids(world.viewer.client, `orgs/${org()}/${list}?site_group_id=${world.groups.harbor.id}`)).toEqual([made.harbor[key]]);
      expect(await ids(world.viewer.client, `orgs/${org()}/${list}?site_group_id=${world.groups.south.id}`)).toEqual([made.south[key]]);
      // Without the filter, everything; with another organization's group, nothing.
      expect(await ids(world.viewer.client, `orgs/${org()}/${list}`)).toEqual(expect.arrayContaining([made.harbor[key], made.south[key], made.loose[key]]));
      expect(await ids(world.viewer.client, `orgs/${org()}/${list}?site_group_id=${other.group.id}`)).toEqual([]);
      expectProblem(await call(world.viewer.client, `orgs/${org()}/${list}?site_group_id=north`), 422, 'validation_failed', ['query.site_group_id']);
    }
  });

  it('combines with the other filters', async () => {
    const both = await ids(world.viewer.client, `orgs/${org()}/inspections?site_group_id=${world.groups.north.id}&site_id=${world.sites.south.id}`);
    expect(both).toEqual([]);
    const scheduled = await ids(world.viewer.client, `orgs/${org()}/inspections?site_group_id=${world.groups.north.id}&status=scheduled`);
    expect(scheduled).toEqual([made.harbor.inspection]);
  });
});

describe('the dashboard and compliance', () => {
  it("the dashboard's counts narrow to the group's sites", async () => {
    const total = (d: any) => Object.values<number>(d.inspections_by_status).reduce((a, b) => a + b, 0);
    const actions = (d: any) => Object.values<number>(d.actions_by_status).reduce((a, b) => a + b, 0);
    const north = expectStatus(await call(world.owner.client, `orgs/${org()}/dashboard?site_group_id=${world.groups.north.id}`), 200);
    expect(total(north)).toBe(1);
    expect(actions(north)).toBe(1);
    const all = expectStatus(await call(world.owner.client, `orgs/${org()}/dashboard`), 200);
    expect(total(all)).toBe(3);
    const elsewhere = expectStatus(await call(world.owner.client, `orgs/${org()}/dashboard?site_group_id=${other.group.id}`), 200);
    expect(total(elsewhere)).toBe(0);
    expectProblem(await call(world.owner.client, `orgs/${org()}/dashboard?site_group_id=north`), 422, 'validation_failed', ['query.site_group_id']);
    expectProblem(await call(world.owner.client, `orgs/${org()}/dashboard?site_id=${world.sites.south.id}`), 422, 'validation_failed', ['query.site_id']);
  });

  it("compliance counts only the group's sites' occurrences", async () => {
    const schedule = await createSchedule(world, [world.sites.harbor.id, world.sites.south.id], { rrule: 'FREQ=DAILY', start_date: today(-5), due_after: 'PT1H' });
    await materialiseAt(schedule.id, new Date(Date.now() - 3 * 86_400_000));
    const range = `from=${today(-6)}T00:00:00Z&to=${today(1)}T00:00:00Z&group_by=site`;
    const all = expectStatus(await call(world.viewer.client, `orgs/${org()}/compliance?${range}`), 200);
    expect(all.groups.map((g: any) => g.id).sort()).toEqual([world.sites.harbor.id, world.sites.south.id].sort());
    const north = expectStatus(await call(world.viewer.client, `orgs/${org()}/compliance?${range}&site_group_id=${world.groups.north.id}`), 200);
    expect(north.groups.map((g: any) => g.id)).toEqual([world.sites.harbor.id]);
    const [{ n }] = await db()`select count(*)::int as n from public.inspections where schedule_id = ${schedule.id} and site_id = ${world.sites.harbor.id}
      and due_at >= ${`${today(-6)}T00:00:00Z`} and due_at < now()`;
    expect(north.total.due).toBe(n);
    expectProblem(await call(world.viewer.client, `orgs/${org()}/compliance?${range}&site_group_id=north`), 422, 'validation_failed', ['query.site_group_id']);
  });
});
