// One-time tokens: password recovery mail, magic links for tests (admin generate_link), and
// their verification by code (POST /verify) or by the emailed link (GET /verify).
import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { Sql } from 'postgres';
import { audit } from './account.ts';
import { AuthError, errors } from './errors.ts';
import { chooseRedirect } from './redirect.ts';
import { jsonBody, requireAdmin, type AuthRequest, type AuthRuntime } from './request.ts';
import { startSession, tokenResponse } from './sessions.ts';
import { checkPasswordStrength, findUserByEmail, insertUser, isPlainObject, normalizeEmail, userJson, type UserRow } from './users.ts';

type TokenColumn = 'recovery_token' | 'confirmation_token';

const TOKEN_TYPES_BY_VERIFY_TYPE: Record<string, TokenColumn[]> = {
  recovery: ['recovery_token'],
  magiclink: ['confirmation_token', 'recovery_token'],
  email: ['confirmation_token', 'recovery_token'],
  signup: ['confirmation_token'],
  invite: ['confirmation_token'],
};

/** Tokens are stored only as a hash of the address and the code, like GoTrue's token_hash. */
function hashToken(email: string, otp: string): string {
  return createHash('sha256').update(email + otp).digest('hex');
}

function newOtp(length: number): string {
  return String(randomInt(0, 10 ** length)).padStart(length, '0');
}

interface IssuedToken {
  otp: string;
  tokenHash: string;
  /** The user with the token's *_sent_at stamped. */
  user: UserRow;
}

/** Replaces the user's pending token of that kind with a fresh one. */
async function issueOneTimeToken(sql: Sql, user: UserRow, column: TokenColumn, otpLength: number): Promise<IssuedToken> {
  const email = user.email ?? '';
  const otp = newOtp(otpLength);
  const tokenHash = hashToken(email, otp);
  const updated = await sql.begin(async (tx) => {
    await tx`delete from auth.one_time_tokens where user_id = ${user.id} and token_type = ${column}`;
    await tx`insert into auth.one_time_tokens (id, user_id, token_type, token_hash, relates_to, created_at, updated_at)
      values (${randomUUID()}, ${user.id}, ${column}, ${tokenHash}, ${email}, now() at time zone 'utc', now() at time zone 'utc')`;
    const sentAt = column === 'recovery_token' ? 'recovery_sent_at' : 'confirmation_sent_at';
    const [row] = await tx<UserRow[]>`update auth.users set ${tx(column)} = ${tokenHash}, ${tx(sentAt)} = now() where id = ${user.id} returning *`;
    return row;
  });
  return { otp, tokenHash, user: updated ?? user };
}

function verifyLink(runtime: AuthRuntime, tokenHash: string, type: string, redirectTo: string): string {
  const params = new URLSearchParams({ token: tokenHash, type, redirect_to: redirectTo });
  return `${runtime.tokens.issuer}/verify?${params}`;
}

