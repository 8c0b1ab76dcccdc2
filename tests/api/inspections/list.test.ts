// The inspections list: newest first, keyset pages that neither repeat nor skip when inspections
// are added between pages, every filter (status, site_id, assignee_id, overdue, updated_since, due_before)
// alone and combined, bad queries refused; and the dashboard counts.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addConfirmedPhoto, answerItems, createGeofencedSite, inspectionsPath, inspectionWorldAndStranger, scheduleInspection,
  inProgressInspection, startInspection,
} from '../../support/fixtures.ts';
import { allPages, cursorOutcomes, forgedCursors, refusedCursors } from '../../support/paging.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';

const { world, stranger } = inspectionWorldAndStranger();

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const list = async (query: string) => expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?${query}`), 200);

let otherSite: any;
const made: Record<string, any> = {};

beforeAll(async () => {
  otherSite = await createGeofencedSite(world.manager, world.org.id, { name: 'Second site' });
  made.assigned = await scheduleInspection(world, { assignee_id: world.inspector.userId, due_at: '2099-01-01T00:00:00Z' });
  made.overdue = await scheduleInspection(world, { due_at: '2020-01-01T00:00:00Z' });
  made.otherSite = await scheduleInspection(world, { site_id: otherSite.id });
  made.running = await scheduleInspection(world, { due_at: '2020-01-01T00:00:00Z' });
  await startInspection(world, made.running.id, world.inspector);
  await answerItems(world, made.running.id, world.inspector, { floor_clean: 'fail', fridge_temp: 9, remarks: 'Warm fridge.' });
  made.canceled = await scheduleInspection(world, { due_at: '2020-01-01T00:00:00Z' });
  expectStatus(await post(world.manager.client, `${inspectionsPath(world.org.id)}/${made.canceled.id}/cancel`, undefined), 200);
});

describe('GET /orgs/{org}/inspections', () => {
  it('lists every inspection of the organization newest first, with names beside the ids', async () => {
    const page = await list('');
    expect(ids(page.data)).toEqual([made.canceled.id, made.running.id, made.otherSite.id, made.overdue.id, made.assigned.id]);
    expect(page.next_cursor).toBeNull();
    expect(page.data[4]).toMatchObject({ assignee_name: world.inspector.displayName, site_name: world.site.name, template_name: world.template.name });
  });

  it('pages by cursor without repeating or skipping, even when inspections are added between pages', async () => {
    const added: string[] = [];
    const pages = await allPages(world.viewer.client, inspectionsPath(world.org.id), 2, async () => {
      added.push((await scheduleInspection(world)).id);
    });
    const seen = pages.flat().map((r) => r.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([made.canceled.id, made.running.id, made.otherSite.id, made.overdue.id, made.assigned.id]);
    // Newer inspections come first on a fresh first page.
    expect(ids((await list('limit=2')).data)).toEqual(added.slice(-2).reverse());
    await db()`delete from public.inspections where id = any(${added})`;
  });

  it('filters by one status or a comma list', async () => {
    expect(ids((await list('status=scheduled')).data)).toEqual([made.otherSite.id, made.overdue.id, made.assigned.id]);
    expect(ids((await list('status=in_progress,canceled')).data)).toEqual([made.canceled.id, made.running.id]);
    expect((await list('status=approved')).data).toEqual([]);
  });

  it('filters by site and by assignee', async () => {
    expect(ids((await list(`site_id=${otherSite.id}`)).data)).toEqual([made.otherSite.id]);
    expect(ids((await list(`assignee_id=${world.inspector.userId}`)).data)).toEqual([made.assigned.id]);
    expect((await list(`assignee_id=${world.viewer.userId}`)).data).toEqual([]);
  });

  it('assignee_id=none lists the unassigned ones, which anyone who may answer can claim', async () => {
    expect(ids((await list('assignee_id=none')).data)).toEqual([made.canceled.id, made.running.id, made.otherSite.id, made.overdue.id]);
    expect(ids((await list('assignee_id=none&status=scheduled')).data)).toEqual([made.otherSite.id, made.overdue.id]);
  });

  it('due_before lists those due before an instant; one without a due date never is', async () => {
    expect(ids((await list('due_before=2021-01-01T00:00:00Z')).data)).toEqual([made.canceled.id, made.running.id, made.overdue.id]);
    expect(ids((await list('due_before=2020-01-01T00:00:00Z')).data)).toEqual([]);
    expect(ids((await list(`due_before=2099-01-01T00:00:01Z&assignee_id=${world.inspector.userId}`)).data)).toEqual([made.assigned.id]);
    expect(ids((await list('due_before=2099-01-01T00:00:00Z&status=scheduled')).data)).toEqual([made.overdue.id]);
  });

  it('filters overdue: due date passed while scheduled or in progress (a canceled one is not overdue)', async () => {
    const overdue = await list('overdue=true');
    expect(ids(overdue.data)).toEqual([made.running.id, made.overdue.id]);
    expect(overdue.data.every((i: { overdue: boolean }) => i.overdue)).toBe(true);
    expect(ids((await list('overdue=false')).data)).toEqual([made.canceled.id, made.otherSite.id, made.assigned.id]);
    expect(ids((await list('overdue=true&status=scheduled')).data)).toEqual([made.overdue.id]);
  });

  it('filters by updated_since, inclusive, for incremental sync', async () => {
    const [row] = await db()`select updated_at from public.inspections where id = ${made.canceled.id}`;
    const since = new Date(row.updated_at.getTime()).toISOString();
    expect(ids((await list(`updated_since=${encodeURIComponent(since)}`)).data)).toEqual([made.canceled.id]);
    expect((await list('updated_since=2099-01-01T00:00:00Z')).data).toEqual([]);
    expect((await list('updated_since=2000-01-01T00:00:00%2B02:00')).data).toHaveLength(5);
  });

  const badQueries: Array<[string, string]> = [
    ['status=bogus', 'query.status'],
    ['status=scheduled,', 'query.status'],
    ['site_id=not-a-uuid', 'query.site_id'],
    ['assignee_id=42', 'query.assignee_id'],
    ['assignee_id=nobody', 'query.assignee_id'],
    ['due_before=tomorrow', 'query.due_before'],
    ['overdue=yes', 'query.overdue'],
    ['updated_since=yesterday', 'query.updated_since'],
    ['updated_since=2026-13-01T00:00:00Z', 'query.updated_since'],
    ['limit=0', 'query.limit'],
    ['limit=201', 'query.limit'],
    ['sort=title', 'query.sort'],
  ];
  for (const [query, field] of badQueries) {
    it(`refuses ?${query} with 422 on ${field}`, async () => {
      expectProblem(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?${query}`), 422, 'validation_failed', [field]);
    });
  }

  it('refuses forged cursors with 422', async () => {
    const cursors = forgedCursors();
    expect(await cursorOutcomes(world.viewer.client, inspectionsPath(world.org.id), cursors)).toEqual(refusedCursors(cursors));
  });
});

