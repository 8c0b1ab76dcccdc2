// What openapi.json says the api answers holds (issue 13 part 4): real answers of the running api,
// made by walking an organization through sites, templates, inspections, actions, keys and
// webhooks, validate against the schemas the document gives their routes (Ajv, JSON Schema
// 2020-12; the schemas forbid properties they do not name, so an answer that grew a field fails
// too). The schemas are zod's JSON Schema of the routes' response schemas, made by the function
// itself (docs/openapi.md), so there is no generated file to keep current.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiOutcome, call, expectStatus, post } from '../../support/api.ts';
import { stack } from '../../support/stack.ts';
import { actionIn, openAction } from '../actions/support.ts';
import { createKey } from '../keys/support.ts';
import { createSchedule, materialiseAt, schedulePath, schedulesPath, today } from '../schedules/support.ts';
import {
  answerEverythingRequired, inProgressInspection, inspectionPath, inspectionsPath, inspectionWorldAndStranger, scheduleInspection,
} from '../../support/fixtures.ts';

const DOCUMENT_ID = 'https://fieldcheck.test/openapi.json';
const { world } = inspectionWorldAndStranger();
let document: any;
const ajv = new Ajv2020({ strict: false, allErrors: true });

beforeAll(async () => {
  document = await (await fetch(`${stack.API_URL}/functions/v1/api/openapi.json`)).json();
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
});

/** Checks an answer against the schema the document gives `method path` for its status. */
function expectDocumented(method: string, path: string, outcome: ApiOutcome): void {
  const operation = document.paths[path]?.[method];
  expect(operation, `${method} ${path} is not in openapi.json`).toBeDefined();
  const schema = operation.responses[String(outcome.status)]?.content?.['application/json']?.schema;
  expect(schema, `${method} ${path} documents no ${outcome.status} body: ${JSON.stringify(outcome.body)}`).toBeDefined();
  const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${DOCUMENT_ID}#/components/`)));
  expect(validate(outcome.body), `${method} ${path}: ${JSON.stringify(validate.errors, null, 1)}`).toBe(true);
}

