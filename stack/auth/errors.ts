// GoTrue's error model: every failure is a JSON body carrying the error code twice (`code` for
// API version 2024-01-01 clients, `error_code` for older ones) and the message twice.
import type { ServerResponse } from 'node:http';
import { sendJson } from '../http.ts';

export const API_VERSION_HEADER = { 'X-Supabase-Api-Version': '2024-01-01' };

export class AuthError extends Error {
  status: number;
  code: string;
  /** Extra top-level fields, e.g. `weak_password: {reasons}`. */
  extra: Record<string, unknown>;
  headers: Record<string, string>;
  constructor(status: number, code: string, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }
}

const fail = (status: number, code: string, message: string) => () => new AuthError(status, code, message);

export const errors = {
  noAuthorization: fail(401, 'no_authorization', 'This endpoint requires a valid Bearer token'),
  // The gateway's refusal, as hosted Supabase words it (message and hint), in GoTrue's shape.
  noApiKey: () => new AuthError(401, 'no_api_key', 'No API key found in request', { hint: 'No `apikey` request header or url param was found.' }),
  invalidApiKey: fail(401, 'invalid_api_key', 'Invalid API key'),
  badJwt: (reason: string) => new AuthError(403, 'bad_jwt', `invalid JWT: unable to parse or verify signature, ${reason}`),
  userNotFoundFromJwt: fail(403, 'user_not_found', 'User from sub claim in JWT does not exist'),
  sessionNotFound: fail(403, 'session_not_found', 'Session from session_id claim in JWT does not exist'),
  invalidCredentials: fail(400, 'invalid_credentials', 'Invalid login credentials'),
  unsupportedGrant: fail(400, 'invalid_credentials', 'unsupported_grant_type'),
  emailNotConfirmed: fail(400, 'email_not_confirmed', 'Email not confirmed'),
  userBanned: fail(400, 'user_banned', 'User is banned'),
  userAlreadyExists: fail(422, 'user_already_exists', 'User already registered'),
  emailExists: fail(422, 'email_exists', 'A user with this email address has already been registered'),
  signupDisabled: fail(422, 'signup_disabled', 'Signups not allowed for this instance'),
  samePassword: fail(422, 'same_password', 'New password should be different from the old password.'),
  refreshTokenNotFound: fail(400, 'refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found'),
  refreshTokenAlreadyUsed: fail(400, 'refresh_token_already_used', 'Invalid Refresh Token: Already Used'),
  refreshTokenInvalid: fail(400, 'validation_failed', 'Refresh token is not valid'),
  otpExpired: fail(403, 'otp_expired', 'Token has expired or is invalid'),
  factorNotFound: fail(404, 'mfa_factor_not_found', 'Factor not found'),
  challengeNotFound: fail(422, 'mfa_factor_not_found', 'MFA factor with the provided challenge ID not found'),
  challengeExpired: (id: string) => new AuthError(422, 'mfa_challenge_expired', `MFA challenge ${id} has expired, verify against another challenge or create a new challenge.`),
  mfaVerificationFailed: fail(422, 'mfa_verification_failed', 'Invalid TOTP code entered'),
  insufficientAalUnenroll: fail(422, 'insufficient_aal', 'AAL2 required to unenroll verified factor'),
  insufficientAalEnroll: fail(422, 'insufficient_aal', 'AAL2 required to enroll a new factor'),
  // GoTrue answers this one with 401, unlike the other insufficient_aal refusals.
  insufficientAalUpdate: fail(401, 'insufficient_aal', 'AAL2 session is required to update email or password when MFA is enabled.'),
  notAdmin: fail(403, 'not_admin', 'User not allowed'),
  adminUserNotFound: fail(404, 'user_not_found', 'User not found'),
  rateLimited: fail(429, 'over_request_rate_limit', 'Request rate limit reached'),
  emailRateLimited: fail(429, 'over_email_send_rate_limit', 'email rate limit exceeded'),
  notFound: fail(404, 'not_found', 'Not Found'),
  // GoTrue's paginate(): page and per_page must parse as unsigned integers (strconv.ParseUint).
  badPagination: (value: string, reason: 'invalid syntax' | 'value out of range') =>
    new AuthError(400, 'validation_failed', `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(value)}: ${reason}`),
  adminFactorIdNotUuid: fail(404, 'validation_failed', 'factor_id must be an UUID'),
  // What GoTrue answers for features switched off in config.toml (the CLI's defaults), word for word.
  anonymousDisabled: fail(422, 'anonymous_provider_disabled', 'Anonymous sign-ins are disabled'),
  web3Disabled: fail(422, 'web3_provider_disabled', 'Web3 provider is disabled'),
  manualLinkingDisabled: fail(404, 'manual_linking_disabled', 'Manual linking is disabled'),
  oauthServerDisabled: fail(404, 'feature_disabled', 'OAuth server is disabled'),
  customProvidersDisabled: fail(404, 'feature_disabled', 'Custom OAuth providers are disabled'),
  passkeysDisabled: fail(404, 'passkey_disabled', 'Passkeys are disabled'),
  samlDisabled: fail(404, 'saml_provider_disabled', 'SAML 2.0 is disabled'),
  /** A GoTrue feature the local stack does not emulate, answered as GoTrue answers a disabled one. */
  notEmulated: (message: string) => new AuthError(404, 'feature_disabled', message),
  validation: (message: string, status = 400) => new AuthError(status, 'validation_failed', message),
  badJson: (detail: string) => new AuthError(400, 'bad_json', `Could not parse request body as JSON: ${detail}`),
};

export function weakPasswordError(message: string, reasons: string[]): AuthError {
  return new AuthError(422, 'weak_password', message, { weak_password: { reasons, message } });
}

export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // GoTrue's content type has no charset parameter.
  sendJson(res, status, body, { 'content-type': 'application/json', ...API_VERSION_HEADER, ...headers });
}

export function replyEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...API_VERSION_HEADER, ...headers });
  res.end();
}

export function replyError(res: ServerResponse, error: AuthError): void {
  reply(res, error.status, { code: error.code, error_code: error.code, msg: error.message, message: error.message, ...error.extra }, error.headers);
}

/** What an unexpected failure looks like from outside: no stack, no database message. */
export function replyUnexpected(res: ServerResponse): void {
  reply(res, 500, {
    code: 'unexpected_failure',
    error_code: 'unexpected_failure',
    msg: 'Unexpected failure, please check server logs for more information',
    message: 'Unexpected failure, please check server logs for more information',
  });
}
