// API keys and the access-token signing key of the local stack.
//
// - Legacy keys: HS256 JWTs {iss, role, exp} signed with the local JWT secret, byte for byte the
//   anon / service_role keys that `supabase start` prints.
// - New keys: opaque `sb_publishable_…` (role anon) and `sb_secret_…` (role service_role).
// - Access tokens: ES256 with a `kid`, the key generated once per data folder and kept there,
//   so sessions survive a restart and `getClaims` verifies locally through the JWKS.
// Every service checks these JWTs with the one verifier below and words refusals its own way.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  errors as joseErrors,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { StackConfig } from './config.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Public JWK as served at /auth/v1/.well-known/jwks.json. */
  publicJwk: JWK & { kid: string; alg: 'ES256'; use: 'sig'; key_ops: ['verify'] };
}

// Same payload as the Supabase CLI's demo keys, so the signature (and thus the key) is identical.
const LEGACY_KEY_EXP = 1983812996;

export async function legacyApiKey(secret: string, role: 'anon' | 'service_role'): Promise<string> {
  return new SignJWT({ iss: 'supabase-demo', role, exp: LEGACY_KEY_EXP })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(secret));
}

/** Fills in the legacy anon / service_role keys of a loaded config. */
export async function withApiKeys(config: StackConfig): Promise<StackConfig> {
  return {
    ...config,
    anonKey: await legacyApiKey(config.jwtSecret, 'anon'),
    serviceRoleKey: await legacyApiKey(config.jwtSecret, 'service_role'),
  };
}

/** Loads the data folder's ES256 signing key, creating it on first use. */
export async function loadSigningKey(dataDir: string): Promise<SigningKey> {
  const file = path.join(dataDir, 'signing-key.json');
  let privateJwk: JWK & { kid: string };
  if (existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    privateJwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256' };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(privateJwk, null, 2), { mode: 0o600 });
  }
  const { d: _d, ...publicPart } = privateJwk;
  return {
    kid: privateJwk.kid,
    privateKey: (await importJWK(privateJwk, 'ES256')) as CryptoKey,
    publicKey: (await importJWK(publicPart, 'ES256')) as CryptoKey,
    publicJwk: { ...publicPart, kid: privateJwk.kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
  };
}

export type JwtAlgorithm = 'ES256' | 'HS256';

/** Why a JWT was refused; each service words the reason its own way. */
export type JwtRejection = 'malformed' | 'algorithm' | 'unknown key' | 'signature' | 'expired';

export class JwtRejectedError extends Error {
  readonly reason: JwtRejection;
  /** The token's `alg` header, for messages that name it. */
  readonly alg: unknown;
  constructor(reason: JwtRejection, alg?: unknown) {
    super(`JWT refused: ${reason}`);
    this.reason = reason;
    this.alg = alg;
  }
}

export interface JwtVerifier {
  /** The key for a token with this header: the signing key for ES256 under its kid, the legacy secret for HS256. */
  keyFor(header: { alg?: unknown; kid?: unknown }): CryptoKey | Uint8Array | undefined;
  /** Checks the signature and time claims of a JWT signed with one of `algorithms`; throws JwtRejectedError. */
  verify(token: string, algorithms: readonly JwtAlgorithm[]): Promise<{ alg: JwtAlgorithm; payload: JWTPayload }>;
}

export function createJwtVerifier(jwtSecret: string, signingKey: SigningKey): JwtVerifier {
  const legacySecret = new TextEncoder().encode(jwtSecret);

  function keyFor(header: { alg?: unknown; kid?: unknown }): CryptoKey | Uint8Array | undefined {
    if (header.alg === 'ES256' && header.kid === signingKey.kid) return signingKey.publicKey;
    if (header.alg === 'HS256') return legacySecret;
    return undefined;
  }

  return {
    keyFor,
    async verify(token, algorithms) {
      let header;
      try {
        header = decodeProtectedHeader(token);
      } catch {
        throw new JwtRejectedError('malformed');
      }
      const alg = header.alg as JwtAlgorithm;
      if (!algorithms.includes(alg)) throw new JwtRejectedError('algorithm', header.alg);
      const key = keyFor(header);
      if (!key) throw new JwtRejectedError('unknown key', alg);
      try {
        return { alg, payload: (await jwtVerify(token, key, { algorithms: [alg] })).payload };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new JwtRejectedError('expired', alg);
        if (error instanceof joseErrors.JOSEError) throw new JwtRejectedError('signature', alg);
        throw error;
      }
    },
  };
}
