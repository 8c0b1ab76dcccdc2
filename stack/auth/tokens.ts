// Access tokens (ES256 with the stack's kid, claims as GoTrue's AccessTokenClaims) and API keys
// (legacy HS256 anon/service_role JWTs and opaque sb_publishable_/sb_secret_ keys).
import { randomBytes } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { createJwtVerifier, JwtRejectedError, type JwtAlgorithm } from '../keys.ts';
import type { ServiceContext } from '../types.ts';
import { errors } from './errors.ts';

export type ApiRole = 'anon' | 'service_role';

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  email: string;
  phone: string;
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  role: string;
  aal: string;
  amr: AmrEntry[];
  session_id: string;
  is_anonymous: boolean;
}

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);
// Users get only our ES256 tokens; admin checks also take HS256 service_role JWTs, as GoTrue does.
const USER_TOKEN_ALGORITHMS: readonly JwtAlgorithm[] = ['ES256'];
const ADMIN_TOKEN_ALGORITHMS: readonly JwtAlgorithm[] = ['ES256', 'HS256'];

export interface Tokens {
  issuer: string;
  /** `expiresIn` is the configured lifetime (jwt_expiry), not a clock difference. */
  signAccessToken(claims: Omit<AccessTokenClaims, 'iss' | 'aud' | 'exp' | 'iat'>): Promise<{ token: string; expiresAt: number; expiresIn: number }>;
  /**
   * Verifies a user's access token for the user endpoints: only the ES256 tokens this service
   * issues. HS256 is refused because its secret is the public demo secret of every local stack.
   */
  verifyAccessToken(token: string): Promise<JWTPayload>;
  /** The API role an `apikey` value grants, or undefined when it is not one of our keys. */
  apiKeyRole(key: string): ApiRole | undefined;
  /** True when a bearer value carries admin rights (service key, or a JWT with an admin role). */
  isAdminBearer(token: string): Promise<boolean>;
}

export function createTokens(ctx: ServiceContext): Tokens {
  const { config, signingKey } = ctx;
  const issuer = `${config.apiUrl}/auth/v1`;
  const jwts = createJwtVerifier(config.jwtSecret, signingKey);
  const keys = new Map<string, ApiRole>([
    [config.anonKey, 'anon'],
    [config.publishableKey, 'anon'],
    [config.serviceRoleKey, 'service_role'],
    [config.secretKey, 'service_role'],
  ]);

  /** Verifies a JWT signed with one of `accepted` (ES256: our key, HS256: the legacy secret); throws bad_jwt. */
  async function verifyJwt(token: string, accepted: readonly JwtAlgorithm[]): Promise<JWTPayload> {
    try {
      return (await jwts.verify(token, accepted)).payload;
    } catch (error) {
      if (!(error instanceof JwtRejectedError)) throw error;
      if (error.reason === 'malformed') throw errors.badJwt('token is malformed');
      if (error.reason === 'algorithm') throw errors.badJwt(`signing method ${error.alg ?? 'none'} is invalid`);
      if (error.reason === 'expired') throw errors.badJwt('token has invalid claims: token is expired');
      throw errors.badJwt('token signature is invalid');
    }
  }

  return {
    issuer,
    async signAccessToken(claims) {
      const iat = Math.floor(Date.now() / 1000);
      const expiresIn = config.auth.jwtExpiry;
      const expiresAt = iat + expiresIn;
      const token = await new SignJWT({ ...claims, aud: 'authenticated' })
        .setProtectedHeader({ alg: 'ES256', kid: signingKey.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setIssuedAt(iat)
        .setExpirationTime(expiresAt)
        .sign(signingKey.privateKey);
      return { token, expiresAt, expiresIn };
    },
    verifyAccessToken: (token) => verifyJwt(token, USER_TOKEN_ALGORITHMS),
    apiKeyRole: (key) => keys.get(key),
    async isAdminBearer(token) {
      const role = keys.get(token);
      if (role) return role === 'service_role';
      const payload = await verifyJwt(token, ADMIN_TOKEN_ALGORITHMS);
      return typeof payload.role === 'string' && ADMIN_ROLES.has(payload.role);
    },
  };
}

/** An opaque refresh token; GoTrue's are 12 url-safe characters, ours are a little longer. */
export function newRefreshToken(): string {
  return randomBytes(12).toString('base64url');
}
