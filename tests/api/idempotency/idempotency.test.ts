// Idempotency-Key on POSTs: a retry with the same key and request gets the stored status and body
// (marked idempotent-replayed) and creates nothing more, even when the retries race; the same key
// with another request is refused; keys are per caller; failed requests are not stored.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../support/clients.ts';
import { createOrg, invitationMail, invite, mailIdsTo, newUser, orgWithEveryRole, type RoleFixture, tag } from '../../support/fixtures.ts';
import { closeDb, db } from '../../support/database.ts';
import { expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { userSnapshot } from '../../support/snapshots.ts';
import { listMail } from '../../support/mail.ts';

let fixture: RoleFixture;

beforeAll(async () => {
  fixture = await orgWithEveryRole();
});

afterAll(closeDb);

const sitesPath = () => `orgs/${fixture.org.id}/sites`;
const key = () => `key-${randomUUID()}`;

async function sitesNamed(name: string): Promise<number> {
  const [row] = await db()`select count(*)::int as n from public.sites where org_id = ${fixture.org.id} and name = ${name}`;
  return row.n;
}

describe('Idempotency-Key on POST /orgs/{org}/sites', () => {
  it('replays the stored status and body with idempotent-replayed: true and creates one row', async () => {
    const name = `Replayed ${tag()}`;
    const headers = { 'Idempotency-Key': key() };
    const first = await post(fixture.manager.client, sitesPath(), { name }, headers);
    const created = expectStatus(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    for (let attempt = 0; attempt < 2; attempt++) {
      const retry = await post(fixture.manager.client, sitesPath(), { name }, headers);
      expect(retry.status).toBe(201);
      expect(retry.body).toEqual(created);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await sitesNamed(name)).toBe(1);
  });

  it('replays the original response even after the site changed', async () => {
    const name = `Original ${tag()}`;
    const headers = { 'Idempotency-Key': key() };
    const created = expectStatus(await post(fixture.manager.client, sitesPath(), { name }, headers), 201);
    expectStatus(await patch(fixture.manager.client, `${sitesPath()}/${created.id}`, { name: `${name} renamed` }), 200);
    const retry = await post(fixture.manager.client, sitesPath(), { name }, headers);
    expect(retry.body).toEqual(created);
    expect(await sitesNamed(name)).toBe(0);
    expect(await sitesNamed(`${name} renamed`)).toBe(1);
  });

  it('refuses the same key with a different body with 422 idempotency_conflict and creates nothing', async () => {
    const headers = { 'Idempotency-Key': key() };
    const name = `Conflict ${tag()}`;
    expectStatus(await post(fixture.manager.client, sitesPath(), { name }, headers), 201);
    const problem = expectProblem(await post(fixture.manager.client, sitesPath(), { name: `${name} other` }, headers), 422, 'idempotency_conflict');
    expect(problem.title).toBe('This request key was already used for a different request.');
    expect(await sitesNamed(`${name} other`)).toBe(0);
    expect(await sitesNamed(name)).toBe(1);
  });

  it('refuses the same key on a different path with 422 idempotency_conflict', async () => {
    const headers = { 'Idempotency-Key': key() };
    const name = `Path ${tag()}`;
    const otherOrg = await createOrg(fixture.manager);
    expectStatus(await post(fixture.manager.client, sitesPath(), { name }, headers), 201);
    expectProblem(await post(fixture.manager.client, `orgs/${otherOrg.id}/sites`, { name }, headers), 422, 'idempotency_conflict');
    const [row] = await db()`select count(*)::int as n from public.sites where org_id = ${otherOrg.id}`;
    expect(row.n).toBe(0);
  });

  it('keeps keys per caller: another user with the same key makes their own site', async () => {
    const sharedKey = key();
    const name = `Per caller ${tag()}`;
    const byManager = expectStatus(await post(fixture.manager.client, sitesPath(), { name }, { 'Idempotency-Key': sharedKey }), 201);
    const byAdmin = await post(fixture.admin.client, sitesPath(), { name }, { 'Idempotency-Key': sharedKey });
    expect(byAdmin.status).toBe(201);
    expect(byAdmin.headers.get('idempotent-replayed')).toBeNull();
    expect(byAdmin.body.id).not.toBe(byManager.id);
    expect(await sitesNamed(name)).toBe(2);
  });

  it('does not store failed requests: a refused request and then a valid one with the same key', async () => {
    const headers = { 'Idempotency-Key': key() };
    const name = `After failure ${tag()}`;
    expectProblem(await post(fixture.manager.client, sitesPath(), { name, latitude: 95, longitude: 0 }, headers), 422, 'validation_failed');
    expectProblem(await post(fixture.viewer.client, sitesPath(), { name }, headers), 403, 'forbidden');
    const keys = await db()`select count(*)::int as n from public.idempotency_keys where key = ${headers['Idempotency-Key']}`;
    expect(keys[0].n).toBe(0);
    const created = await post(fixture.manager.client, sitesPath(), { name }, headers);
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    expect(await sitesNamed(name)).toBe(1);
  });

  it('creates one row when several requests with the same key race', async () => {
    const headers = { 'Idempotency-Key': key() };
    const name = `Race ${tag()}`;
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => post(fixture.manager.client, sitesPath(), { name }, headers)));
    expect(await sitesNamed(name)).toBe(1);
    const statuses = outcomes.map((o) => o.status);
    expect(statuses.filter((s) => s === 201).length, `statuses: ${statuses.join(', ')}`).toBeGreaterThanOrEqual(1);
    // No request fails on the server; every 201 carries the one site.
    expect(statuses.every((s) => s < 500), `statuses: ${statuses.join(', ')}`).toBe(true);
    const ids = new Set(outcomes.filter((o) => o.status === 201).map((o) => o.body.id));
    expect(ids.size).toBe(1);
    // Afterwards a retry is a plain replay.
    const retry = await post(fixture.manager.client, sitesPath(), { name }, headers);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body.id).toBe([...ids][0]);
  });

  it('keeps a key for 24 hours', async () => {
    const sent = key();
    expectStatus(await post(fixture.manager.client, sitesPath(), { name: `Kept ${tag()}` }, { 'Idempotency-Key': sent }), 201);
    const [row] = await db()`
      select extract(epoch from expires_at - created_at)::int as seconds, response_status
      from public.idempotency_keys where principal_id = ${fixture.manager.userId} and key = ${sent}
    `;
    expect(row).toEqual({ seconds: 24 * 3600, response_status: 201 });
  });

  const badKeys: Array<[string, string]> = [
    ['256 characters', 'k'.repeat(256)],
    ['a space inside', 'two words'],
    ['a tab inside', 'tab\there'],
  ];
  for (const [label, value] of badKeys) {
    it(`refuses a key with ${label} with 422 on Idempotency-Key and writes nothing`, async () => {
      const name = `Bad key ${tag()}`;
      const before = await userSnapshot(fixture.manager.userId);
      expectProblem(await post(fixture.manager.client, sitesPath(), { name }, { 'Idempotency-Key': value }), 422, 'validation_failed', ['Idempotency-Key']);
      expect(await sitesNamed(name)).toBe(0);
      expect(await userSnapshot(fixture.manager.userId)).toEqual(before);
    });
  }

  it('accepts a key of exactly 255 printable characters', async () => {
    const value = `${randomUUID()}~!#`.padEnd(255, 'z');
    expectStatus(await post(fixture.manager.client, sitesPath(), { name: `Long key ${tag()}` }, { 'Idempotency-Key': value }), 201);
  });
});

