// A member of another organization, and a signed-in stranger, address organization A's templates
// on every template route, directly and through their own organization's paths: each answer is
// 404 not_found with none of A's data, and A's templates and versions stay exactly as they were.
// A's owner gets the same reads, so the 404s are about tenancy, not typos.
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiCallOptions, call, expectProblem, expectStatus } from '../../support/api.ts';
import { createOrg, orgWithEveryRoleAndStranger, type User, createTemplate, publish, templatePath, templatesPath } from '../../support/fixtures.ts';
import { EVERY_KIND_DEFINITION, templateSnapshot } from './support.ts';

const { fixture: a, stranger } = orgWithEveryRoleAndStranger();
let templateA: any;
let orgB: any;

beforeAll(async () => {
  templateA = await createTemplate(a.manager.client, a.org.id, { name: 'Secret audit A', definition: EVERY_KIND_DEFINITION });
  await publish(a.manager.client, a.org.id, templateA.id);
  // The stranger's own organization: there they may do everything.
  orgB = await createOrg(stranger);
});

interface Probe {
  name: string;
  path: () => string;
  options?: ApiCallOptions;
  /** A's owner reads the same (0: a write, proven allowed elsewhere). */
  ownerStatus: number;
}

const publishOptions: ApiCallOptions = { method: 'POST' };
const probes: Probe[] = [
  { name: 'GET /orgs/{A}/templates', path: () => templatesPath(a.org.id), ownerStatus: 200 },
  { name: 'POST /orgs/{A}/templates', path: () => templatesPath(a.org.id), options: { method: 'POST', body: { name: 'Planted' } }, ownerStatus: 0 },
  { name: 'GET /orgs/{A}/templates/{A}', path: () => templatePath(a.org.id, templateA.id), ownerStatus: 200 },
  { name: 'PATCH /orgs/{A}/templates/{A}', path: () => templatePath(a.org.id, templateA.id), options: { method: 'PATCH', body: { name: 'Taken' } }, ownerStatus: 0 },
  { name: 'POST /orgs/{A}/templates/{A}/publish', path: () => `${templatePath(a.org.id, templateA.id)}/publish`, options: publishOptions, ownerStatus: 0 },
  { name: 'POST /orgs/{A}/templates/{A}/archive', path: () => `${templatePath(a.org.id, templateA.id)}/archive`, options: publishOptions, ownerStatus: 0 },
  { name: 'GET /orgs/{A}/templates/{A}/versions/1', path: () => `${templatePath(a.org.id, templateA.id)}/versions/1`, ownerStatus: 200 },
  // A's template under B's own organization, where B may do everything.
  { name: 'GET /orgs/{B}/templates/{A}', path: () => templatePath(orgB.id, templateA.id), ownerStatus: 0 },
  { name: 'PATCH /orgs/{B}/templates/{A}', path: () => templatePath(orgB.id, templateA.id), options: { method: 'PATCH', body: { name: 'Moved' } }, ownerStatus: 0 },
  { name: 'POST /orgs/{B}/templates/{A}/publish', path: () => `${templatePath(orgB.id, templateA.id)}/publish`, options: publishOptions, ownerStatus: 0 },
  { name: 'POST /orgs/{B}/templates/{A}/archive', path: () => `${templatePath(orgB.id, templateA.id)}/archive`, options: publishOptions, ownerStatus: 0 },
  { name: 'GET /orgs/{B}/templates/{A}/versions/1', path: () => `${templatePath(orgB.id, templateA.id)}/versions/1`, ownerStatus: 0 },
];

describe('a member of another organization', () => {
  for (const probe of probes) {
    it(`gets 404 with no data and changes nothing: ${probe.name}`, async () => {
      const before = await templateSnapshot(a.org.id);
      const problem = expectProblem(await call(stranger.client, probe.path(), probe.options), 404, 'not_found');
      expect(JSON.stringify(problem)).not.toContain('Secret audit A');
      expect(await templateSnapshot(a.org.id)).toEqual(before);
      if (probe.ownerStatus) expectStatus(await call(a.owner.client, probe.path(), probe.options), probe.ownerStatus);
    });
  }

  it('sees none of A\'s templates in its own organization\'s list', async () => {
    const page = expectStatus(await call(stranger.client, templatesPath(orgB.id) + '?status=published'), 200);
    expect(page.data).toEqual([]);
  });
});

describe('every role of A', () => {
  it('reads A\'s template and its version 1', async () => {
    for (const user of Object.values(a.byRole) as User[]) {
      expect(expectStatus(await call(user.client, templatePath(a.org.id, templateA.id)), 200).id).toBe(templateA.id);
      expect(expectStatus(await call(user.client, `${templatePath(a.org.id, templateA.id)}/versions/1`), 200).template_id).toBe(templateA.id);
    }
  });
});
