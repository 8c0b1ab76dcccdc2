// API keys through the api function (issue 13 part 1): owners and admins make, list and revoke
// them; the secret is shown once and stored only as a hash; a key calls the API as a member of
// its role in its one organization, also where MFA is required; revoked, expired and unknown keys
// are 401s that say which; routes about people and managing the organization refuse keys; the
// audit log names the key; Idempotency-Key works per key.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call, del, expectProblem, expectStatus, ISO_TIMESTAMP, MISSING_ID, patch, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionsPath, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { apiKeysPath, createKey, keyClient } from './support.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();
const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('making keys', () => {
  it('an owner makes a key: the secret once, fck_ and 43 characters; listed by prefix, never again in full; stored only as a hash', async () => {
    const created = expectStatus(await post(world.owner.client, apiKeysPath(world.org.id), { name: 'Warehouse sync', role: 'manager' }), 201);
    expect(created).toMatchObject({ name: 'Warehouse sync', role: 'manager', status: 'active', last_used_at: null, expires_at: null, revoked_at: null,
      created_by: world.owner.userId, created_at: expect.stringMatching(ISO_TIMESTAMP) });
    expect(created.secret).toMatch(/^fck_[A-Za-z0-9_-]{43}$/);
    expect(created.prefix).toBe(created.secret.slice(0, 12));

    const list = expectStatus(await call(world.owner.client, apiKeysPath(world.org.id)), 200);
    const listed = list.data.find((key: any) => key.id === created.id);
    expect(listed).toMatchObject({ name: 'Warehouse sync', prefix: created.prefix, status: 'active' });
    expect(JSON.stringify(list)).not.toContain(created.secret);

    const [row] = await db()`select secret_hash, prefix from public.api_keys where id = ${created.id}`;
    expect(Buffer.from(row.secret_hash).equals(sha256(created.secret))).toBe(true);
    const [{ found }] = await db()`
      select count(*)::int as found from public.audit_log where entity_id = ${created.id} and (before::text like ${'%' + created.secret.slice(4) + '%'} or after::text like ${'%' + created.secret.slice(4) + '%'} or after ? 'secret_hash')`;
    expect(found).toBe(0);
  });

  it('a retried create (same Idempotency-Key) gets the same key without its secret: the secret is stored nowhere', async () => {
    const retryKey = `make-key-${Math.random()}`;
    const body = { name: 'Retried key', role: 'viewer' };
    const first = expectStatus(await post(world.owner.client, apiKeysPath(world.org.id), body, { 'Idempotency-Key': retryKey }), 201);
    const again = await post(world.owner.client, apiKeysPath(world.org.id), body, { 'Idempotency-Key': retryKey });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(expectStatus(again, 201)).toEqual({ ...first, secret: null });
    const [{ stored }] = await db()`select count(*)::int as stored from public.idempotency_keys where response_body::text like ${'%' + first.secret.slice(4) + '%'}`;
    expect(stored).toBe(0);
  });

  it('an admin makes one too; a manager, an inspector and a viewer may not (403) and an outsider finds no organization (404)', async () => {
    expectStatus(await post(world.admin.client, apiKeysPath(world.org.id), { name: 'Admin key', role: 'viewer' }), 201);
    for (const member of [world.manager, world.inspector, world.viewer]) {
      expectProblem(await post(member.client, apiKeysPath(world.org.id), { name: 'Mine', role: 'viewer' }), 403, 'forbidden');
      expectProblem(await call(member.client, apiKeysPath(world.org.id)), 403, 'forbidden');
    }
    expectProblem(await post(stranger.client, apiKeysPath(world.org.id), { name: 'Theirs', role: 'viewer' }), 404, 'not_found');
  });

  it('refuses an owner or admin role, an expiry in the past and unknown fields, making nothing', async () => {
    const [{ before }] = await db()`select count(*)::int as before from public.api_keys where org_id = ${world.org.id}`;
    expectProblem(await post(world.owner.client, apiKeysPath(world.org.id), { name: 'Too strong', role: 'admin' }), 422, 'validation_failed', ['role']);
    expectProblem(await post(world.owner.client, apiKeysPath(world.org.id), { name: 'Stale', role: 'viewer', expires_at: '2020-01-01T00:00:00Z' }),
      422, 'validation_failed', ['expires_at']);
    expectProblem(await post(world.owner.client, apiKeysPath(world.org.id), { name: 'Extra', role: 'viewer', scopes: ['all'] }), 422, 'validation_failed', ['scopes']);
    expectProblem(await post(world.owner.client, apiKeysPath(world.org.id), { name: '  ', role: 'viewer' }), 422, 'validation_failed', ['name']);
    const [{ after }] = await db()`select count(*)::int as after from public.api_keys where org_id = ${world.org.id}`;
    expect(after).toBe(before);
  });
});

