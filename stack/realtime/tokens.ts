// The identities Realtime acts for: the connection's API key and the access tokens of joins and
// `access_token` events. Checks and error texts follow Supabase Realtime (ChannelsAuthorization,
// JwtVerification): a JWT signed by the stack (ES256 with its kid, or HS256 with the legacy
// secret, which signs the anon/service_role keys), `typ: JWT`, unexpired, with `role` and `exp`.
import { compactVerify } from 'jose';
import type { StackConfig } from '../config.ts';
import { createJwtVerifier, type SigningKey } from '../keys.ts';
import { isObject } from './protocol.ts';

export interface Identity {
  token: string;
  claims: Record<string, unknown>;
  role: string;
  /** Seconds since the epoch. */
  exp: number;
}

export type TokenCheck = { ok: true; identity: Identity } | { ok: false; code: string; message: string };

export interface TokenVerifier {
  verify(token: string): Promise<TokenCheck>;
  /** The identity of an API key: sb_ keys stand for the legacy anon / service_role JWTs. */
  apiKey(key: string): Promise<TokenCheck>;
}

const MALFORMED: TokenCheck = { ok: false, code: 'MalformedJWT', message: 'The token provided is not a valid JWT' };
const NO_SIGNER: TokenCheck = {
  ok: false,
  code: 'JwtSignerError',
  message: 'Failed to generate JWT signer, check your JWT secret or JWKS configuration',
};
const BAD_SIGNATURE: TokenCheck = { ok: false, code: 'JwtSignatureError', message: 'Failed to validate JWT signature' };
const MISSING_CLAIMS: TokenCheck = { ok: false, code: 'InvalidJWTToken', message: 'Fields `role` and `exp` are required in JWT' };

function parseSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export function createTokenVerifier(config: StackConfig, signingKey: SigningKey): TokenVerifier {
  const jwts = createJwtVerifier(config.jwtSecret, signingKey);
  const newFormatKeys = new Map([
    [config.publishableKey, config.anonKey],
    [config.secretKey, config.serviceRoleKey],
  ]);

  async function verify(rawToken: string): Promise<TokenCheck> {
    // Realtime strips whitespace before verifying (a token pasted with a line break still counts).
    const token = rawToken.replace(/\s/g, '');
    const parts = token.split('.');
    if (parts.length !== 3) return MALFORMED;
    const header = parseSegment(parts[0]);
    const claims = parseSegment(parts[1]);
    if (!header || !claims) return MALFORMED;
    if (header.typ !== 'JWT') return NO_SIGNER;
    const key = jwts.keyFor(header);
    if (!key) return NO_SIGNER;
    try {
      // The signature only: Realtime words an expired token its own way, below.
      await compactVerify(token, key, { algorithms: [header.alg as string] });
    } catch {
      return BAD_SIGNATURE;
    }
    const now = Math.floor(Date.now() / 1000);
    if (typeof claims.exp === 'number' && claims.exp <= now) {
      return { ok: false, code: 'InvalidJWTToken', message: `Token has expired ${now - Math.floor(claims.exp)} seconds ago` };
    }
    if (typeof claims.role !== 'string' || typeof claims.exp !== 'number') return MISSING_CLAIMS;
    return { ok: true, identity: { token, claims, role: claims.role, exp: claims.exp } };
  }

  return {
    verify,
    apiKey: (key) => verify(newFormatKeys.get(key) ?? key),
  };
}
