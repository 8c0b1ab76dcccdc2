// Tokens of signed download and upload URLs. Storage signs `{url: "<bucket>/<name>", exp}`
// (plus owner and upsert for uploads); the local stack signs them with its ES256 key rather
// than the public demo HS256 secret, so nobody can mint one, and marks each with a scope so an
// upload token never opens a download and the other way round.
import { SignJWT, type JWTPayload } from 'jose';
import { JwtRejectedError, type JwtVerifier, type SigningKey } from '../keys.ts';
import { errors } from './errors.ts';

export type TokenScope = 'download' | 'upload';

export interface UrlTokenClaims extends JWTPayload {
  url: string;
  scope: TokenScope;
  owner?: string;
  upsert?: boolean;
}

export interface UrlTokens {
  sign(claims: { url: string; scope: TokenScope; owner?: string; upsert?: boolean }, expiresIn: number): Promise<string>;
  /** The claims of a token for exactly this URL and scope; InvalidJWT / InvalidSignature otherwise. */
  verify(token: string | null, scope: TokenScope, url: string): Promise<UrlTokenClaims>;
}

export function createUrlTokens(signingKey: SigningKey, jwts: JwtVerifier): UrlTokens {
  return {
    async sign(claims, expiresIn) {
      const iat = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' })
        .setIssuedAt(iat)
        .setExpirationTime(iat + expiresIn)
        .sign(signingKey.privateKey);
    },
    async verify(token, scope, url) {
      if (!token) throw errors.invalidRequest("querystring must have required property 'token'");
      let payload: JWTPayload;
      try {
        payload = (await jwts.verify(token, ['ES256'])).payload;
      } catch (error) {
        if (!(error instanceof JwtRejectedError)) throw error;
        if (error.reason === 'malformed') throw errors.invalidJwt('jwt malformed');
        if (error.reason === 'expired') throw errors.invalidJwt('jwt expired');
        throw errors.invalidJwt('invalid signature');
      }
      if (payload.url !== url || payload.scope !== scope) throw errors.invalidSignature();
      return payload as UrlTokenClaims;
    },
  };
}
