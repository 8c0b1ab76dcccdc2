// Sessions, AMR claims and refresh tokens (auth.sessions, auth.mfa_amr_claims,
// auth.refresh_tokens) and the token response every grant returns.
import { randomUUID } from 'node:crypto';
import type { Sql, TransactionSql } from 'postgres';
import type { AuthSettings } from '../config.ts';
import { errors } from './errors.ts';
import { isIpAddress } from './ids.ts';
import { newRefreshToken, type AmrEntry, type Tokens } from './tokens.ts';
import { findUserById, userJson, type UserRow } from './users.ts';

/** Either the pool or a transaction: the statements below work on both. */
type Db = Sql | TransactionSql;

export interface SessionRow {
  id: string;
  user_id: string;
  aal: string;
  factor_id: string | null;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const MIN_REFRESH_TOKEN_LENGTH = 12;

/** Adds (or refreshes the timestamp of) one authentication method of a session. */
export async function recordAmr(sql: Db, sessionId: string, method: string): Promise<void> {
  await sql`
    insert into auth.mfa_amr_claims (id, session_id, created_at, updated_at, authentication_method)
    values (${randomUUID()}, ${sessionId}, now(), now(), ${method})
    on conflict (session_id, authentication_method) do update set updated_at = now()`;
}

export async function issueRefreshToken(sql: Db, userId: string, sessionId: string, parent: string | null): Promise<string> {
  const token = newRefreshToken();
  await sql`
    insert into auth.refresh_tokens (instance_id, token, user_id, revoked, created_at, updated_at, parent, session_id)
    values ('00000000-0000-0000-0000-000000000000', ${token}, ${userId}, false, now(), now(), ${parent}, ${sessionId})`;
  return token;
}

export interface StartedSession {
  sessionId: string;
  refreshToken: string;
  /** The user as the sign-in left it (last_sign_in_at stamped), for the token response. */
  user: UserRow;
}

/** Starts a session at aal1 for a first-factor sign-in. */
export async function startSession(sql: Sql, userId: string, method: string, client: ClientInfo): Promise<StartedSession> {
  return sql.begin(async (tx) => {
    const sessionId = randomUUID();
    await tx`
      insert into auth.sessions (id, user_id, created_at, updated_at, aal, user_agent, ip)
      values (${sessionId}, ${userId}, now(), now(), 'aal1', ${client.userAgent || null}, ${isIpAddress(client.ip) ? client.ip : null})`;
    await recordAmr(tx, sessionId, method);
    const [user] = await tx<UserRow[]>`update auth.users set last_sign_in_at = now(), updated_at = now() where id = ${userId} returning *`;
    await tx`update auth.identities set last_sign_in_at = now() where user_id = ${userId} and provider = 'email'`;
    const refreshToken = await issueRefreshToken(tx, userId, sessionId, null);
    return { sessionId, refreshToken, user };
  });
}

export async function findSession(sql: Sql, sessionId: string): Promise<SessionRow | undefined> {
  const [row] = await sql<SessionRow[]>`select id, user_id, aal::text as aal, factor_id from auth.sessions where id = ${sessionId}`;
  return row;
}

/** GoTrue's AccessTokenResponse for a session, with a fresh access token and the given refresh token. */
export async function tokenResponse(
  sql: Sql,
  tokens: Tokens,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
): Promise<Record<string, unknown>> {
  // The session's level and its AMR claims in one query: one row per claim, or none without a session.
  const rows = await sql<{ aal: string; method: string | null; timestamp: number | null }[]>`
    select s.aal::text as aal, c.authentication_method as method, extract(epoch from c.updated_at)::int as timestamp
    from auth.sessions s left join auth.mfa_amr_claims c on c.session_id = s.id
    where s.id = ${sessionId} order by c.updated_at desc, c.created_at desc`;
  if (rows.length === 0) throw errors.sessionNotFound();
  const amr: AmrEntry[] = rows
    .filter((row) => row.method !== null)
    .map((row) => ({ method: row.method!, timestamp: Number(row.timestamp) }));
  const { token, expiresAt, expiresIn } = await tokens.signAccessToken({
    sub: user.id,
    email: user.email ?? '',
    phone: user.phone ?? '',
    app_metadata: user.raw_app_meta_data ?? {},
    user_metadata: user.raw_user_meta_data ?? {},
    role: user.role || 'authenticated',
    aal: rows[0].aal,
    amr,
    session_id: sessionId,
    is_anonymous: user.is_anonymous,
  });
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: expiresIn,
    expires_at: expiresAt,
    refresh_token: refreshToken,
    user: await userJson(sql, user),
  };
}

