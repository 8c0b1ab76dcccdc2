// TOTP multi-factor authentication: enroll, challenge, verify (aal1 → aal2 on the same session)
// and unenroll, following GoTrue's rules (RFC 6238, SHA1, 6 digits, 30 s, one step of skew).
import { randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';
import { audit } from './account.ts';
import { AuthError, errors } from './errors.ts';
import { isIpAddress, isUuid } from './ids.ts';
import { jsonBody, requireUser, type AuthRequest, type AuthRuntime, type Caller } from './request.ts';
import { issueRefreshToken, recordAmr, tokenResponse } from './sessions.ts';

const CHALLENGE_EXPIRY_SECONDS = 300;
const TOTP_PERIOD = 30;
const TOTP_DIGITS = 6;

interface FactorRow {
  id: string;
  user_id: string;
  friendly_name: string | null;
  factor_type: string;
  status: string;
  secret: string | null;
}

async function findFactor(runtime: AuthRuntime, caller: Caller, factorId: string): Promise<FactorRow> {
  if (!isUuid(factorId)) throw errors.factorNotFound();
  const [factor] = await runtime.sql<FactorRow[]>`
    select id, user_id, friendly_name, factor_type::text as factor_type, status::text as status, secret
    from auth.mfa_factors where id = ${factorId} and user_id = ${caller.user.id}`;
  if (!factor) throw errors.factorNotFound();
  return factor;
}

export async function enroll(runtime: AuthRuntime, request: AuthRequest): Promise<unknown> {
  const caller = await requireUser(runtime, request);
  const { session } = caller;
  const body = await jsonBody(request);
  const { sql, settings } = runtime;
  if (body.factor_type !== 'totp') throw errors.validation('Only the totp factor type is enabled on the local stack', 422);
  if (!settings.mfa.totpEnroll) throw new AuthError(422, 'mfa_totp_enroll_not_enabled', 'MFA enroll is disabled for TOTP');
  const factors = await sql<{ status: string }[]>`select status::text as status from auth.mfa_factors where user_id = ${caller.user.id}`;
  const verifiedCount = factors.filter((factor) => factor.status === 'verified').length;
  if (verifiedCount > 0 && session.aal !== 'aal2') throw errors.insufficientAalEnroll();
  if (factors.length >= settings.mfa.maxEnrolledFactors) {
    throw new AuthError(422, 'too_many_enrolled_mfa_factors', 'Maximum number of verified factors reached, unenroll to continue');
  }
  const friendlyName = typeof body.friendly_name === 'string' ? body.friendly_name : '';
  const issuer = typeof body.issuer === 'string' && body.issuer !== '' ? body.issuer : new URL(settings.siteUrl).host;
  const account = caller.user.email ?? '';
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const uri =
    `otpauth://totp/${encodeURIComponent(issuer)}:${encodeURIComponent(account)}` +
    `?algorithm=SHA1&digits=${TOTP_DIGITS}&issuer=${encodeURIComponent(issuer)}&period=${TOTP_PERIOD}&secret=${secret}`;
  const id = randomUUID();
  try {
    await sql`
      insert into auth.mfa_factors (id, user_id, friendly_name, factor_type, status, created_at, updated_at, secret)
      values (${id}, ${caller.user.id}, ${friendlyName}, 'totp', 'unverified', now(), now(), ${secret})`;
  } catch (error) {
    if ((error as { code?: string }).code === '23505') {
      throw new AuthError(422, 'mfa_factor_name_conflict', `A factor with the friendly name "${friendlyName}" for this user already exists`);
    }
    throw error;
  }
  const qrCode = await QRCode.toString(uri, { type: 'svg', margin: 2 });
  await audit(runtime, request, caller.user, 'factor_in_progress', { factor_id: id });
  return { id, type: 'totp', friendly_name: friendlyName, totp: { qr_code: qrCode.trim(), secret, uri } };
}

export async function challenge(runtime: AuthRuntime, request: AuthRequest, factorId: string): Promise<unknown> {
  // Per IP, like GoTrue's MFA limiter: challenges and code guesses share the verification allowance.
  runtime.limiter.hit('tokenVerifications', request.ip);
  const caller = await requireUser(runtime, request);
  await jsonBody(request);
  const factor = await findFactor(runtime, caller, factorId);
  if (!runtime.settings.mfa.totpVerify) throw new AuthError(422, 'mfa_totp_verify_not_enabled', 'MFA verification is disabled for TOTP');
  const id = randomUUID();
  const [row] = await runtime.sql<{ created: number }[]>`
    insert into auth.mfa_challenges (id, factor_id, created_at, ip_address)
    values (${id}, ${factor.id}, now(), ${isIpAddress(request.ip) ? request.ip : '0.0.0.0'})
    returning extract(epoch from created_at)::float8 as created`;
  await runtime.sql`update auth.mfa_factors set last_challenged_at = clock_timestamp(), updated_at = now() where id = ${factor.id}`;
  return { id, type: 'totp', expires_at: Math.floor(Number(row.created)) + CHALLENGE_EXPIRY_SECONDS };
}

export async function verify(runtime: AuthRuntime, request: AuthRequest, factorId: string): Promise<unknown> {
  runtime.limiter.hit('tokenVerifications', request.ip);
  const caller = await requireUser(runtime, request);
  const { session } = caller;
  const body = await jsonBody(request);
  const factor = await findFactor(runtime, caller, factorId);
  const { sql } = runtime;
  const challengeId = typeof body.challenge_id === 'string' ? body.challenge_id : '';
  if (!isUuid(challengeId)) throw errors.challengeNotFound();
  const [found] = await sql<{ id: string; age: number; verified_at: Date | null }[]>`
    select id, extract(epoch from now() - created_at)::float8 as age, verified_at
    from auth.mfa_challenges where id = ${challengeId} and factor_id = ${factor.id}`;
  if (!found || found.verified_at) throw errors.challengeNotFound();
  if (Number(found.age) > CHALLENGE_EXPIRY_SECONDS) {
    await sql`delete from auth.mfa_challenges where id = ${found.id}`;
    throw errors.challengeExpired(found.id);
  }
  const code = typeof body.code === 'string' ? body.code.trim() : '';
  const totp = new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(factor.secret ?? ''),
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  });
  if (!/^[0-9]{6}$/.test(code) || totp.validate({ token: code, window: 1 }) === null) throw errors.mfaVerificationFailed();

  const refreshToken = await sql.begin(async (tx) => {
    // The challenge is spent whether or not another verify races this one.
    const [claimed] = await tx`update auth.mfa_challenges set verified_at = now() where id = ${found.id} and verified_at is null returning id`;
    if (!claimed) throw errors.challengeNotFound();
    if (factor.status !== 'verified') {
      await tx`update auth.mfa_factors set status = 'verified', updated_at = now() where id = ${factor.id}`;
      await tx`delete from auth.mfa_factors where user_id = ${caller.user.id} and factor_type = 'totp' and status = 'unverified' and id <> ${factor.id}`;
    }
    await tx`update auth.sessions set aal = 'aal2', factor_id = ${factor.id}, updated_at = now() where id = ${session.id}`;
    await recordAmr(tx, session.id, 'totp');
    // Rotate: the aal1 refresh tokens of this session can no longer mint (aal2) tokens.
    await tx`delete from auth.refresh_tokens where session_id = ${session.id}`;
    return issueRefreshToken(tx, caller.user.id, session.id, null);
  });
  await audit(runtime, request, caller.user, 'verification_attempted', { factor_id: factor.id, factor_status: 'verified' });
  // caller.user is current: verifying a factor writes no column of auth.users.
  return tokenResponse(sql, runtime.tokens, caller.user, session.id, refreshToken);
}

export async function unenroll(runtime: AuthRuntime, request: AuthRequest, factorId: string): Promise<unknown> {
  const caller = await requireUser(runtime, request);
  const { session } = caller;
  const factor = await findFactor(runtime, caller, factorId);
  if (factor.status === 'verified' && session.aal !== 'aal2') throw errors.insufficientAalUnenroll();
  await runtime.sql`delete from auth.mfa_factors where id = ${factor.id}`;
  await audit(runtime, request, caller.user, 'factor_unenrolled', { factor_id: factor.id });
  return { id: factor.id };
}
