// The admin API for the service role: create, read, list, update and delete users.
import { audit } from './account.ts';
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
    // As GoTrue: only email_confirm: true confirms, whatever enable_confirmations says (that
    // setting is about sign-ups). An unconfirmed user cannot sign in with a password.
    confirmed: body.email_confirm === true,
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

const MAX_UINT64 = 18446744073709551615n;

/**
 * A `page` / `per_page` value as GoTrue's paginate() reads it: absent or empty means the default,
 * anything else must be an unsigned decimal integer (Go's strconv.ParseUint), or it is a 400.
 */
function paginationParameter(raw: string | null, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw errors.badPagination(raw, 'invalid syntax');
  const value = BigInt(raw);
  if (value > MAX_UINT64) throw errors.badPagination(raw, 'value out of range');
  return value > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(value);
}

export async function listUsers(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  await requireAdmin(runtime, request);
  // 0 is accepted, as by GoTrue, and read as the first page / the default page size.
  const page = Math.max(1, paginationParameter(request.query.get('page'), 1));
  const perPage = Math.min(1000, paginationParameter(request.query.get('per_page'), 50) || 50);
  const rows = await runtime.sql`
    select * from auth.users where deleted_at is null order by created_at desc, id limit ${perPage} offset ${Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER)}`;
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

interface FactorRow {
  id: string;
  created_at: Date;
  updated_at: Date;
  status: string;
  friendly_name: string | null;
  factor_type: string;
  phone: string | null;
  last_challenged_at: Date | null;
}

/** GoTrue's Factor JSON: no secret, friendly_name only when set, phone as a string. */
function factorJson(row: FactorRow): Record<string, unknown> {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    status: row.status,
    ...(row.friendly_name ? { friendly_name: row.friendly_name } : {}),
    factor_type: row.factor_type,
    phone: row.phone ?? '',
    last_challenged_at: row.last_challenged_at,
  };
}

const FACTOR_COLUMNS = 'id, created_at, updated_at, status::text as status, friendly_name, factor_type::text as factor_type, phone, last_challenged_at';

/** GET /admin/users/{user_id}/factors (auth.admin.mfa.listFactors): every factor, verified or not. */
export async function listUserFactors(runtime: AuthRuntime, request: AuthRequest, userId: string): Promise<unknown> {
  await requireAdmin(runtime, request);
  const user = await userOr404(runtime, userId);
  const rows = await runtime.sql.unsafe<FactorRow[]>(
    `select ${FACTOR_COLUMNS} from auth.mfa_factors where user_id = $1 order by created_at, id`,
    [user.id],
  );
  return rows.map(factorJson);
}

/**
 * DELETE /admin/users/{user_id}/factors/{factor_id} (auth.admin.mfa.deleteFactor): removes a
 * factor whatever its status, e.g. a member's lost authenticator. As GoTrue does, the sessions
 * that reached aal2 with it fall back to aal1 (their next refresh says so) and lose its amr entry.
 */
export async function deleteUserFactor(runtime: AuthRuntime, request: AuthRequest, userId: string, factorId: string): Promise<unknown> {
  await requireAdmin(runtime, request);
  const user = await userOr404(runtime, userId);
  if (!isUuid(factorId)) throw errors.adminFactorIdNotUuid();
  const factor = await runtime.sql.begin(async (tx) => {
    const [deleted] = await tx.unsafe<FactorRow[]>(
      `delete from auth.mfa_factors where id = $1 and user_id = $2 returning ${FACTOR_COLUMNS}`,
      [factorId, user.id],
    );
    if (!deleted) throw errors.factorNotFound();
    if (deleted.factor_type === 'totp') {
      await tx`delete from auth.mfa_amr_claims where authentication_method = 'totp'
        and session_id in (select id from auth.sessions where user_id = ${user.id} and factor_id = ${deleted.id})`;
    }
    await tx`update auth.sessions set aal = 'aal1', factor_id = null where user_id = ${user.id} and factor_id = ${deleted.id}`;
    return deleted;
  });
  await audit(runtime, request, user, 'factor_deleted', { user_id: user.id, factor_id: factor.id });
  return factorJson(factor);
}
