// The demo organization's schedules (issue 26 part 11; supabase/seed.sql): a fresh stack's seed
// gives the calendar and compliance a history — two schedules, sites in Seattle and Auckland each
// at its own local time, and past occurrences done on time, done late and missed — as the demo
// manager reads them through the api. (The test stack is seeded like `npm start`'s.)
import { beforeAll, expect, it } from 'vitest';
import { createTestClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';
import { call, expectStatus } from '../../support/api.ts';
import { localTime, today } from './support.ts';

const DEMO_ORG = '0d000000-0000-4000-8000-000000000001';
const client = createTestClient({ key: stack.PUBLISHABLE_KEY });

beforeAll(async () => {
  const { error } = await client.auth.signInWithPassword({ email: 'manager@demo.fieldcheck.test', password: 'fieldcheck-demo-1' });
  if (error) throw new Error(`the demo manager cannot sign in: ${error.message}`);
});

it('the demo organization has two schedules, at sites in two time zones', async () => {
  const list = expectStatus(await call(client, `orgs/${DEMO_ORG}/schedules`), 200);
  expect(list.data.map((s: any) => s.name).sort()).toEqual(['Fire-safety walk', 'Weekly food-safety audit']);
  const zones = new Set<string>();
  for (const summary of list.data) {
    const schedule = expectStatus(await call(client, `orgs/${DEMO_ORG}/schedules/${summary.id}`), 200);
    for (const site of schedule.sites) zones.add(site.timezone);
  }
  expect([...zones].sort()).toEqual(['America/Los_Angeles', 'Pacific/Auckland']);
});

it('compliance over the last five weeks counts occurrences done on time, done late and missed, for each schedule', async () => {
  const compliance = expectStatus(
    await call(client, `orgs/${DEMO_ORG}/compliance?from=${today(-35)}T00:00:00Z&to=${today(1)}T00:00:00Z&group_by=schedule`),
    200,
  );
  expect(compliance.groups).toHaveLength(2);
  for (const group of compliance.groups) expect(group.due, group.name).toBeGreaterThan(4);
  expect(compliance.total.on_time).toBeGreaterThan(0);
  expect(compliance.total.late).toBeGreaterThan(0);
  expect(compliance.total.missed).toBeGreaterThan(0);
  expect(compliance.total.due).toBe(compliance.total.on_time + compliance.total.late + compliance.total.missed);
});

it('the calendar\'s occurrences are at each site\'s own local time, past ones in every state, and the next ones already made', async () => {
  const list = expectStatus(await call(client, `orgs/${DEMO_ORG}/schedules`), 200);
  const audit = list.data.find((s: any) => s.name === 'Weekly food-safety audit');
  const page = expectStatus(
    await call(client, `orgs/${DEMO_ORG}/schedules/${audit.id}/occurrences?from=${today(-35)}T00:00:00Z&to=${today(14)}T00:00:00Z&limit=200`),
    200,
  );
  const states = new Set(page.data.map((o: any) => o.state));
  for (const state of ['done_on_time', 'done_late', 'missed', 'scheduled']) expect(states, state).toContain(state);
  const sites = expectStatus(await call(client, `orgs/${DEMO_ORG}/sites?limit=100`), 200).data;
  for (const occurrence of page.data) {
    const zone = sites.find((s: any) => s.id === occurrence.site_id).timezone;
    expect(localTime(occurrence.occurrence_at, zone), `${occurrence.site_id} ${occurrence.occurrence_at}`).toMatchObject({ weekday: 'Mon' });
    expect(localTime(occurrence.occurrence_at, zone).local.slice(11)).toBe('08:00');
  }
});