function escapeHtml(value: string): string {
  const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  return value.replace(/[&<>"']/g, (ch) => entities[ch]);
}

export async function recover(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  const body = await jsonBody(request);
  const email = normalizeEmail(body.email);
  // Counted for unknown addresses too, so the limit reveals nothing about who has an account.
  runtime.limiter.hit('emailSent', request.ip);
  const user = await findUserByEmail(runtime.sql, email);
  if (!user) return {};
  const redirectTo = chooseRedirect(runtime.settings, request.query.get('redirect_to') ?? (typeof body.redirect_to === 'string' ? body.redirect_to : null));
  const { otp, tokenHash } = await issueOneTimeToken(runtime.sql, user, 'recovery_token', runtime.settings.otpLength);
  const link = verifyLink(runtime, tokenHash, 'recovery', redirectTo);
  await runtime.ctx.mail.send({
    to: email,
    subject: 'Reset your Fieldcheck password',
    text: [
      'Someone asked to reset the password of your Fieldcheck account.',
      '',
      `Open this link to choose a new password: ${link}`,
      '',
      `Or enter this code: ${otp}`,
      '',
      'If you did not ask for this, ignore this email; your password stays the same.',
    ].join('\n'),
    html: [
      '<h2>Reset your Fieldcheck password</h2>',
      '<p>Someone asked to reset the password of your Fieldcheck account.</p>',
      `<p><a href="${escapeHtml(link)}">Choose a new password</a></p>`,
      `<p>Or enter this code: <strong>${otp}</strong></p>`,
      '<p>If you did not ask for this, ignore this email; your password stays the same.</p>',
    ].join('\n'),
  });
  await audit(runtime, request, user, 'user_recovery_requested');
  return {};
}

/** Consumes a one-time token (single use, expiring after otp_expiry) and returns its user's id. */
async function consumeToken(runtime: AuthRuntime, tokenHash: string, columns: TokenColumn[], email?: string): Promise<string> {
  const { sql, settings } = runtime;
  const [row] = await sql<{ user_id: string; token_type: TokenColumn }[]>`
    delete from auth.one_time_tokens
    where token_hash = ${tokenHash}
      and token_type::text in ${sql(columns)}
      and created_at > (now() at time zone 'utc')::timestamp - make_interval(secs => ${settings.otpExpiry})
      and (${email ?? null}::text is null or relates_to = ${email ?? ''})
    returning user_id, token_type::text as token_type`;
  if (!row) throw errors.otpExpired();
  const column = row.token_type;
  const [user] = await sql<{ deleted_at: Date | null }[]>`
    update auth.users set ${sql(column)} = '', email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
    where id = ${row.user_id} returning deleted_at`;
  // A soft-deleted user keeps its pending tokens, but they no longer sign anyone in.
  if (!user || user.deleted_at) throw errors.otpExpired();
  return row.user_id;
}

async function verifyAndSignIn(runtime: AuthRuntime, request: AuthRequest, type: string, tokenHash: string, email?: string) {
  const columns = TOKEN_TYPES_BY_VERIFY_TYPE[type];
  if (!columns) throw errors.validation(`Verify requires a verification type`);
  const userId = await consumeToken(runtime, tokenHash, columns, email);
  const { sessionId, refreshToken, user } = await startSession(runtime.sql, userId, 'otp', { ip: request.ip, userAgent: request.userAgent });
  await audit(runtime, request, user, type === 'recovery' ? 'user_recovery_verified' : 'login');
  return tokenResponse(runtime.sql, runtime.tokens, user, sessionId, refreshToken);
}

/** POST /verify: `{type, email, token}` (the emailed code) or `{type, token_hash}`. */
export async function verifyPost(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  runtime.limiter.hit('tokenVerifications', request.ip);
  const body = await jsonBody(request);
  const type = typeof body.type === 'string' ? body.type : '';
  if (typeof body.token_hash === 'string' && body.token_hash !== '') {
    return verifyAndSignIn(runtime, request, type, body.token_hash);
  }
  if (typeof body.token !== 'string' || body.token === '') throw errors.validation('Verify requires either a token or a token hash');
  if (body.phone) throw errors.validation('Phone verification is not enabled on the local stack', 422);
  const email = normalizeEmail(body.email);
  return verifyAndSignIn(runtime, request, type, hashToken(email, body.token.trim()), email);
}

/** GET /verify: the emailed link. Redirects with the session (or the error) in the fragment. */
export async function verifyGet(runtime: AuthRuntime, request: AuthRequest): Promise<{ location: string }> {
  const redirectTo = chooseRedirect(runtime.settings, request.query.get('redirect_to'));
  const type = request.query.get('type') ?? '';
  const tokenHash = request.query.get('token') ?? '';
  try {
    runtime.limiter.hit('tokenVerifications', request.ip);
    if (!tokenHash) throw errors.otpExpired();
    const session = (await verifyAndSignIn(runtime, request, type, tokenHash)) as Record<string, unknown>;
    const fragment = new URLSearchParams({
      access_token: String(session.access_token),
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: String(session.refresh_token),
      token_type: 'bearer',
      type,
    });
    return { location: `${withoutFragment(redirectTo)}#${fragment}` };
  } catch (error) {
    if (!(error instanceof AuthError)) throw error;
    const fragment = new URLSearchParams({
      error: error.status === 429 ? 'over_request_rate_limit' : 'access_denied',
      error_code: error.code,
      error_description: error.code === 'otp_expired' ? 'Email link is invalid or has expired' : error.message,
    });
    return { location: `${withoutFragment(redirectTo)}#${fragment}` };
  }
}

function withoutFragment(url: string): string {
  const index = url.indexOf('#');
  return index === -1 ? url : url.slice(0, index);
}

/** POST /admin/generate_link: the link and code a mail would carry, without sending it. */
export async function generateLink(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  await requireAdmin(runtime, request);
  const body = await jsonBody(request);
  const type = typeof body.type === 'string' ? body.type : '';
  const email = normalizeEmail(body.email);
  const redirectTo = chooseRedirect(runtime.settings, request.query.get('redirect_to') ?? (typeof body.redirect_to === 'string' ? body.redirect_to : null));
  let user = await findUserByEmail(runtime.sql, email);
  let column: TokenColumn;
  if (type === 'recovery' || type === 'magiclink') {
    if (!user) throw errors.adminUserNotFound();
    column = type === 'recovery' ? 'recovery_token' : 'confirmation_token';
  } else if (type === 'signup' || type === 'invite') {
    if (user) throw errors.emailExists();
    const password = type === 'signup' ? checkPasswordStrength(runtime.settings, body.password) : undefined;
    user = await insertUser(runtime.sql, {
      email,
      password,
      userMetadata: isPlainObject(body.data) ? body.data : {},
      confirmed: false,
    });
    if (!user) throw errors.emailExists();
    if (type === 'invite') await runtime.sql`update auth.users set invited_at = now() where id = ${user.id}`;
    column = 'confirmation_token';
  } else {
    throw errors.validation('Invalid or unsupported link type on the local stack', 422);
  }
  const { otp, tokenHash, user: stamped } = await issueOneTimeToken(runtime.sql, user, column, runtime.settings.otpLength);
  return {
    ...(await userJson(runtime.sql, stamped)),
    action_link: verifyLink(runtime, tokenHash, type, redirectTo),
    email_otp: otp,
    hashed_token: tokenHash,
    redirect_to: redirectTo,
    verification_type: type,
  };
}