interface RefreshTokenRow {
  id: string;
  token: string;
  user_id: string;
  revoked: boolean;
  session_id: string | null;
  revoked_seconds_ago: number;
}

/**
 * The refresh_token grant with rotation. A spent token reused within the reuse interval gets the
 * session's current token back (two tabs refreshing at once); reused later it is treated as
 * stolen and its whole session is revoked.
 */
export async function refreshGrant(sql: Sql, tokens: Tokens, settings: AuthSettings, presented: unknown): Promise<Record<string, unknown>> {
  if (typeof presented !== 'string' || presented.length < MIN_REFRESH_TOKEN_LENGTH) throw errors.refreshTokenInvalid();
  const outcome = await sql.begin(async (tx) => {
    const [row] = await tx<RefreshTokenRow[]>`
      select id, token, user_id, revoked, session_id, extract(epoch from now() - updated_at)::float8 as revoked_seconds_ago
      from auth.refresh_tokens where token = ${presented} for update`;
    if (!row || !row.session_id) return { error: errors.refreshTokenNotFound() };
    const [session] = await tx`select id from auth.sessions where id = ${row.session_id} for update`;
    if (!session) return { error: errors.refreshTokenNotFound() };
    if (row.revoked) {
      if (settings.enableRefreshTokenRotation && row.revoked_seconds_ago > settings.refreshTokenReuseInterval) {
        await tx`delete from auth.sessions where id = ${row.session_id}`;
        return { error: errors.refreshTokenAlreadyUsed(), revokedSession: row.session_id };
      }
      const [active] = await tx<{ token: string }[]>`
        select token from auth.refresh_tokens where session_id = ${row.session_id} and revoked = false order by id desc limit 1`;
      if (!active) return { error: errors.refreshTokenAlreadyUsed() };
      return { userId: row.user_id, sessionId: row.session_id, refreshToken: active.token };
    }
    await tx`update auth.refresh_tokens set revoked = true, updated_at = now() where id = ${row.id}`;
    const refreshToken = await issueRefreshToken(tx, row.user_id, row.session_id, row.token);
    await tx`update auth.sessions set refreshed_at = now(), updated_at = now() where id = ${row.session_id}`;
    return { userId: row.user_id, sessionId: row.session_id, refreshToken };
  });
  // Committed outside the failed path above so the revocation sticks even though we answer 400.
  if ('error' in outcome && outcome.error) throw outcome.error;
  const { userId, sessionId, refreshToken } = outcome as { userId: string; sessionId: string; refreshToken: string };
  const user = await findUserById(sql, userId);
  if (!user) throw errors.refreshTokenNotFound();
  return tokenResponse(sql, tokens, user, sessionId, refreshToken);
}

/** GoTrue's logout scopes: global = every session of the user, local = this one, others = all but this one. */
export async function revokeSessions(sql: Sql, userId: string, sessionId: string | undefined, scope: string): Promise<void> {
  if (scope === 'local') {
    if (sessionId) await sql`delete from auth.sessions where id = ${sessionId}`;
  } else if (scope === 'others') {
    await sql`delete from auth.sessions where user_id = ${userId} and id is distinct from ${sessionId ?? null}::uuid`;
  } else {
    await sql`delete from auth.sessions where user_id = ${userId}`;
  }
}
