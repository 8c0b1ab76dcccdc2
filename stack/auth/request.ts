// Per-request plumbing shared by the handlers: body parsing, API key, user JWT and admin checks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Sql } from 'postgres';
import type { AuthSettings } from '../config.ts';
import { BodyTooLargeError, bearerToken, clientIp, headerValue, parseServicePath, readBody } from '../http.ts';
import type { ServiceContext } from '../types.ts';
import { errors } from './errors.ts';
import { isUuid } from './ids.ts';
import type { RateLimiter } from './rate-limit.ts';
import { findSession, type SessionRow } from './sessions.ts';
import type { Tokens } from './tokens.ts';
import { findUserById, isPlainObject, type UserRow } from './users.ts';

/** Everything a handler needs, built once per service. */
export interface AuthRuntime {
  ctx: ServiceContext;
  sql: Sql;
  settings: AuthSettings;
  tokens: Tokens;
  limiter: RateLimiter;
}

export interface AuthRequest {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Path after /auth/v1 without the query string, e.g. `/factors/<id>/verify`. */
  pathname: string;
  query: URLSearchParams;
  ip: string;
  userAgent: string;
}

export interface Caller {
  user: UserRow;
  session: SessionRow;
  claims: Record<string, unknown>;
}

const MAX_BODY_BYTES = 1024 * 1024;

/** The JSON object body of a request (empty object for an empty body); bad_json otherwise. */
export async function jsonBody(request: AuthRequest): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readBody(request.req, MAX_BODY_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw errors.validation('Request body is too large', 413);
    throw error;
  }
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw errors.badJson((error as Error).message);
  }
  if (parsed === null) return {};
  if (!isPlainObject(parsed)) throw errors.badJson('expected a JSON object');
  return parsed;
}

/** The API gateway's check: requests must carry one of the project's API keys. */
export function requireApiKey(runtime: AuthRuntime, request: AuthRequest): void {
  const key = headerValue(request.req, 'apikey') || request.query.get('apikey') || undefined;
  if (key) {
    if (!runtime.tokens.apiKeyRole(key)) throw errors.invalidApiKey();
    return;
  }
  const bearer = bearerToken(request.req);
  if (bearer && runtime.tokens.apiKeyRole(bearer)) return;
  throw errors.noApiKey();
}

/**
 * GoTrue's requireAuthentication + session/user loading for the user endpoints. Only access
 * tokens this service issued pass: ES256, and bound to a live session of the same user.
 */
export async function requireUser(runtime: AuthRuntime, request: AuthRequest): Promise<Caller> {
  const token = bearerToken(request.req);
  if (!token) throw errors.noAuthorization();
  const claims = await runtime.tokens.verifyAccessToken(token);
  if (typeof claims.sub !== 'string' || claims.sub === '') throw errors.badJwt('invalid claim: missing sub claim');
  if (!isUuid(claims.sub)) throw errors.badJwt('invalid claim: sub claim must be a UUID');
  const user = await findUserById(runtime.sql, claims.sub);
  if (!user) throw errors.userNotFoundFromJwt();
  if (!isUuid(claims.session_id)) throw errors.sessionNotFound();
  const session = await findSession(runtime.sql, claims.session_id);
  if (!session || session.user_id !== user.id) throw errors.sessionNotFound();
  return { user, session, claims: claims as Record<string, unknown> };
}

/** Admin endpoints: the bearer (or, without one, the apikey) must carry the service role. */
export async function requireAdmin(runtime: AuthRuntime, request: AuthRequest): Promise<void> {
  const token = bearerToken(request.req) ?? headerValue(request.req, 'apikey');
  if (!token) throw errors.noAuthorization();
  if (!(await runtime.tokens.isAdminBearer(token))) throw errors.notAdmin();
}

export function describeRequest(req: IncomingMessage, res: ServerResponse, path: string): AuthRequest {
  const url = parseServicePath(path);
  return {
    req,
    res,
    method: (req.method ?? 'GET').toUpperCase(),
    pathname: url.pathname.replace(/\/+$/, '') || '/',
    query: url.searchParams,
    ip: clientIp(req),
    userAgent: String(req.headers['user-agent'] ?? ''),
  };
}