describe('response schemas', () => {
  it('every route that answers data documents its body', () => {
    for (const [path, operations] of Object.entries<any>(document.paths)) {
      for (const [method, operation] of Object.entries<any>(operations)) {
        const success = Object.entries<any>(operation.responses).find(([status]) => status.startsWith('2'))!;
        if (success[0] === '204') continue;
        // A file (the CSV and PDF reports): its media type, with a schema of its own.
        const [media] = Object.keys(success[1].content);
        if (media !== 'application/json') {
          expect(success[1].content[media].schema, `${method} ${path} ${media}`).toBeDefined();
          continue;
        }
        const schema = success[1].content['application/json'].schema;
        expect(schema.$ref ?? schema.properties?.data, `${method} ${path}`).toBeDefined();
      }
    }
  });

  it('the running api answers what the document says', async () => {
    const org = world.org.id;
    const m = world.manager.client;
    const o = world.owner.client;
    const checks: Array<[string, string, ApiOutcome]> = [];
    const check = async (method: string, path: string, outcome: Promise<ApiOutcome>) => checks.push([method, path, await outcome]);

    await check('get', '/me', call(m, 'me'));
    await check('get', '/me/notifications', call(m, 'me/notifications'));
    await check('patch', '/me/notifications', call(m, 'me/notifications', { method: 'PATCH', body: { missed_digest: true } }));
    await check('get', '/orgs', call(m, 'orgs'));
    await check('get', '/orgs/{org}', call(m, `orgs/${org}`));
    await check('get', '/orgs/{org}/members', call(m, `orgs/${org}/members`));
    await check('get', '/orgs/{org}/dashboard', call(m, `orgs/${org}/dashboard`));
    await check('get', '/orgs/{org}/sites', call(m, `orgs/${org}/sites`));
    await check('get', '/orgs/{org}/sites/{id}', call(m, `orgs/${org}/sites/${world.site.id}`));
    // Site groups and access (issue 27).
    const region = expectStatus(await post(m, `orgs/${org}/site-groups`, { name: 'Schema region' }), 201);
    await check('post', '/orgs/{org}/site-groups', post(m, `orgs/${org}/site-groups`, { name: 'Schema area', parent_id: region.id }));
    await check('get', '/orgs/{org}/site-groups', call(m, `orgs/${org}/site-groups`));
    await check('patch', '/orgs/{org}/site-groups/{id}', call(m, `orgs/${org}/site-groups/${region.id}`, { method: 'PATCH', body: { name: 'Schema region 2' } }));
    await check('post', '/orgs/{org}/sites/move', post(m, `orgs/${org}/sites/move`, { site_ids: [world.site.id], group_id: region.id }));
    await check('get', '/orgs/{org}/members/{user_id}', call(m, `orgs/${org}/members/${world.inspector.userId}`));
    await check('put', '/orgs/{org}/members/{user_id}/access',
      call(o, `orgs/${org}/members/${world.viewer.userId}/access`, { method: 'PUT', body: { site_group_ids: [region.id] } }));
    await check('post', '/orgs/{org}/api-keys', post(o, `orgs/${org}/api-keys`, { name: 'Schema check, limited', role: 'viewer', site_group_ids: [region.id] }));
    await check('get', '/orgs/{org}/templates', call(m, `orgs/${org}/templates`));
    await check('get', '/orgs/{org}/templates/{id}', call(m, `orgs/${org}/templates/${world.template.id}`));
    await check('get', '/orgs/{org}/templates/{id}/versions/{n}', call(m, `orgs/${org}/templates/${world.template.id}/versions/1`));
    const scheduled = await scheduleInspection(world);
    await check('get', '/orgs/{org}/inspections', call(m, inspectionsPath(org)));
    const running = await inProgressInspection(world, world.manager);
    await answerEverythingRequired(world, running, world.manager);
    await check('get', '/orgs/{org}/inspections/{id}', call(m, inspectionPath(org, running)));
    await check('post', '/orgs/{org}/inspections/{id}/submit', post(m, `${inspectionPath(org, running)}/submit`, undefined));
    await check('post', '/orgs/{org}/inspections/{id}/cancel', post(m, `${inspectionPath(org, scheduled.id)}/cancel`, undefined));
    const action = await openAction(world);
    await check('get', '/orgs/{org}/actions', call(m, `orgs/${org}/actions`));
    await check('get', '/orgs/{org}/actions/{id}', call(m, `orgs/${org}/actions/${action.id}`));
    await actionIn(world, 'resolved');
    await check('get', '/orgs/{org}/activity', call(m, `orgs/${org}/activity`));
    await check('get', '/orgs/{org}/audit-log', call(o, `orgs/${org}/audit-log`));
    await check('get', '/orgs/{org}/invitations', call(o, `orgs/${org}/invitations`));
    await check('post', '/orgs/{org}/api-keys', post(o, `orgs/${org}/api-keys`, { name: 'Schema check', role: 'viewer' }));
    await createKey(world.owner, org, 'viewer');
    await check('get', '/orgs/{org}/api-keys', call(o, `orgs/${org}/api-keys`));
    const endpoint = expectStatus(await post(o, `orgs/${org}/webhooks`, { url: 'http://127.0.0.1:9/never-sent' }), 201);
    await check('get', '/orgs/{org}/webhooks', call(o, `orgs/${org}/webhooks`));
    await check('post', '/orgs/{org}/webhooks/{id}/test', post(o, `orgs/${org}/webhooks/${endpoint.id}/test`, undefined));
    await check('get', '/orgs/{org}/webhooks/{id}/deliveries', call(o, `orgs/${org}/webhooks/${endpoint.id}/deliveries`));
    await check('post', '/orgs/{org}/webhooks/{id}/rotate-secret', post(o, `orgs/${org}/webhooks/${endpoint.id}/rotate-secret`, undefined));
    const schedule = await createSchedule(world, [world.site.id], { rrule: 'FREQ=DAILY', start_date: today(-5), due_after: 'PT1H' });
    await materialiseAt(schedule.id, new Date(Date.now() - 3 * 86_400_000));
    await check('get', '/orgs/{org}/schedules', call(m, schedulesPath(org)));
    await check('get', '/orgs/{org}/schedules/{id}', call(m, schedulePath(org, schedule.id)));
    await check('patch', '/orgs/{org}/schedules/{id}', call(m, schedulePath(org, schedule.id), { method: 'PATCH', body: { name: 'Checked schedule' } }));
    await check('get', '/orgs/{org}/schedules/{id}/occurrences',
      call(m, `${schedulePath(org, schedule.id)}/occurrences?from=${today(-6)}T00:00:00Z&to=${today(20)}T00:00:00Z&limit=200`));
    await check('post', '/orgs/{org}/schedules/{id}/pause', post(m, `${schedulePath(org, schedule.id)}/pause`, undefined));
    await check('post', '/orgs/{org}/schedules/{id}/resume', post(m, `${schedulePath(org, schedule.id)}/resume`, undefined));
    await check('get', '/orgs/{org}/compliance', call(m, `orgs/${org}/compliance?from=${today(-6)}T00:00:00Z&to=${today(1)}T00:00:00Z&group_by=template`));
    // Analytics (issue 28), once the world has submissions, actions and occurrences to count.
    for (const measure of ['scores', 'on-time', 'actions']) {
      await check('get', `/orgs/{org}/analytics/${measure}`, call(m, `orgs/${org}/analytics/${measure}?interval=month`));
    }
    await check('get', '/orgs/{org}/analytics/failed-items', call(m, `orgs/${org}/analytics/failed-items?group_by=site`));
    await check('get', '/orgs/{org}/analytics/sites', call(m, `orgs/${org}/analytics/sites?sort=score_change`));
    await check('get', '/orgs/{org}/dashboard', call(m, `orgs/${org}/dashboard`));

    for (const [method, path, outcome] of checks) {
      expect(outcome.status, `${method} ${path}: ${JSON.stringify(outcome.body)}`).toBeLessThan(300);
      expectDocumented(method, path, outcome);
    }
  }, 60_000);
});