describe('Idempotency-Key on the other POSTs', () => {
  it('POST /orgs: a retry returns the same organization and creates one', async () => {
    const user = await newUser('idem-org', 'Ida Idem');
    const headers = { 'Idempotency-Key': key() };
    const name = `Once ${tag()}`;
    const first = expectStatus(await post(user.client, 'orgs', { name }, headers), 201);
    const retry = await post(user.client, 'orgs', { name }, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await userSnapshot(user.userId)).organizations).toHaveLength(1);
  });

  it('POST /orgs/{org}/invitations: a retry returns the same invitation, creates one and sends one mail', async () => {
    const email = uniqueEmail('idem-invite');
    const headers = { 'Idempotency-Key': key() };
    const seen = await mailIdsTo(email);
    const first = expectStatus(await post(fixture.owner.client, `orgs/${fixture.org.id}/invitations`, { email, role: 'viewer' }, headers), 201);
    await invitationMail(email, seen);
    const retry = await post(fixture.owner.client, `orgs/${fixture.org.id}/invitations`, { email, role: 'viewer' }, headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const [row] = await db()`select count(*)::int as n from public.invitations where org_id = ${fixture.org.id} and email = ${email}`;
    expect(row.n).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await listMail()).filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('POST /invitations/accept: a retry replays the acceptance', async () => {
    const invitee = await newUser('idem-accept', 'Ada Accept');
    const { token } = await invite(fixture.owner, fixture.org.id, invitee.email, 'inspector');
    const headers = { 'Idempotency-Key': key() };
    const first = expectStatus(await post(invitee.client, 'invitations/accept', { token }, headers), 200);
    const retry = await post(invitee.client, 'invitations/accept', { token }, headers);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
  });
});
