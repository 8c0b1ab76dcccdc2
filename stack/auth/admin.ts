// The admin API for the service role: create, read, list, update and delete users.
import { errors } from './errors.ts';
import { isUuid } from './ids.ts';
import { jsonBody, requireAdmin, type AuthRequest, type AuthRuntime } from './request.ts';
import {
  changeEmail,
  checkPasswordStrength,
  findUserByEmail,
  findUserById,
  hashPassword,
  insertUser,
  isPlainObject,
  normalizeEmail,
  userJson,
} from './users.ts';

/** GoTrue's ban_duration: "none" lifts a ban, otherwise a Go duration such as "24h" or "1h30m". */
function banUntil(duration: unknown): Date | null | undefined {
  if (duration === undefined) return undefined;
  if (typeof duration !== 'string') throw errors.validation('ban_duration must be a string');
  if (duration === 'none') return null;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  const matched = duration.replace(/(\d+(?:\.\d+)?)(ms|s|m|h)/g, (_all, amount: string, unit: string) => {
    total += Number(amount) * units[unit];
    return '';
  });
  if (matched !== '' || total <= 0) throw errors.validation('invalid format for ban duration');
  return new Date(Date.now() + total);
}

async function userOr404(runtime: AuthRuntime, id: string) {
  if (!isUuid(id)) throw errors.adminUserNotFound();
  const user = await findUserById(runtime.sql, id);
  if (!user) throw errors.adminUserNotFound();
  return user;
}

export async function createUser(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  await requireAdmin(runtime, request);
  const body = await jsonBody(request);
  if (body.phone && !body.email) throw errors.validation('Phone users are not enabled on the local stack', 422);
  const email = normalizeEmail(body.email);
  let password: string | undefined;
  if (body.password !== undefined && body.password !== null) password = checkPasswordStrength(runtime.settings, body.password);
  if (body.id !== undefined && !isUuid(body.id)) throw errors.validation('id must be a UUID');
  if (body.user_metadata !== undefined && body.user_metadata !== null && !isPlainObject(body.user_metadata)) throw errors.validation('user_metadata must be an object');
  if (body.app_metadata !== undefined && body.app_metadata !== null && !isPlainObject(body.app_metadata)) throw errors.validation('app_metadata must be an object');
  if (await findUserByEmail(runtime.sql, email)) throw errors.emailExists();
  const user = await insertUser(runtime.sql, {
    id: typeof body.id === 'string' ? body.id : undefined,
    email,
    password,
    passwordHash: typeof body.password_hash === 'string' ? body.password_hash : undefined,
    userMetadata: isPlainObject(body.user_metadata) ? body.user_metadata : {},
    appMetadata: isPlainObject(body.app_metadata) ? body.app_metadata : {},
    // With confirmations off (the local default) every user is confirmed, as sign-ups are.
    confirmed: body.email_confirm === true || !runtime.settings.enableConfirmations,
    role: typeof body.role === 'string' && body.role !== '' ? body.role : undefined,
    bannedUntil: banUntil(body.ban_duration) ?? null,
  });
  if (!user) throw errors.emailExists();
  return userJson(runtime.sql, user);
}

export async function getUserById(runtime: AuthRuntime, request: AuthRequest, id: string): Promise<unknown> {
  await requireAdmin(runtime, request);
  return userJson(runtime.sql, await userOr404(runtime, id));
}

export async function listUsers(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  await requireAdmin(runtime, request);
  const page = Math.max(1, Number(request.query.get('page')) || 1);
  const perPage = Math.min(1000, Math.max(1, Number(request.query.get('per_page')) || 50));
  const rows = await runtime.sql`
    select * from auth.users where deleted_at is null order by created_at desc, id limit ${perPage} offset ${(page - 1) * perPage}`;
  const [{ total }] = await runtime.sql<{ total: string }[]>`select count(*) as total from auth.users where deleted_at is null`;
  const users = [];
  for (const row of rows) users.push(await userJson(runtime.sql, row as never));
  return { users, aud: 'authenticated', total: Number(total), nextPage: page * perPage < Number(total) ? page + 1 : null };
}

export async function updateUserById(runtime: AuthRuntime, request: AuthRequest, id: string): Promise<unknown> {
  await requireAdmin(runtime, request);
  const user = await userOr404(runtime, id);
  const body = await jsonBody(request);
  const { sql } = runtime;
  if (body.email !== undefined && body.email !== null && body.email !== '') {
    const email = normalizeEmail(body.email);
    if (email !== user.email && !(await changeEmail(sql, user.id, email))) throw errors.emailExists();
  }
  if (body.password !== undefined && body.password !== null) {
    const hash = await hashPassword(checkPasswordStrength(runtime.settings, body.password));
    await sql`update auth.users set encrypted_password = ${hash}, updated_at = now() where id = ${user.id}`;
  }
  if (isPlainObject(body.user_metadata)) {
    await sql`update auth.users set raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb) || ${JSON.stringify(body.user_metadata)}::text::jsonb,
      updated_at = now() where id = ${user.id}`;
  }
  if (isPlainObject(body.app_metadata)) {
    await sql`update auth.users set raw_app_meta_data = coalesce(raw_app_meta_data, '{}'::jsonb) || ${JSON.stringify(body.app_metadata)}::text::jsonb,
      updated_at = now() where id = ${user.id}`;
  }
  if (body.email_confirm === true) await sql`update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = ${user.id}`;
  const banned = banUntil(body.ban_duration);
  if (banned !== undefined) {
    await sql`update auth.users set banned_until = ${banned}, updated_at = now() where id = ${user.id}`;
    // A banned user's sessions end at once, as in GoTrue.
    if (banned) await sql`delete from auth.sessions where user_id = ${user.id}`;
  }
  if (typeof body.role === 'string' && body.role !== '') await sql`update auth.users set role = ${body.role} where id = ${user.id}`;
  return userJson(sql, (await findUserById(sql, user.id)) ?? user);
}

export async function deleteUser(runtime: AuthRuntime, request: AuthRequest, id: string): Promise<unknown> {
  await requireAdmin(runtime, request);
  const user = await userOr404(runtime, id);
  const body = await jsonBody(request);
  if (body.should_soft_delete === true) {
    // GoTrue's soft delete keeps the row for foreign keys but frees the email and ends all access.
    await runtime.sql.begin(async (tx) => {
      await tx`delete from auth.sessions where user_id = ${user.id}`;
      await tx`delete from auth.identities where user_id = ${user.id}`;
      await tx`delete from auth.mfa_factors where user_id = ${user.id}`;
      await tx`update auth.users set deleted_at = now(), email = null, phone = null, encrypted_password = '',
        raw_app_meta_data = '{}'::jsonb, raw_user_meta_data = '{}'::jsonb, updated_at = now() where id = ${user.id}`;
    });
  } else {
    await runtime.sql`delete from auth.users where id = ${user.id}`;
  }
  return {};
}
