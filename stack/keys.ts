// API keys and the access-token signing key of the local stack.
//
// - Legacy keys: HS256 JWTs {iss, role, exp} signed with the local JWT secret, byte for byte the
//   anon / service_role keys that `supabase start` prints.
// - New keys: opaque `sb_publishable_…` (role anon) and `sb_secret_…` (role service_role).
// - Access tokens: ES256 with a `kid`, the key generated once per data folder and kept there,
//   so sessions survive a restart and `getClaims` verifies locally through the JWKS.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import type { StackConfig } from './config.ts';

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
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
    publicJwk: { ...publicPart, kid: privateJwk.kid, alg: 'ES256', use: 'sig', key_ops: ['verify'] },
  };
}
