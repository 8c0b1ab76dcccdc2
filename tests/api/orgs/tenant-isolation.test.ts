// A member of organization B addresses organization A's ids on every route, directly and through
// B's own paths: each answer is 404 not_found with none of A's data, and A's rows stay exactly as
// they were. The same requests by A's owner succeed, so the 404s are about tenancy, not typos.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestClient, uniqueEmail } from '../../support/clients.ts';
import { type ApiCallOptions as CallOptions, call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { closeDb } from '../../support/database.ts';
import { orgSnapshot } from '../../support/snapshots.ts';
import { stack } from '../../support/stack.ts';
import { createOrg, newUser, orgWithEveryRole, type RoleFixture, tag, type User } from '../../support/fixtures.ts';

let a: RoleFixture;
let siteA: any;
let invitationA: any;
let b: User;
let orgB: any;
let siteB: any;
// A third organization with every role: its admin, manager, inspector and viewer probe A too, so
// two organizations with every role face each other (B's owner above covers the owner).
let c: RoleFixture;

beforeAll(async () => {
  [a, b, c] = await Promise.all([orgWithEveryRole(), newUser('tenant-b', 'Bea Other'), orgWithEveryRole()]);
  orgB = await createOrg(b, { name: `Bravo Tenant ${tag()}` });
  siteA = expectStatus(await post(a.owner.client, `orgs/${a.org.id}/sites`, { name: 'Secret Yard A', address: '1 Hidden Lane', external_ref: 'A-SECRET' }), 201);
  siteB = expectStatus(await post(b.client, `orgs/${orgB.id}/sites`, { name: 'Yard B' }), 201);
  invitationA = expectStatus(await post(a.owner.client, `orgs/${a.org.id}/invitations`, { email: uniqueEmail('pending-a'), role: 'viewer' }), 201);
});

afterAll(closeDb);

interface Probe {
  name: string;
  path: () => string;
  options: () => CallOptions;
  /** What A's owner gets for the same request (proving the target exists and the request is valid). */
  ownerStatus: number;
}

// Read-only probes for A's owner; the writes are proven allowed elsewhere and would change A here.
const probes: Probe[] = [
  { name: 'GET /orgs/{A}', path: () => `orgs/${a.org.id}`, options: () => ({}), ownerStatus: 200 },
  { name: 'PATCH /orgs/{A}', path: () => `orgs/${a.org.id}`, options: () => ({ method: 'PATCH', body: { name: 'Taken by B' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{A}', path: () => `orgs/${a.org.id}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  { name: 'GET /orgs/{A}/members', path: () => `orgs/${a.org.id}/members`, options: () => ({}), ownerStatus: 200 },
  { name: 'PATCH /orgs/{A}/members/{A owner}', path: () => `orgs/${a.org.id}/members/${a.owner.userId}`, options: () => ({ method: 'PATCH', body: { role: 'viewer' } }), ownerStatus: 0 },
  { name: 'PATCH /orgs/{A}/members/{A viewer}', path: () => `orgs/${a.org.id}/members/${a.viewer.userId}`, options: () => ({ method: 'PATCH', body: { role: 'admin' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{A}/members/{A viewer}', path: () => `orgs/${a.org.id}/members/${a.viewer.userId}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  { name: 'GET /orgs/{A}/invitations', path: () => `orgs/${a.org.id}/invitations`, options: () => ({}), ownerStatus: 200 },
  { name: 'POST /orgs/{A}/invitations', path: () => `orgs/${a.org.id}/invitations`, options: () => ({ method: 'POST', body: { email: uniqueEmail('via-b'), role: 'owner' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{A}/invitations/{A invitation}', path: () => `orgs/${a.org.id}/invitations/${invitationA.id}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  { name: 'GET /orgs/{A}/sites', path: () => `orgs/${a.org.id}/sites`, options: () => ({}), ownerStatus: 200 },
  { name: 'GET /orgs/{A}/sites?q&near', path: () => `orgs/${a.org.id}/sites?q=secret&near=0,0&archived=all`, options: () => ({}), ownerStatus: 200 },
  { name: 'POST /orgs/{A}/sites', path: () => `orgs/${a.org.id}/sites`, options: () => ({ method: 'POST', body: { name: 'Planted by B' } }), ownerStatus: 0 },
  { name: 'GET /orgs/{A}/sites/{A site}', path: () => `orgs/${a.org.id}/sites/${siteA.id}`, options: () => ({}), ownerStatus: 200 },
  { name: 'PATCH /orgs/{A}/sites/{A site}', path: () => `orgs/${a.org.id}/sites/${siteA.id}`, options: () => ({ method: 'PATCH', body: { name: 'Renamed by B' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{A}/sites/{A site}', path: () => `orgs/${a.org.id}/sites/${siteA.id}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  // A's ids under B's own organization, where B has every right.
  { name: 'GET /orgs/{B}/sites/{A site}', path: () => `orgs/${orgB.id}/sites/${siteA.id}`, options: () => ({}), ownerStatus: 0 },
  { name: 'PATCH /orgs/{B}/sites/{A site}', path: () => `orgs/${orgB.id}/sites/${siteA.id}`, options: () => ({ method: 'PATCH', body: { name: 'Moved by B' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{B}/sites/{A site}', path: () => `orgs/${orgB.id}/sites/${siteA.id}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  { name: 'PATCH /orgs/{B}/members/{A owner}', path: () => `orgs/${orgB.id}/members/${a.owner.userId}`, options: () => ({ method: 'PATCH', body: { role: 'viewer' } }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{B}/members/{A viewer}', path: () => `orgs/${orgB.id}/members/${a.viewer.userId}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
  { name: 'DELETE /orgs/{B}/invitations/{A invitation}', path: () => `orgs/${orgB.id}/invitations/${invitationA.id}`, options: () => ({ method: 'DELETE' }), ownerStatus: 0 },
];

describe('a member of another organization', () => {
  for (const probe of probes) {
    it(`gets 404 with no data and changes nothing: ${probe.name}`, async () => {
      const beforeA = await orgSnapshot(a.org.id);
      const outcome = await call(b.client, probe.path(), probe.options());
      const problem = expectProblem(outcome, 404, 'not_found');
      const text = JSON.stringify(problem);
      for (const secret of [a.org.name, a.org.slug, siteA.name, 'A-SECRET', invitationA.email, a.owner.email]) {
        expect(text).not.toContain(secret);
      }
      expect(await orgSnapshot(a.org.id)).toEqual(beforeA);
    });
  }

  it("sees none of A's data in the lists of its own organization", async () => {
    expect(expectStatus(await call(b.client, 'orgs'), 200).data.map((o: { id: string }) => o.id)).toEqual([orgB.id]);
    expect(expectStatus(await call(b.client, `orgs/${orgB.id}/sites?archived=all`), 200).data.map((s: { id: string }) => s.id)).toEqual([siteB.id]);
    expect(expectStatus(await call(b.client, `orgs/${orgB.id}/sites?q=secret`), 200).data).toEqual([]);
    expect(expectStatus(await call(b.client, `orgs/${orgB.id}/members`), 200).data.map((m: { user_id: string }) => m.user_id)).toEqual([b.userId]);
    expect(expectStatus(await call(b.client, `orgs/${orgB.id}/invitations`), 200).data).toEqual([]);
  });

  it("does not see B's site through A's path either (the other direction)", async () => {
    const beforeB = await orgSnapshot(orgB.id);
    expectProblem(await call(a.owner.client, `orgs/${a.org.id}/sites/${siteB.id}`), 404, 'not_found');
    expectProblem(await call(a.owner.client, `orgs/${a.org.id}/sites/${siteB.id}`, { method: 'PATCH', body: { name: 'x' } }), 404, 'not_found');
    expectProblem(await call(a.owner.client, `orgs/${a.org.id}/sites/${siteB.id}`, { method: 'DELETE' }), 404, 'not_found');
    expectProblem(await call(a.owner.client, `orgs/${a.org.id}/members/${b.userId}`, { method: 'DELETE' }), 404, 'not_found');
    expect(await orgSnapshot(orgB.id)).toEqual(beforeB);
  });
});

describe('every other role of another organization', () => {
  for (const role of ['admin', 'manager', 'inspector', 'viewer'] as const) {
    for (const probe of probes.filter((p) => !p.name.includes('{B}'))) {
      it(`the ${role} gets 404 with no data and changes nothing: ${probe.name}`, async () => {
        const beforeA = await orgSnapshot(a.org.id);
        const problem = expectProblem(await call(c.byRole[role].client, probe.path(), probe.options()), 404, 'not_found');
        const text = JSON.stringify(problem);
        for (const secret of [a.org.name, a.org.slug, siteA.name, 'A-SECRET', invitationA.email, a.owner.email]) {
          expect(text).not.toContain(secret);
        }
        expect(await orgSnapshot(a.org.id)).toEqual(beforeA);
      });
    }
  }
});

describe("A's owner making the same reads", () => {
  for (const probe of probes.filter((p) => p.ownerStatus)) {
    it(`succeeds: ${probe.name}`, async () => {
      const outcome = await call(a.owner.client, probe.path(), probe.options());
      expectStatus(outcome, probe.ownerStatus);
    });
  }

  it("finds A's site with the search B tried", async () => {
    const page = expectStatus(await call(a.owner.client, `orgs/${a.org.id}/sites?q=secret`), 200);
    expect(page.data.map((s: { id: string }) => s.id)).toEqual([siteA.id]);
  });
});

describe('a signed-out caller', () => {
  const anonymousProbes = [
    ...probes.filter((p) => !p.name.includes('{B}')),
    { name: 'GET /orgs', path: () => 'orgs', options: (): CallOptions => ({}), ownerStatus: 200 },
    { name: 'POST /orgs', path: () => 'orgs', options: (): CallOptions => ({ method: 'POST', body: { name: 'Anonymous' } }), ownerStatus: 0 },
    { name: 'POST /invitations/preview', path: () => 'invitations/preview', options: (): CallOptions => ({ method: 'POST', body: { token: 'A'.repeat(43) } }), ownerStatus: 0 },
    { name: 'POST /invitations/accept', path: () => 'invitations/accept', options: (): CallOptions => ({ method: 'POST', body: { token: 'A'.repeat(43) } }), ownerStatus: 0 },
  ];
  for (const probe of anonymousProbes) {
    it(`gets 401 unauthenticated and changes nothing: ${probe.name}`, async () => {
      const beforeA = await orgSnapshot(a.org.id);
      const anonymous = createTestClient({ key: stack.PUBLISHABLE_KEY });
      expectProblem(await call(anonymous, probe.path(), probe.options()), 401, 'unauthenticated');
      expect(await orgSnapshot(a.org.id)).toEqual(beforeA);
    });
  }
});
