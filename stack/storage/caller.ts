// Who is calling: the JWT (or API key) of a request, turned into the Postgres role and claims
// that Storage runs the object's SQL with. Accepted: the stack's ES256 access tokens, the legacy
// HS256 anon / service_role keys, and sb_publishable_ / sb_secret_ keys (anon / service_role).
import type { IncomingMessage } from 'node:http';
import type { JWTPayload } from 'jose';
import { headerValue } from '../http.ts';
import type { StackConfig } from '../config.ts';
import { JwtRejectedError, type JwtRejection, type JwtVerifier } from '../keys.ts';
import { errors } from './errors.ts';

export type DatabaseRole = 'anon' | 'authenticated' | 'service_role';

export interface Caller {
  role: DatabaseRole;
  /** The verified claims, as `request.jwt.claims` for policies (auth.uid(), auth.jwt()). */
  claims: Record<string, unknown>;
  /** The claims' `sub`: the owner recorded on what the caller uploads. */
  sub: string | undefined;
}

const ROLES: ReadonlySet<string> = new Set(['anon', 'authenticated', 'service_role']);
// The HS256 secret is the public demo secret of every local stack: it may only carry API keys.
const HS256_ROLES: ReadonlySet<string> = new Set(['anon', 'service_role']);
// storage-api's words (jsonwebtoken's) for a refused JWT.
const REFUSALS: Record<JwtRejection, string> = {
  malformed: 'jwt malformed',
  algorithm: 'invalid algorithm',
  'unknown key': 'invalid signature',
  signature: 'invalid signature',
  expired: 'jwt expired',
};

export const SERVICE_ROLE_CALLER: Caller = { role: 'service_role', claims: { role: 'service_role' }, sub: undefined };

export type CallerResolver = (req: IncomingMessage) => Promise<Caller>;

export function createCallerResolver(config: StackConfig, jwts: JwtVerifier): CallerResolver {
  const opaqueKeys = new Map<string, DatabaseRole>([
    [config.publishableKey, 'anon'],
    [config.secretKey, 'service_role'],
  ]);

  async function verify(token: string): Promise<JWTPayload> {
    let verified;
    try {
      verified = await jwts.verify(token, ['ES256', 'HS256']);
    } catch (error) {
      throw error instanceof JwtRejectedError ? errors.accessDenied(REFUSALS[error.reason]) : error;
    }
    const { alg, payload } = verified;
    if (alg === 'HS256' && (typeof payload.role !== 'string' || !HS256_ROLES.has(payload.role))) {
      throw errors.accessDenied('HS256 tokens may only carry the anon or service_role key; sign in for a user token');
    }
    return payload;
  }

  return async function resolveCaller(req: IncomingMessage): Promise<Caller> {
    const authorization = headerValue(req, 'authorization');
    // Like Supabase's gateway: without an Authorization header the apikey stands in for it.
    const token = (authorization !== undefined ? authorization.replace(/^Bearer\s+/i, '') : headerValue(req, 'apikey') ?? '').trim();
    // storage-api verifies the empty token with jose, whose words these are.
    if (token === '') throw errors.accessDenied('Invalid Compact JWS');
    const keyRole = opaqueKeys.get(token);
    if (keyRole) return { role: keyRole, claims: { role: keyRole }, sub: undefined };
    const claims = await verify(token);
    if (typeof claims.role !== 'string' || !ROLES.has(claims.role)) throw errors.accessDenied('jwt role is not allowed');
    return { role: claims.role as DatabaseRole, claims: claims as Record<string, unknown>, sub: typeof claims.sub === 'string' ? claims.sub : undefined };
  };
}