describe('GET /orgs/{org}/dashboard', () => {
  it('counts inspections by status, overdue ones and failed items of the last seven days', async () => {
    const dashboard = expectStatus(await call(world.viewer.client, `orgs/${world.org.id}/dashboard`), 200);
    expect(dashboard).toEqual({
      inspections_by_status: { scheduled: 3, in_progress: 1, submitted: 0, changes_requested: 0, approved: 0, canceled: 1 },
      overdue: 2,
      failed_items_this_week: 2,
      // No inspection was submitted, so no action opened (tests/api/actions/dashboard.test.ts counts them).
      actions_by_status: { open: 0, in_progress: 0, resolved: 0, verified: 0, canceled: 0 },
      open_actions: 0,
      overdue_actions: 0,
      // No schedule: nothing due this week (tests/api/schedules/compliance.test.ts counts them).
      occurrences_this_week: { due: 0, on_time: 0, late: 0, missed: 0, on_time_rate: null },
      my_work: { inspections_due: 0, inspections_overdue: 0, open_actions: 0, overdue_actions: 0 },
    });
  });

  it('is for members only: 404 for a stranger', async () => {
    expectProblem(await call(stranger.client, `orgs/${world.org.id}/dashboard`), 404, 'not_found');
  });
});

describe('progress and search in the list', () => {
  it('counts answered items apart from the score: values, and photo items with a confirmed photo', async () => {
    const id = await inProgressInspection(world, world.inspector);
    await answerItems(world, id, world.inspector, { floor_clean: 'pass', remarks: 'Fine.' });
    await addConfirmedPhoto(world, id, 'photo', world.inspector);
    const list = expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?limit=200`), 200).data;
    const row = list.find((i: any) => i.id === id);
    expect([row.answered_count, row.item_count]).toEqual([3, 9]);
    // Clearing an answer takes it off the count.
    await answerItems(world, id, world.inspector, { remarks: null });
    const again = expectStatus(await call(world.viewer.client, `${inspectionsPath(world.org.id)}?limit=200`), 200).data;
    expect(again.find((i: any) => i.id === id).answered_count).toBe(2);
  });

  it('q finds inspections by title or site name, case-insensitively, literally', async () => {
    const marker = `Zebra${Date.now()}`;
    const titled = await scheduleInspection(world, { title: `Walk-in ${marker} check` });
    const list = (q: string) => call(world.viewer.client, `${inspectionsPath(world.org.id)}?q=${encodeURIComponent(q)}`);
    expect(expectStatus(await list(marker.toLowerCase()), 200).data.map((i: any) => i.id)).toEqual([titled.id]);
    const bySite = expectStatus(await list(world.site.name.toUpperCase()), 200).data;
    expect(bySite.length).toBeGreaterThan(0);
    expect(bySite.every((i: any) => i.site_id === world.site.id)).toBe(true);
    expect(expectStatus(await list('%'), 200).data.every((i: any) => i.title.includes('%') || i.site_name.includes('%'))).toBe(true);
    expectProblem(await list('x'.repeat(201)), 422, 'validation_failed', ['query.q']);
  });
});
