// Fixtures for the corrective-action API tests, on top of the inspection world of
// tests/support/fixtures.ts (an organization with every role, a site, a template with one item of
// every kind): helpers that reach actions the way users do — an inspection submitted with failed
// items, an action opened by hand — and move them through the real routes.
import { expect } from 'vitest';
import {
  answerEverythingRequired, answerItems, inProgressInspection, inspectionPath, type InspectionWorld, type User,
} from '../../support/fixtures.ts';
import { expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';

/** Failing answers for three items of EVERY_KIND_DEFINITION, with the titles their actions get. */
export const FAILING_VALUES: Record<string, unknown> = { floor_clean: 'fail', fridge_temp: 9, cleanliness: 'Poor' };
export const FAILED_TITLES: Record<string, string> = {
  floor_clean: 'Floor is clean — Fail',
  fridge_temp: 'Fridge temperature — 9 °C',
  cleanliness: 'Overall cleanliness — Poor',
};

export const actionsPath = (orgId: string) => `orgs/${orgId}/actions`;
export const actionPath = (orgId: string, id: string) => `orgs/${orgId}/actions/${id}`;

/** An inspection started and answered by `by` with everything required, the items in `failing` failed; not yet submitted. */
export async function answeredWithFailures(world: InspectionWorld, by: User, failing: Record<string, unknown> = FAILING_VALUES, body: Record<string, unknown> = {}) {
  const id = await inProgressInspection(world, by, body);
  await answerEverythingRequired(world, id, by);
  if (Object.keys(failing).length > 0) await answerItems(world, id, by, failing);
  return id;
}

/** An inspection submitted by `by` (assigned to them) with the items in `failing` failed; returns its id. */
export async function submittedWithFailures(world: InspectionWorld, by: User = world.inspector, failing: Record<string, unknown> = FAILING_VALUES) {
  const id = await answeredWithFailures(world, by, failing, { assignee_id: by.userId });
  expectStatus(await post(by.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
  return id;
}

/** The actions of an inspection, straight from the database, in item order of the template. */
export async function actionsOfInspection(inspectionId: string) {
  return await db()`select * from public.actions where inspection_id = ${inspectionId} order by item_key`;
}

/** Opens an action by hand through the API (as the manager, at the world's site, by default). */
export async function openAction(world: InspectionWorld, body: Record<string, unknown> = {}, by: User = world.manager): Promise<any> {
  return expectStatus(await post(by.client, actionsPath(world.org.id), { title: 'Replace the cracked tile', site_id: world.site.id, ...body }), 201);
}

/** Moves an action through `POST …/transition` and expects it to succeed. */
export async function move(world: InspectionWorld, id: string, by: User, to: string, note?: string): Promise<any> {
  return expectStatus(await post(by.client, `${actionPath(world.org.id, id)}/transition`, note === undefined ? { to } : { to, note }), 200);
}

/** An action opened by the manager for `assignee` and moved to `status` by the people who may. */
export async function actionIn(world: InspectionWorld, status: string, assignee: User = world.inspector): Promise<any> {
  const action = await openAction(world, { assignee_id: assignee.userId });
  const path = ['open', 'in_progress', 'resolved', 'verified'];
  if (status === 'canceled') return await move(world, action.id, world.manager, 'canceled', 'False alarm.');
  let current = action;
  for (const next of path.slice(1, path.indexOf(status) + 1)) {
    const by = next === 'verified' ? world.manager : assignee;
    current = await move(world, action.id, by, next, next === 'resolved' ? 'Fixed it.' : undefined);
  }
  expect(current.status).toBe(status);
  return current;
}

/** Everything an organization has of actions, to compare before and after a refused request. */
export async function actionSnapshot(orgId: string) {
  const sql = db();
  const [actions, events, photos, audit] = await Promise.all([
    sql`select * from public.actions where org_id = ${orgId} order by id`,
    sql`select * from public.action_events where org_id = ${orgId} order by id`,
    sql`select * from public.action_attachments where org_id = ${orgId} order by id`,
    sql`select count(*)::int as n from public.audit_log where org_id = ${orgId}`,
  ]);
  return { actions: [...actions], events: [...events], photos: [...photos], auditEntries: audit[0].n };
}
