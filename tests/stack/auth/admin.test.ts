// The admin API: only the service role (legacy service_role key or sb_secret_ key) may create,
// read and delete users; the anon key and user tokens get 403 not_admin.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { rawRequest, userEndpoint } from './support.ts';

const db = database();
afterAll(() => db.end());

describe.each([
  ['legacy service_role key', () => stack.SERVICE_ROLE_KEY],
  ['sb_secret_ key', () => stack.SECRET_KEY],
])('admin with the %s', (_name, key) => {
  it('creates a user who can sign in, then deletes them', async () => {
    const admin = createTestClient({ key: key() });
    const email = uniqueEmail('admin-made');
    const created = await admin.auth.admin.createUser({ email, password: 'admin-horse-42', email_confirm: true, user_metadata: { n: 1 } });
    expect(created.error).toBeNull();
    expect(created.data.user).toMatchObject({ email, user_metadata: { n: 1 }, app_metadata: { provider: 'email', providers: ['email'] } });
    expect(created.data.user?.email_confirmed_at).toBeTruthy();

    const [row] = await db`select encrypted_password from auth.users where id = ${created.data.user!.id}`;
    expect(row.encrypted_password).toMatch(/^\$2[aby]\$10\$/);

    const user = createTestClient();
    const signedIn = await user.auth.signInWithPassword({ email, password: 'admin-horse-42' });
    expect(signedIn.error).toBeNull();

    const duplicate = await admin.auth.admin.createUser({ email, password: 'admin-horse-42' });
    expect(duplicate.error?.status).toBe(422);
    expect(duplicate.error?.code).toBe('email_exists');

    const deleted = await admin.auth.admin.deleteUser(created.data.user!.id);
    expect(deleted.error).toBeNull();
    expect(deleted.data.user?.id).toBe(created.data.user!.id);
    const [gone] = await db`select count(*)::int as n from auth.users where id = ${created.data.user!.id}`;
    expect(gone.n).toBe(0);
    expect(await userEndpoint(signedIn.data.session!.access_token)).toEqual({ status: 403, code: 'user_not_found' });

    const missing = await admin.auth.admin.getUserById(created.data.user!.id);
    expect(missing.error?.status).toBe(404);
    expect(missing.error?.code).toBe('user_not_found');
  });
});

describe('admin without the service role', () => {
  it('the anon key gets 403 not_admin and creates nothing', async () => {
    const email = uniqueEmail('not-admin');
    const { error } = await createTestClient().auth.admin.createUser({ email, password: 'admin-horse-42' });
    expect(error?.status).toBe(403);
    expect(error?.code).toBe('not_admin');
    const [row] = await db`select count(*)::int as n from auth.users where email = ${email}`;
    expect(row.n).toBe(0);
  });

  it('the publishable key and a user token get not_admin on delete', async () => {
    const { user, session } = await signedInClient();
    const publishable = await createTestClient({ key: stack.PUBLISHABLE_KEY }).auth.admin.deleteUser(user.id);
    expect(publishable.error?.code).toBe('not_admin');
    const asUser = await rawRequest(`/auth/v1/admin/users/${user.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${session.access_token}` } });
    expect(asUser.status).toBe(403);
    expect(asUser.json().code).toBe('not_admin');
    expect(await userEndpoint(session.access_token)).toEqual({ status: 200, code: undefined });
  });

  it('admin createUser applies the password policy', async () => {
    const { error } = await createTestClient({ key: stack.SERVICE_ROLE_KEY }).auth.admin.createUser({ email: uniqueEmail('weak'), password: 'short' });
    expect(error?.code).toBe('weak_password');
  });
});
