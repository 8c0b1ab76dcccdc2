// The user-facing account endpoints: sign-up, the password and refresh_token grants, reading
// and updating the current user, and logout.
import { errors } from './errors.ts';
import { jsonBody, requireUser, type AuthRequest, type AuthRuntime } from './request.ts';
import { refreshGrant, revokeSessions, startSession, tokenResponse } from './sessions.ts';
import {
  changeEmail,
  checkPasswordStrength,
  findUserByEmail,
  findUserById,
  hashPassword,
  insertUser,
  isBanned,
  isPlainObject,
  normalizeEmail,
  passwordMatches,
  userJson,
  type UserRow,
} from './users.ts';

function clientOf(request: AuthRequest) {
  return { ip: request.ip, userAgent: request.userAgent };
}

export async function signUp(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  runtime.limiter.hit('signInSignUps', request.ip);
  const body = await jsonBody(request);
  // Neither email nor phone is an anonymous sign-in, which config.toml leaves disabled.
  if (isBlank(body.email) && isBlank(body.phone)) throw errors.anonymousDisabled();
  if (!runtime.settings.enableSignup) throw errors.signupDisabled();
  if (body.phone && !body.email) throw errors.validation('Phone signups are disabled', 422);
  const email = normalizeEmail(body.email);
  const password = checkPasswordStrength(runtime.settings, body.password);
  if (body.data !== undefined && body.data !== null && !isPlainObject(body.data)) throw errors.validation('data must be an object');
  const confirmed = !runtime.settings.enableConfirmations;
  if (await findUserByEmail(runtime.sql, email)) throw errors.userAlreadyExists();
  const user = await insertUser(runtime.sql, {
    email,
    password,
    userMetadata: isPlainObject(body.data) ? body.data : {},
    confirmed,
  });
  if (!user) throw errors.userAlreadyExists();
  await audit(runtime, request, user, 'user_signedup');
  // With confirmations on GoTrue answers with the bare user and no session.
  if (!confirmed) return userJson(runtime.sql, user);
  const started = await startSession(runtime.sql, user.id, 'password', clientOf(request));
  return tokenResponse(runtime.sql, runtime.tokens, started.user, started.sessionId, started.refreshToken);
}

