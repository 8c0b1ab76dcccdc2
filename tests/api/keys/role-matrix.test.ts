// Each key role against each route a key may call (issue 13 part 6): allowed → 2xx exactly when
// a member of that role would be allowed, refused → 403. Every case makes what it needs first, as
// the organization's manager, so the cases do not depend on one another. The routes a key never
// calls (people, members, invitations, keys, settings) are in api-keys.test.ts; a last test holds
// this table to the routes openapi.json lists, so a new route has to say what keys may do.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiOutcome, call, del, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { stack } from '../../support/stack.ts';
import {
  answerEverythingRequired, createPublishedTemplate, createGeofencedSite, EVERY_KIND_DEFINITION, INSIDE_GEOFENCE, inProgressInspection,
  inspectionPath, inspectionsPath, inspectionWorldAndStranger, scheduleInspection,
} from '../../support/fixtures.ts';
import { openAction } from '../actions/support.ts';
import { askWhileExportsBusy } from '../reports/support.ts';
import { createSchedule, scheduleBody, schedulePath, schedulesPath } from '../schedules/support.ts';
import { createKey, type Key, type KeyRole } from './support.ts';

const { world } = inspectionWorldAndStranger();
const RANK: Record<KeyRole, number> = { viewer: 0, inspector: 1, manager: 2 };

interface Case {
  /** The route's operationId in openapi.json. */
  operation: string;
  /** The least key role allowed (as for members: docs/product.md §6). */
  least: KeyRole;
  run: (key: Key) => Promise<ApiOutcome>;
}

const org = () => world.org.id;
const sitePath = (id: string) => `orgs/${org()}/sites/${id}`;
const templatePath = (id: string) => `orgs/${org()}/templates/${id}`;
const actionPath = (id: string) => `orgs/${org()}/actions/${id}`;
const siteGroup = async () =>
  expectStatus(await post(world.manager.client, `orgs/${org()}/site-groups`, { name: `Group ${Math.random()}` }), 201);
const draftTemplate = async () =>
  expectStatus(await post(world.manager.client, `orgs/${org()}/templates`, { name: `Draft ${Math.random()}`, definition: EVERY_KIND_DEFINITION }), 201);
/** An unassigned inspection in progress with every required item answered, ready to submit. */
async function readyToSubmit(): Promise<string> {
  const id = await inProgressInspection(world, world.manager);
  await answerEverythingRequired(world, id, world.manager);
  return id;
}