describe('calling with a key', () => {
  it('a viewer key reads but does not write', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer');
    const sites = expectStatus(await call(key.client, `orgs/${world.org.id}/sites`), 200);
    expect(sites.data.map((site: any) => site.id)).toContain(world.site.id);
    expectStatus(await call(key.client, `orgs/${world.org.id}/inspections`), 200);
    expectStatus(await call(key.client, `orgs/${world.org.id}`), 200);
    expectProblem(await post(key.client, `orgs/${world.org.id}/sites`, { name: 'Viewer site' }), 403, 'forbidden');
    expectProblem(await post(key.client, inspectionsPath(world.org.id), { site_id: world.site.id, template_id: world.template.id }), 403, 'forbidden');
  });

  it('a manager key creates sites and schedules inspections, assigned to a member; the audit log names the key', async () => {
    const key = await createKey(world.owner, world.org.id, 'manager');
    const site = expectStatus(await post(key.client, `orgs/${world.org.id}/sites`, { name: 'Made by the warehouse system' }), 201);
    const inspection = expectStatus(await post(key.client, inspectionsPath(world.org.id),
      { site_id: site.id, template_id: world.template.id, assignee_id: world.inspector.userId }), 201);
    expect(inspection).toMatchObject({ site_id: site.id, assignee_id: world.inspector.userId, status: 'scheduled' });
    const [{ created_by }] = await db()`select created_by from public.inspections where id = ${inspection.id}`;
    expect(created_by).toBeNull();
    const organization = expectStatus(await call(key.client, `orgs/${world.org.id}`), 200);
    expect(organization.role).toBe('manager');

    const log = expectStatus(await call(world.owner.client, `orgs/${world.org.id}/audit-log?entity=sites&entity_id=${site.id}`), 200);
    expect(log.data[0]).toMatchObject({ actor_kind: 'api_key', actor_id: key.id, actor_name: 'manager integration' });
    const [{ last_used_at }] = await db()`select last_used_at from public.api_keys where id = ${key.id}`;
    expect(last_used_at).not.toBeNull();
  });

  it('a key works in an organization that requires MFA, where the owner needs a second factor', async () => {
    const key = await createKey(world.owner, world.org.id, 'manager');
    await db()`update public.organizations set require_mfa = true where id = ${world.org.id}`;
    try {
      expectProblem(await patch(world.manager.client, `orgs/${world.org.id}/sites/${world.site.id}`, { name: 'Renamed without MFA' }), 403, 'mfa_required');
      const renamed = expectStatus(await patch(key.client, `orgs/${world.org.id}/sites/${world.site.id}`, { name: 'Renamed by a key' }), 200);
      expect(renamed.name).toBe('Renamed by a key');
    } finally {
      await db()`update public.organizations set require_mfa = false where id = ${world.org.id}`;
    }
  });

  it("a key never sees another organization: its ids are not found", async () => {
    const key = await createKey(world.owner, world.org.id, 'manager');
    expectProblem(await call(key.client, `orgs/${strangerWorld.orgId}/sites`), 404, 'not_found');
    expectProblem(await call(key.client, `orgs/${strangerWorld.orgId}`), 404, 'not_found');
    expectProblem(await post(key.client, `orgs/${strangerWorld.orgId}/sites`, { name: 'Intruder' }), 404, 'not_found');
    expectProblem(await call(key.client, `orgs/${world.org.id}/sites/${strangerWorld.site.id}`), 404, 'not_found');
  });

  it('routes about people and about managing the organization refuse every key role (403)', async () => {
    const key = await createKey(world.owner, world.org.id, 'manager');
    // The router refuses before anything is looked up, so made-up ids do.
    const hook = MISSING_ID;
    const refused: [string, string, unknown?][] = [
      ['GET', 'me'], ['PATCH', 'me', { display_name: 'A robot' }], ['GET', 'me/notifications'], ['PATCH', 'me/notifications', { missed_digest: false }],
      ['GET', 'orgs'], ['POST', 'orgs', { name: 'Robot org' }],
      ['PATCH', `orgs/${world.org.id}`, { name: 'Robot org' }], ['DELETE', `orgs/${world.org.id}`],
      ['PATCH', `orgs/${world.org.id}/members/${world.viewer.userId}`, { role: 'manager' }],
      ['DELETE', `orgs/${world.org.id}/members/${world.viewer.userId}`],
      ['GET', `orgs/${world.org.id}/invitations`], ['POST', `orgs/${world.org.id}/invitations`, { email: 'robot@example.test', role: 'viewer' }],
      ['GET', apiKeysPath(world.org.id)], ['POST', apiKeysPath(world.org.id), { name: 'Another', role: 'viewer' }],
      ['DELETE', `${apiKeysPath(world.org.id)}/${key.id}`], ['GET', `orgs/${world.org.id}/dashboard`],
      ['DELETE', `orgs/${world.org.id}/invitations/${MISSING_ID}`], ['POST', `orgs/${world.org.id}/invitations/${MISSING_ID}/resend`],
      ['POST', 'invitations/preview', { token: 'a'.repeat(43) }], ['POST', 'invitations/accept', { token: 'a'.repeat(43) }],
      ['GET', `orgs/${world.org.id}/webhooks`], ['POST', `orgs/${world.org.id}/webhooks`, { url: 'https://example.com/hooks' }],
      ['PATCH', `orgs/${world.org.id}/webhooks/${hook}`, { enabled: false }], ['DELETE', `orgs/${world.org.id}/webhooks/${hook}`],
      ['POST', `orgs/${world.org.id}/webhooks/${hook}/rotate-secret`], ['POST', `orgs/${world.org.id}/webhooks/${hook}/test`],
      ['GET', `orgs/${world.org.id}/webhooks/${hook}/deliveries`], ['POST', `orgs/${world.org.id}/deliveries/${hook}/redeliver`],
    ];
    const keys = [key, await createKey(world.owner, world.org.id, 'inspector'), await createKey(world.owner, world.org.id, 'viewer')];
    for (const each of keys) {
      for (const [method, path, body] of refused) {
        const outcome = await call(each.client, path, { method: method as never, body });
        expectProblem(outcome, 403, 'forbidden');
        expect(outcome.body.detail, `${each.role} ${method} ${path}`).toBe('An API key cannot do this; sign in as a member.');
      }
    }
    const [{ role }] = await db()`select role from public.memberships where org_id = ${world.org.id} and user_id = ${world.viewer.userId}`;
    expect(role).toBe('viewer');
    // …while the member list, which a service needs to assign work, is open to it.
    const members = expectStatus(await call(key.client, `orgs/${world.org.id}/members`), 200);
    expect(members.data.map((m: any) => m.user_id)).toContain(world.inspector.userId);
  });

  it('Idempotency-Key works per key: a retry is answered from the first, another key starts afresh', async () => {
    const first = await createKey(world.owner, world.org.id, 'manager');
    const second = await createKey(world.owner, world.org.id, 'manager');
    const retryKey = `key-retry-${MISSING_ID.slice(0, 8)}-${Math.random()}`;
    const one = await post(first.client, `orgs/${world.org.id}/sites`, { name: 'Once only' }, { 'Idempotency-Key': retryKey });
    const again = await post(first.client, `orgs/${world.org.id}/sites`, { name: 'Once only' }, { 'Idempotency-Key': retryKey });
    expect(expectStatus(again, 201).id).toBe(expectStatus(one, 201).id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = expectStatus(await post(second.client, `orgs/${world.org.id}/sites`, { name: 'Once only' }, { 'Idempotency-Key': retryKey }), 201);
    expect(other.id).not.toBe(one.body.id);
  });
});

