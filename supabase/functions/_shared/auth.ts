// Who is calling: verifies `Authorization: Bearer <access token>` against Supabase Auth's JWKS
// and returns a principal. Only asymmetric ES256/RS256 tokens are accepted, as hosted Supabase
// issues with asymmetric signing keys; HS256 (the legacy anon/service keys) and `none` never pass.
import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { createApiKeyResolver } from './api-keys.ts';
import { database } from './db.ts';
import { ApiError } from './errors.ts';

/** Claims of a Supabase Auth access token that the API reads (the rest stays in `claims`). */
export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  role: string;
  email?: string;
  aal?: 'aal1' | 'aal2';
  session_id?: string;
  is_anonymous?: boolean;
}

export interface UserPrincipal {
  kind: 'user';
  userId: string;
  claims: AccessTokenClaims;
}

/** Another service calling with an organization API key (api-keys.ts resolves it). */
export interface ApiKeyPrincipal {
  kind: 'api_key';
  keyId: string;
  orgId: string;
  role: 'manager' | 'inspector' | 'viewer';
}

export type Principal = UserPrincipal | ApiKeyPrincipal;

/** Resolves a bearer token that is not a JWT (an API key) to its principal, or null (or throws a 401 that says why). */
export type ApiKeyResolver = (token: string) => Promise<ApiKeyPrincipal | null>;

// Supabase Auth publishes its JWKS with max-age 600: keep keys as long, like supabase-js does.
export const JWKS_CACHE_MAX_AGE_MS = 10 * 60 * 1000;
const ACCEPTED_ALGORITHMS = ['ES256', 'RS256'];
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// A JWT is three unpadded base64url parts; anything else in the header is treated as an API key.
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

export type TokenVerifier = (token: string) => Promise<UserPrincipal>;

/** The key set could not be read (Auth down, non-200, not a JWKS): our outage, not the caller's fault. */
class KeySetUnavailable extends Error {
  constructor(cause: unknown) {
    super('the JWKS could not be fetched', { cause });
  }
}

/** Key lookups that fail because of the token itself; every other lookup failure is an outage. */
function isTokenFault(error: unknown): boolean {
  return (
    error instanceof joseErrors.JWKSNoMatchingKey ||
    error instanceof joseErrors.JWKSMultipleMatchingKeys ||
    error instanceof joseErrors.JOSEAlgNotAllowed ||
    error instanceof joseErrors.JOSENotSupported
  );
}

/** How many verified tokens a function instance remembers (oldest forgotten first). */
const VERIFIED_TOKEN_CACHE_SIZE = 10_000;

/** node:crypto's synchronous hash: the profile showed WebCrypto's async digest costing more than the check it saves. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Remembers tokens `verify` accepted, by their SHA-256 (the token itself is not kept), so a
 * caller's next requests skip the ES256 signature check (~11 % of a request's CPU in the profile,
 * issue 15). An entry lives until the token expires and never longer than the JWKS is cached
 * (10 min), so a key Auth withdraws stops being trusted no later than it would without the cache.
 * Refusals are not remembered: a bad token costs its verification every time.
 */
export function withVerifiedTokenCache(
  verify: TokenVerifier,
  options: { maxEntries?: number; now?: () => number } = {},
): TokenVerifier {
  const maxEntries = options.maxEntries ?? VERIFIED_TOKEN_CACHE_SIZE;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { principal: UserPrincipal; until: number }>();
  return async (token) => {
    const key = sha256Hex(token);
    const hit = cache.get(key);
    if (hit && now() < hit.until) return hit.principal;
    if (hit) cache.delete(key);
    const principal = await verify(token);
    const until = Math.min((principal.claims.exp as number) * 1000, now() + JWKS_CACHE_MAX_AGE_MS);
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(key, { principal, until });
    return principal;
  };
}

/** A verifier bound to one JWKS URL; the key set is fetched lazily and cached. */
export function createTokenVerifier(jwksUrl: string | URL): TokenVerifier {
  const keySet = createRemoteJWKSet(new URL(jwksUrl), {
    cacheMaxAge: JWKS_CACHE_MAX_AGE_MS,
    timeoutDuration: 5000,
  });
  const resolveKey: JWTVerifyGetKey = async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      throw isTokenFault(error) ? error : new KeySetUnavailable(error);
    }
  };
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, resolveKey, { algorithms: ACCEPTED_ALGORITHMS }));
    } catch (error) {
      if (error instanceof KeySetUnavailable) throw ApiError.serviceUnavailable(error.cause);
      // jose checks the signature before the claims, so only a genuine token can be "expired".
      if (error instanceof joseErrors.JWTExpired) throw ApiError.sessionExpired();
      throw ApiError.unauthenticated();
    }
    if (payload.role !== 'authenticated' || typeof payload.sub !== 'string' || !UUID_PATTERN.test(payload.sub)) {
      throw ApiError.unauthenticated();
    }
    if (typeof payload.exp !== 'number') throw ApiError.unauthenticated();
    return { kind: 'user', userId: payload.sub, claims: payload as AccessTokenClaims };
  };
}

/** The bearer token of a request, or null when there is none. */
export function bearerToken(req: Request): string | null {
  const header = req.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

export interface Authenticator {
  authenticate(req: Request): Promise<Principal>;
}

export function createAuthenticator(options: { verifyToken: TokenVerifier; resolveApiKey?: ApiKeyResolver }): Authenticator {
  return {
    async authenticate(req) {
      const token = bearerToken(req);
      if (!token) throw ApiError.unauthenticated();
      if (!JWT_SHAPE.test(token)) {
        // Seam for API keys: other services send their key the same way as a user sends a JWT.
        const principal = options.resolveApiKey ? await options.resolveApiKey(token) : null;
        if (!principal) throw ApiError.unauthenticated();
        return principal;
      }
      return await options.verifyToken(token);
    },
  };
}

let defaultAuthenticator: Authenticator | undefined;

/** The authenticator of a deployed function: JWKS of the project's own Auth server. */
export function projectAuthenticator(): Authenticator {
  if (!defaultAuthenticator) {
    const supabaseUrl = Deno.env.get('SUPABASE_URL');
    if (!supabaseUrl) throw new Error('SUPABASE_URL is not set');
    const jwksUrl = `${supabaseUrl.replace(/\/+$/, '')}/auth/v1/.well-known/jwks.json`;
    defaultAuthenticator = createAuthenticator({
      verifyToken: withVerifiedTokenCache(createTokenVerifier(jwksUrl)),
      resolveApiKey: createApiKeyResolver(database),
    });
  }
  return defaultAuthenticator;
}
