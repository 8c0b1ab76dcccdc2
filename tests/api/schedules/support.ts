// Fixtures for the schedules API tests: the inspections world (an organization with every role, a
// site in UTC and a published template) plus a site in Seattle and one in Auckland, a body in the
// create contract's exact shape, and the database's own functions called with a chosen "now"
// (the materialiser and the missed run take it as a parameter, so no test sleeps).
import { db } from '../../support/database.ts';
import { expectStatus, post } from '../../support/api.ts';
import { tag, type User, createGeofencedSite, type InspectionWorld } from '../../support/fixtures.ts';

export const schedulesPath = (orgId: string) => `orgs/${orgId}/schedules`;
export const schedulePath = (orgId: string, id: string) => `orgs/${orgId}/schedules/${id}`;

export interface ScheduleSites {
  seattle: any;
  auckland: any;
}

export async function zonedSites(world: InspectionWorld): Promise<ScheduleSites> {
  const [seattle, auckland] = await Promise.all([
    createGeofencedSite(world.manager, world.org.id, { name: `Capitol Hill ${tag()}`, timezone: 'America/Los_Angeles' }),
    createGeofencedSite(world.manager, world.org.id, { name: `Ponsonby ${tag()}`, timezone: 'Pacific/Auckland' }),
  ]);
  return { seattle, auckland };
}

/** The create body exactly as the contract writes it (docs/product.md §7), with these changes. */
export function scheduleBody(world: InspectionWorld, siteIds: string[], changes: Record<string, unknown> = {}) {
  return {
    template_id: world.template.id,
    site_ids: siteIds,
    rrule: 'FREQ=WEEKLY;BYDAY=MO',
    start_date: today(),
    end_date: null,
    time_of_day: '08:00',
    due_after: 'P4DT9H',
    assignee_id: null,
    rotation_user_ids: [],
    title_pattern: 'Weekly food-safety audit — {site} — {date}',
    ...changes,
  };
}

export async function createSchedule(world: InspectionWorld, siteIds: string[], changes: Record<string, unknown> = {}, by: User = world.manager) {
  return expectStatus(await post(by.client, schedulesPath(world.org.id), scheduleBody(world, siteIds, changes)), 201);
}

/** Today's date in UTC, `YYYY-MM-DD` (the database's clock is the same machine's). */
export function today(offsetDays = 0): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A schedule's inspections, as the database holds them. */
export async function occurrenceRows(scheduleId: string) {
  return await db()`
    select id, site_id, status, title, assignee_id, occurrence_at, due_at, canceled_reason, first_submitted_at, missed_noted_at, template_id
    from public.inspections where schedule_id = ${scheduleId} order by occurrence_at, site_id, created_at
  `;
}

/** private.materialise_schedule as the background run calls it, with "now" chosen by the test. */
export async function materialiseAt(scheduleId: string, at: Date, since: Date | null = null, stillOpen = true): Promise<number> {
  const [row] = await db()`select made from private.materialise_schedule(${scheduleId}, ${at}, ${since}, ${stillOpen})`;
  return row.made;
}

/** The wall-clock time of an instant in a time zone, `YYYY-MM-DDTHH:MM` and the weekday. */
export function localTime(instant: string | Date, timeZone: string): { local: string; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short',
    }).formatToParts(new Date(instant)).map((p) => [p.type, p.value]),
  );
  return { local: `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`, weekday: parts.weekday };
}