describe('keys that do not work', () => {
  it('a revoked key is a 401 that says so, at once; revoking is for owners and admins and is kept in the list', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer');
    expectStatus(await call(key.client, `orgs/${world.org.id}/sites`), 200);
    expectProblem(await del(world.manager.client, `${apiKeysPath(world.org.id)}/${key.id}`), 403, 'forbidden');
    expectStatus(await del(world.admin.client, `${apiKeysPath(world.org.id)}/${key.id}`), 204);
    const refused = expectProblem(await call(key.client, `orgs/${world.org.id}/sites`), 401, 'unauthenticated');
    expect(refused.detail).toBe('This API key has been revoked.');
    const list = expectStatus(await call(world.owner.client, apiKeysPath(world.org.id)), 200);
    expect(list.data.find((k: any) => k.id === key.id)).toMatchObject({ status: 'revoked', revoked_at: expect.stringMatching(ISO_TIMESTAMP) });
    expectStatus(await del(world.owner.client, `${apiKeysPath(world.org.id)}/${key.id}`), 204);
    expectProblem(await del(world.owner.client, `${apiKeysPath(world.org.id)}/${MISSING_ID}`), 404, 'not_found');
  });

  it('an expired key is a 401 that says so', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer', { expires_at: new Date(Date.now() + 60_000).toISOString() });
    expectStatus(await call(key.client, `orgs/${world.org.id}/sites`), 200);
    // Time passes (past the triggers, which fix a key's expiry when it is made).
    await db().begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`update public.api_keys set created_at = now() - interval '1 day', expires_at = now() - interval '1 second' where id = ${key.id}`;
    });
    const refused = expectProblem(await call(key.client, `orgs/${world.org.id}/sites`), 401, 'unauthenticated');
    expect(refused.detail).toBe('This API key has expired.');
  });

  it('an unknown key and a token of neither shape are 401s with the catalogue wording', async () => {
    const unknown = expectProblem(await call(keyClient(`fck_${'A'.repeat(43)}`), `orgs/${world.org.id}/sites`), 401, 'unauthenticated');
    expect(unknown.title).toBe('Please sign in to continue.');
    expect(unknown.detail).toBe('This API key is not valid.');
    expectProblem(await call(keyClient('not-a-key'), `orgs/${world.org.id}/sites`), 401, 'unauthenticated');
  });
});
