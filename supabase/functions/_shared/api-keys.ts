// Organization API keys (docs/api-keys.md): the secret's shape, its hash, and resolving a bearer
// secret to the key principal the request then runs as (db.ts sessionOf gives it its claims).
import type { ApiKeyPrincipal, ApiKeyResolver } from './auth.ts';
import type { Sql } from './db.ts';
import { ApiError } from './errors.ts';

/** Every secret starts so, so secret scanners (and people) recognize a leaked Fieldcheck key. */
export const API_KEY_SECRET_PREFIX = 'fck_';
// fck_ and 32 random bytes in base64url: 256 bits, beyond guessing, so a plain SHA-256 suffices.
const SECRET_PATTERN = /^fck_[A-Za-z0-9_-]{43}$/;
/** How much of the secret lists show: fck_ and 8 characters. */
const SHOWN_PREFIX_LENGTH = API_KEY_SECRET_PREFIX.length + 8;

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** A new secret (shown to its creator once) with what is stored of it. */
export async function newApiKeySecret(): Promise<{ secret: string; prefix: string; hash: string }> {
  const secret = API_KEY_SECRET_PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: await hashApiKeySecret(secret) };
}

/** SHA-256 of the secret in hex (SQL stores `decode(hash, 'hex')`): the only form the database keeps. */
export async function hashApiKeySecret(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(secret)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether a bearer token has the shape of a Fieldcheck API key at all. */
export function looksLikeApiKey(token: string): boolean {
  return SECRET_PATTERN.test(token);
}

interface KeyRow {
  id: string;
  org_id: string;
  role: ApiKeyPrincipal['role'];
  state: 'active' | 'revoked' | 'expired';
}

/**
 * Resolves a secret with private.authenticate_api_key, run by the function's own database role
 * before the request runs as the key. Unknown, revoked and expired keys are 401s that say which.
 */
export function createApiKeyResolver(sql: () => Sql): ApiKeyResolver {
  return async (token) => {
    if (!looksLikeApiKey(token)) throw ApiError.unauthenticated('The bearer token is neither an access token nor an API key.');
    const hash = await hashApiKeySecret(token);
    const [key] = await sql()<KeyRow[]>`select id, org_id, role, state from private.authenticate_api_key(decode(${hash}, 'hex'))`;
    if (!key) throw ApiError.unauthenticated('This API key is not valid.');
    if (key.state === 'revoked') throw ApiError.unauthenticated('This API key has been revoked.');
    if (key.state === 'expired') throw ApiError.unauthenticated('This API key has expired.');
    return { kind: 'api_key', keyId: key.id, orgId: key.org_id, role: key.role };
  };
}