const CASES: Case[] = [
  { operation: 'getOrganization', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}`) },
  { operation: 'listMembers', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/members`) },
  { operation: 'getMember', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/members/${world.inspector.userId}`) },
  { operation: 'listSites', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/sites`) },
  { operation: 'getSite', least: 'viewer', run: (key) => call(key.client, sitePath(world.site.id)) },
  { operation: 'createSite', least: 'manager', run: (key) => post(key.client, `orgs/${org()}/sites`, { name: `Key site ${key.role}` }) },
  { operation: 'updateSite', least: 'manager', run: async (key) => patch(key.client, sitePath((await createGeofencedSite(world.manager, org())).id), { name: 'Renamed' }) },
  { operation: 'archiveSite', least: 'manager', run: async (key) => del(key.client, sitePath((await createGeofencedSite(world.manager, org())).id)) },
  { operation: 'moveSites', least: 'manager',
    run: async (key) => post(key.client, `orgs/${org()}/sites/move`, { site_ids: [(await createGeofencedSite(world.manager, org())).id], group_id: null }) },
  // Site groups (issue 27): read by every role, managed by managers (docs/product.md §6).
  { operation: 'listSiteGroups', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/site-groups`) },
  { operation: 'createSiteGroup', least: 'manager', run: (key) => post(key.client, `orgs/${org()}/site-groups`, { name: `Key group ${Math.random()}` }) },
  { operation: 'updateSiteGroup', least: 'manager', run: async (key) => patch(key.client, `orgs/${org()}/site-groups/${(await siteGroup()).id}`, { name: `Renamed ${Math.random()}` }) },
  { operation: 'deleteSiteGroup', least: 'manager', run: async (key) => del(key.client, `orgs/${org()}/site-groups/${(await siteGroup()).id}`) },
  { operation: 'listTemplates', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/templates`) },
  { operation: 'getTemplate', least: 'viewer', run: (key) => call(key.client, templatePath(world.template.id)) },
  { operation: 'getTemplateVersion', least: 'viewer', run: (key) => call(key.client, `${templatePath(world.template.id)}/versions/1`) },
  { operation: 'createTemplate', least: 'manager', run: (key) => post(key.client, `orgs/${org()}/templates`, { name: `Key template ${key.role}` }) },
  { operation: 'updateTemplate', least: 'manager', run: async (key) => patch(key.client, templatePath((await draftTemplate()).id), { name: 'Renamed draft' }) },
  { operation: 'publishTemplate', least: 'manager', run: async (key) => post(key.client, `${templatePath((await draftTemplate()).id)}/publish`, undefined) },
  { operation: 'archiveTemplate', least: 'manager',
    run: async (key) => post(key.client, `${templatePath((await createPublishedTemplate(world.manager, org())).id)}/archive`, undefined) },
  { operation: 'listInspections', least: 'viewer', run: (key) => call(key.client, inspectionsPath(org())) },
  { operation: 'getInspection', least: 'viewer', run: async (key) => call(key.client, inspectionPath(org(), (await scheduleInspection(world)).id)) },
  { operation: 'createInspection', least: 'manager',
    run: (key) => post(key.client, inspectionsPath(org()), { site_id: world.site.id, template_id: world.template.id }) },
  { operation: 'patchInspection', least: 'manager',
    run: async (key) => patch(key.client, inspectionPath(org(), (await scheduleInspection(world)).id), { title: 'Retitled by a key' }) },
  { operation: 'startInspection', least: 'inspector',
    run: async (key) => post(key.client, `${inspectionPath(org(), (await scheduleInspection(world)).id)}/start`, INSIDE_GEOFENCE) },
  { operation: 'saveAnswers', least: 'inspector',
    run: async (key) => call(key.client, `${inspectionPath(org(), await inProgressInspection(world, world.manager))}/answers`,
      { method: 'PUT', body: { answers: [{ item_key: 'fridge_temp', value: 4, note: null, base_version: null }] } }) },
  { operation: 'submitInspection', least: 'inspector', run: async (key) => post(key.client, `${inspectionPath(org(), await readyToSubmit())}/submit`, undefined) },
  { operation: 'reviewInspection', least: 'manager',
    run: async (key) => {
      const id = await readyToSubmit();
      expectStatus(await post(world.manager.client, `${inspectionPath(org(), id)}/submit`, undefined), 200);
      return await post(key.client, `${inspectionPath(org(), id)}/review`, { decision: 'approve' });
    } },
  { operation: 'cancelInspection', least: 'manager', run: async (key) => post(key.client, `${inspectionPath(org(), (await scheduleInspection(world)).id)}/cancel`, undefined) },
  { operation: 'listActions', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/actions`) },
  { operation: 'getAction', least: 'viewer', run: async (key) => call(key.client, actionPath((await openAction(world)).id)) },
  { operation: 'createAction', least: 'manager', run: (key) => post(key.client, `orgs/${org()}/actions`, { title: 'Opened by a key', site_id: world.site.id }) },
  { operation: 'patchAction', least: 'manager', run: async (key) => patch(key.client, actionPath((await openAction(world)).id), { title: 'Retitled by a key' }) },
  // An inspector works only actions assigned to them; a key is nobody's assignee (docs/api-keys.md).
  { operation: 'transitionAction', least: 'manager',
    run: async (key) => post(key.client, `${actionPath((await openAction(world, { assignee_id: world.inspector.userId })).id)}/transition`, { to: 'in_progress' }) },
  { operation: 'listActivity', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/activity`) },
  // The full audit log is for managers and above (docs/actions.md), keys alike.
  { operation: 'listAuditLog', least: 'manager', run: (key) => call(key.client, `orgs/${org()}/audit-log`) },
  // Reports (issue 16): what every member may read, as files.
  // An export may be told to come back while other test files' exports hold the api's slots.
  { operation: 'exportInspectionsCsv', least: 'viewer', run: (key) => askWhileExportsBusy(() => call(key.client, `orgs/${org()}/reports/inspections.csv`)) },
  { operation: 'exportAnswersCsv', least: 'viewer', run: (key) => askWhileExportsBusy(() => call(key.client, `orgs/${org()}/reports/answers.csv`)) },
  { operation: 'inspectionReportPdf', least: 'viewer', run: async (key) => call(key.client, `${inspectionPath(org(), (await scheduleInspection(world)).id)}/report.pdf`) },
  // Schedules (issue 26): read by every role, managed by managers (docs/product.md §6).
  { operation: 'listSchedules', least: 'viewer', run: (key) => call(key.client, schedulesPath(org())) },
  { operation: 'getSchedule', least: 'viewer', run: async (key) => call(key.client, schedulePath(org(), (await createSchedule(world, [world.site.id])).id)) },
  { operation: 'createSchedule', least: 'manager', run: (key) => post(key.client, schedulesPath(org()), scheduleBody(world, [world.site.id])) },
  { operation: 'updateSchedule', least: 'manager',
    run: async (key) => patch(key.client, schedulePath(org(), (await createSchedule(world, [world.site.id])).id), { name: 'Renamed by a key' }) },
  { operation: 'deleteSchedule', least: 'manager', run: async (key) => del(key.client, schedulePath(org(), (await createSchedule(world, [world.site.id])).id)) },
  { operation: 'pauseSchedule', least: 'manager',
    run: async (key) => post(key.client, `${schedulePath(org(), (await createSchedule(world, [world.site.id])).id)}/pause`, undefined) },
  { operation: 'resumeSchedule', least: 'manager',
    run: async (key) => post(key.client, `${schedulePath(org(), (await createSchedule(world, [world.site.id])).id)}/resume`, undefined) },
  { operation: 'listScheduleOccurrences', least: 'viewer',
    run: async (key) => call(key.client, `${schedulePath(org(), (await createSchedule(world, [world.site.id])).id)}/occurrences?from=2026-12-01T00:00:00Z&to=2026-12-31T00:00:00Z`) },
  { operation: 'getCompliance', least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/compliance?from=2026-11-01T00:00:00Z&to=2026-12-01T00:00:00Z&group_by=site`) },
  // Analytics (issue 28): every key role reads every measure, as JSON and as CSV.
  ...(['Scores:scores', 'OnTime:on-time', 'FailedItems:failed-items', 'Actions:actions', 'Sites:sites'].flatMap((entry): Case[] => {
    const [name, measure] = entry.split(':');
    return [
      { operation: `getAnalytics${name}`, least: 'viewer', run: (key) => call(key.client, `orgs/${org()}/analytics/${measure}`) },
      { operation: `exportAnalytics${name}Csv`, least: 'viewer', run: (key) => askWhileExportsBusy(() => call(key.client, `orgs/${org()}/analytics/${measure}.csv`)) },
    ];
  })),
];

const keys = {} as Record<KeyRole, Key>;
beforeAll(async () => {
  for (const role of ['manager', 'inspector', 'viewer'] as const) keys[role] = await createKey(world.owner, world.org.id, role);
});

for (const role of ['manager', 'inspector', 'viewer'] as const) {
  describe(`a ${role} key`, () => {
    for (const { operation, least, run } of CASES) {
      const allowed = RANK[role] >= RANK[least];
      it(`${allowed ? 'may' : 'may not'} ${operation}`, async () => {
        const outcome = await run(keys[role]);
        if (allowed) expect(outcome.status, `${operation}: ${JSON.stringify(outcome.body)}`).toBeLessThan(300);
        else expectProblem(outcome, 403, 'forbidden');
      });
    }
  });
}

it('every route in openapi.json that a key may call is in this table, and the rest are for users only', async () => {
  const document = await (await fetch(`${stack.FUNCTIONS_URL}/api/openapi.json`)).json();
  const keyRoutes: string[] = [];
  const userRoutes: string[] = [];
  for (const operations of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(operations)) {
      const usersOnly = JSON.stringify(operation.security ?? document.security) === JSON.stringify([{ userToken: [] }]);
      (usersOnly ? userRoutes : keyRoutes).push(operation.operationId);
    }
  }
  // Photos need an upload between their steps: keys/photos.test.ts takes them with each role.
  const photoRoutes = ['createAttachment', 'confirmAttachment', 'getAttachmentUrl', 'deleteAttachment', 'createActionAttachment',
    'confirmActionAttachment', 'getActionAttachmentUrl', 'deleteActionAttachment'];
  expect(keyRoutes.sort()).toEqual([...CASES.map((c) => c.operation), ...photoRoutes].sort());
  expect(userRoutes.sort()).toEqual(['acceptInvitation', 'createApiKey', 'createInvitation', 'createOrganization', 'deleteOrganization', 'getDashboard',
    'getMe', 'getNotificationPreferences', 'patchNotificationPreferences', 'listApiKeys', 'listInvitations', 'listOrganizations', 'patchMe', 'previewInvitation', 'removeMember', 'revokeApiKey',
    'revokeInvitation', 'resendInvitation', 'updateMember', 'setMemberAccess', 'updateOrganization', 'listWebhooks', 'createWebhook', 'updateWebhook', 'deleteWebhook',
    'rotateWebhookSecret', 'sendTestWebhook', 'listWebhookDeliveries', 'redeliverWebhook'].sort());
  expect(keyRoutes.length + userRoutes.length).toBe(Object.values<any>(document.paths).reduce((n, ops) => n + Object.keys(ops).length, 0));
});
