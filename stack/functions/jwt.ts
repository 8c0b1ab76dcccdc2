// The platform's `verify_jwt` check in front of a function: the caller needs a JWT that this
// stack signed (an ES256 access token or a legacy HS256 anon/service_role key), or, with no
// Authorization header at all, a new-format `sb_publishable_`/`sb_secret_` API key.
import type { IncomingHttpHeaders } from 'node:http';
import { decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import type { StackConfig } from '../config.ts';
import type { SigningKey } from '../keys.ts';
import { bearerFromHeader } from '../http.ts';

export type CallerCheck = { ok: true } | { ok: false; message: string };

export const MISSING_AUTHORIZATION = 'Missing authorization header';
export const INVALID_JWT = 'Invalid JWT';

export function createCallerCheck(config: StackConfig, signingKey: SigningKey) {
  const accessTokenKey = importJWK(signingKey.publicJwk, 'ES256');
  const legacySecret = new TextEncoder().encode(config.jwtSecret);
  const newFormatKeys = new Set([config.publishableKey, config.secretKey]);

  async function verifies(token: string): Promise<boolean> {
    try {
      const { alg, kid } = decodeProtectedHeader(token);
      if (alg === 'ES256') {
        if (kid !== undefined && kid !== signingKey.kid) return false;
        await jwtVerify(token, await accessTokenKey, { algorithms: ['ES256'] });
        return true;
      }
      if (alg === 'HS256') {
        await jwtVerify(token, legacySecret, { algorithms: ['HS256'] });
        return true;
      }
      // Anything else, `none` included, never passes.
      return false;
    } catch {
      return false;
    }
  }

  return async function checkCaller(headers: IncomingHttpHeaders): Promise<CallerCheck> {
    const authorization = headers.authorization;
    if (authorization === undefined) {
      // supabase-js sends no Authorization header with new-format keys and no session.
      const apikey = headers.apikey;
      if (typeof apikey === 'string' && newFormatKeys.has(apikey)) return { ok: true };
      return { ok: false, message: MISSING_AUTHORIZATION };
    }
    const token = bearerFromHeader(authorization);
    if (token === undefined) return { ok: false, message: INVALID_JWT };
    if (newFormatKeys.has(token) || (await verifies(token))) return { ok: true };
    return { ok: false, message: INVALID_JWT };
  };
}