export async function token(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  const grant = request.query.get('grant_type');
  if (grant === 'password') {
    runtime.limiter.hit('signInSignUps', request.ip);
    const body = await jsonBody(request);
    return passwordGrant(runtime, request, body);
  }
  if (grant === 'refresh_token') {
    runtime.limiter.hit('tokenRefresh', request.ip);
    const body = await jsonBody(request);
    return refreshGrant(runtime.sql, runtime.tokens, runtime.settings, body.refresh_token);
  }
  // Sign in with Solana / Ethereum: config.toml's [auth.web3.*] are off, as GoTrue then answers.
  if (grant === 'web3') throw errors.web3Disabled();
  if (grant === 'id_token') throw errors.notEmulated('ID token sign-in (OAuth / OIDC providers) is disabled on the local stack');
  if (grant === 'pkce') throw errors.notEmulated('The PKCE flow is disabled on the local stack');
  throw errors.unsupportedGrant();
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

async function passwordGrant(runtime: AuthRuntime, request: AuthRequest, body: Record<string, unknown>): Promise<unknown> {
  if (typeof body.password !== 'string' || typeof body.email !== 'string') throw errors.invalidCredentials();
  let email: string;
  try {
    email = normalizeEmail(body.email);
  } catch {
    throw errors.invalidCredentials();
  }
  const user = await findUserByEmail(runtime.sql, email);
  if (!user || !(await passwordMatches(user, body.password))) throw errors.invalidCredentials();
  if (isBanned(user)) throw errors.userBanned();
  // As GoTrue, whatever enable_confirmations says: an admin can create unconfirmed users.
  if (!user.email_confirmed_at) throw errors.emailNotConfirmed();
  const started = await startSession(runtime.sql, user.id, 'password', clientOf(request));
  await audit(runtime, request, user, 'login');
  return tokenResponse(runtime.sql, runtime.tokens, started.user, started.sessionId, started.refreshToken);
}

export async function getUser(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  const { user } = await requireUser(runtime, request);
  return userJson(runtime.sql, user);
}

/** GoTrue merges `data` key by key into user_metadata; a null value removes the key. */
function mergeMetadata(current: Record<string, unknown>, updates: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(updates)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

export async function updateUser(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  const caller = await requireUser(runtime, request);
  const body = await jsonBody(request);
  const { sql } = runtime;
  const user = caller.user;
  // Everything is checked before anything is written, so a refused request changes nothing.
  if (body.phone !== undefined && body.phone !== null && body.phone !== (user.phone ?? '')) {
    throw errors.validation('Phone updates are not enabled on the local stack', 422);
  }
  if (body.data !== undefined && body.data !== null && !isPlainObject(body.data)) throw errors.validation('data must be an object');
  const newEmail = body.email !== undefined && body.email !== null && body.email !== '' ? normalizeEmail(body.email) : undefined;
  const changesEmail = newEmail !== undefined && newEmail !== user.email;
  const newPassword = body.password !== undefined && body.password !== null ? checkPasswordStrength(runtime.settings, body.password) : undefined;
  // As in GoTrue: with a verified factor, a password-only (aal1) session cannot change the credentials.
  if ((newPassword || changesEmail) && caller.session.aal !== 'aal2' && (await hasVerifiedFactor(runtime, user.id))) {
    throw errors.insufficientAalUpdate();
  }
  if (newPassword !== undefined && (await passwordMatches(user, newPassword))) throw errors.samePassword();
  if (changesEmail) {
    const owner = await findUserByEmail(sql, newEmail);
    if (owner && owner.id !== user.id) throw errors.emailExists();
  }

  // The email goes first: it is the one write that can still lose a race (to a concurrent sign-up).
  if (changesEmail && !(await changeEmail(sql, user.id, newEmail))) throw errors.emailExists();
  if (isPlainObject(body.data)) {
    const merged = mergeMetadata(user.raw_user_meta_data ?? {}, body.data);
    await sql`update auth.users set raw_user_meta_data = ${JSON.stringify(merged)}::text::jsonb, updated_at = now() where id = ${user.id}`;
  }
  if (newPassword !== undefined) {
    const hash = await hashPassword(newPassword);
    await sql.begin(async (tx) => {
      await tx`update auth.users set encrypted_password = ${hash}, recovery_token = '', updated_at = now() where id = ${user.id}`;
      await tx`delete from auth.one_time_tokens where user_id = ${user.id}`;
      // Like GoTrue, a password change signs out every other session of the user.
      await tx`delete from auth.sessions where user_id = ${user.id} and id <> ${caller.session.id}`;
    });
    await audit(runtime, request, user, 'user_updated_password');
  }
  await audit(runtime, request, user, 'user_modified');
  // Reloaded: the writes above changed the row.
  const updated = await findUserById(sql, user.id);
  if (!updated) throw errors.userNotFoundFromJwt();
  return userJson(sql, updated);
}

async function hasVerifiedFactor(runtime: AuthRuntime, userId: string): Promise<boolean> {
  const [row] = await runtime.sql`select 1 from auth.mfa_factors where user_id = ${userId} and status = 'verified' limit 1`;
  return row !== undefined;
}

const LOGOUT_SCOPES = new Set(['global', 'local', 'others']);

export async function logout(runtime: AuthRuntime, request: AuthRequest): Promise<void> {
  const scope = request.query.get('scope') ?? 'global';
  if (!LOGOUT_SCOPES.has(scope)) throw errors.validation(`Unsupported logout scope "${scope}"`);
  const caller = await requireUser(runtime, request);
  await revokeSessions(runtime.sql, caller.user.id, caller.session.id, scope);
  await audit(runtime, request, caller.user, 'logout');
}

/** One row of GoTrue's audit trail in auth.audit_log_entries. */
export async function audit(runtime: AuthRuntime, request: AuthRequest, user: UserRow, action: string, traits: Record<string, unknown> = {}): Promise<void> {
  const payload = { actor_id: user.id, actor_username: user.email ?? '', actor_via_sso: false, action, log_type: logType(action), traits };
  await runtime.sql`
    insert into auth.audit_log_entries (instance_id, id, payload, created_at, ip_address)
    values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), ${JSON.stringify(payload)}::text::json, now(), ${request.ip.slice(0, 64)})`;
}

function logType(action: string): string {
  if (action === 'login' || action === 'logout' || action.startsWith('token')) return 'account';
  if (action.startsWith('user_')) return 'user';
  return 'team';
}
