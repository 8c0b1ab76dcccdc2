// The stack's own ES256 signing key, so a test can mint a token that is genuine but expired (or
// otherwise altered). It lives in the stack's data folder (stack/keys.ts); a token signed by it
// is indistinguishable from one the auth service issued.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importJWK, type JWK } from 'jose';
import { stack } from './stack.ts';

export interface GenuineKey {
  kid: string;
  privateKey: CryptoKey;
}

let cached: Promise<GenuineKey> | undefined;

export function genuineSigningKey(): Promise<GenuineKey> {
  cached ??= (async () => {
    const jwk: JWK & { kid: string } = JSON.parse(readFileSync(path.join(stack.DATA_DIR, 'signing-key.json'), 'utf8'));
    const served: { keys: Array<{ kid: string }> } = await (await fetch(stack.JWKS_URL)).json();
    // Only the key the stack actually serves counts; a stale file would make the test meaningless.
    if (!served.keys.some((key) => key.kid === jwk.kid)) throw new Error(`signing key ${jwk.kid} is not in ${stack.JWKS_URL}`);
    return { kid: jwk.kid, privateKey: (await importJWK(jwk, 'ES256')) as CryptoKey };
  })();
  return cached;
}
