// The admin user API as GoTrue answers it: createUser confirms the email only with
// email_confirm: true (an unconfirmed user's password sign-in is 400 email_not_confirmed), and
// listUsers refuses a page or per_page that is not an unsigned integer with GoTrue's 400.
import { afterAll, describe, expect, it } from 'vitest';
import { createTestClient, uniqueEmail } from '../../support/clients.ts';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { rawRequest } from './support.ts';

const db = database();
afterAll(() => db.end());

const admin = () => createTestClient({ key: stack.SERVICE_ROLE_KEY });
const PASSWORD = 'admin-horse-42';

async function confirmationColumns(id: string) {
  const [row] = await db`select email_confirmed_at, confirmed_at from auth.users where id = ${id}`;
  return row;
}

describe('admin createUser and email confirmation', () => {
  it.each([
    ['email_confirm: false', { email_confirm: false }],
    ['no email_confirm', {}],
  ])('with %s leaves the user unconfirmed, and their password sign-in is 400 email_not_confirmed', async (_label, options) => {
    const email = uniqueEmail('unconfirmed');
    const created = await admin().auth.admin.createUser({ email, password: PASSWORD, ...options });
    expect(created.error).toBeNull();
    // GoTrue leaves the timestamps out of the user JSON while they are unset.
    expect(created.data.user?.email_confirmed_at).toBeUndefined();
    expect(created.data.user?.confirmed_at).toBeUndefined();
    expect(await confirmationColumns(created.data.user!.id)).toEqual({ email_confirmed_at: null, confirmed_at: null });

    const signIn = await createTestClient().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error?.status).toBe(400);
    expect(signIn.error?.code).toBe('email_not_confirmed');
    expect(signIn.error?.message).toBe('Email not confirmed');
    expect(signIn.data.session).toBeNull();

    // A wrong password is still just invalid credentials: the confirmation state is not revealed.
    const wrong = await createTestClient().auth.signInWithPassword({ email, password: 'not-the-password-1' });
    expect(wrong.error?.code).toBe('invalid_credentials');
  });

  it('with email_confirm: true confirms the user, who can sign in', async () => {
    const email = uniqueEmail('confirmed');
    const created = await admin().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(created.error).toBeNull();
    expect(created.data.user?.email_confirmed_at).toBeTruthy();
    expect(created.data.user?.confirmed_at).toBeTruthy();
    const row = await confirmationColumns(created.data.user!.id);
    expect(row.email_confirmed_at).toBeInstanceOf(Date);
    expect(row.confirmed_at).toEqual(row.email_confirmed_at);

    const signIn = await createTestClient().auth.signInWithPassword({ email, password: PASSWORD });
    expect(signIn.error).toBeNull();
    expect(signIn.data.session?.access_token).toBeTruthy();
  });

  it('an admin can confirm the user later, after which the sign-in works', async () => {
    const email = uniqueEmail('confirmed-later');
    const created = await admin().auth.admin.createUser({ email, password: PASSWORD });
    const updated = await admin().auth.admin.updateUserById(created.data.user!.id, { email_confirm: true });
    expect(updated.error).toBeNull();
    expect(updated.data.user?.email_confirmed_at).toBeTruthy();
    expect((await createTestClient().auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
  });
});

describe('admin listUsers pagination', () => {
  it.each([
    ['page', -1, '-1'],
    ['perPage', -5, '-5'],
    ['page', 'abc', 'abc'],
    ['perPage', '2.5', '2.5'],
  ])('a %s of %s is 400 validation_failed, as GoTrue parses it (strconv.ParseUint)', async (param, value, text) => {
    const { data, error } = await admin().auth.admin.listUsers({ [param]: value } as never);
    expect(error?.status).toBe(400);
    expect(error?.code).toBe('validation_failed');
    expect(error?.message).toBe(`Bad Pagination Parameters: strconv.ParseUint: parsing "${text}": invalid syntax`);
    expect(data.users).toEqual([]);
  });

  it('a number beyond 64 bits is out of range; the raw answer has GoTrue error shape', async () => {
    const response = await rawRequest('/auth/v1/admin/users?page=1&per_page=18446744073709551616', {
      headers: { apikey: stack.SERVICE_ROLE_KEY, authorization: `Bearer ${stack.SERVICE_ROLE_KEY}` },
    });
    expect(response.status).toBe(400);
    const message = 'Bad Pagination Parameters: strconv.ParseUint: parsing "18446744073709551616": value out of range';
    expect(response.json()).toEqual({ code: 'validation_failed', error_code: 'validation_failed', msg: message, message });
  });

  it('valid, empty and zero values still list users', async () => {
    for (const query of ['page=1&per_page=2', 'page=&per_page=', 'page=0&per_page=0', 'page=007']) {
      const response = await rawRequest(`/auth/v1/admin/users?${query}`, {
        headers: { apikey: stack.SERVICE_ROLE_KEY, authorization: `Bearer ${stack.SERVICE_ROLE_KEY}` },
      });
      expect(response.status, query).toBe(200);
      expect(Array.isArray(response.json().users)).toBe(true);
    }
    const { data, error } = await admin().auth.admin.listUsers({ page: 1, perPage: 1 });
    expect(error).toBeNull();
    expect(data.users).toHaveLength(1);
  });
});
