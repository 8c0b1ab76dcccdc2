// The error catalogue of docs/product.md §8: one stable code per situation, its HTTP status and the
// wording users see. Pure data with no runtime dependencies, so the api function (Deno) and the
// web client (Vite) share it through the schemas alias.

export const errorCatalogue = {
  unauthenticated: { status: 401, title: 'Please sign in to continue.' },
  session_expired: { status: 401, title: 'Your session has expired. Please sign in again.' },
  mfa_required: {
    status: 403,
    title: 'This organization requires two-factor authentication. Enter your authenticator code to continue.',
  },
  forbidden: { status: 403, title: "You don't have permission to do that." },
  not_found: { status: 404, title: "We couldn't find that {thing}." },
  validation_failed: { status: 422, title: 'Some fields need attention.' },
  required_items_missing: { status: 422, title: 'Answer all required items before submitting ({n} left).' },
  // docs/product.md words it for inspections; {thing} lets invitations, templates and actions say the
  // same ("This invitation is expired, so it can't be accepted.").
  invalid_transition: { status: 409, title: "This {thing} is {status}, so it can't be {verb}." },
  stale_version: {
    status: 409,
    title: 'Someone else changed this while you were editing. Review the latest version and try again.',
  },
  duplicate: { status: 409, title: 'A {thing} with that {field} already exists.' },
  limit_exceeded: { status: 422, title: "You've reached the limit of {n} {things}." },
  idempotency_conflict: { status: 422, title: 'This request key was already used for a different request.' },
  payload_too_large: { status: 413, title: 'That file is too large. The limit is {n} MB.' },
  unsupported_media_type: { status: 415, title: 'Only JPEG, PNG, WebP or HEIC photos can be uploaded.' },
  rate_limited: { status: 429, title: 'Too many requests. Try again in {s} seconds.' },
  service_unavailable: {
    status: 503,
    title: 'The service is briefly unavailable. Your changes are safe; try again in a moment.',
  },
  internal_error: { status: 500, title: 'Something went wrong on our side. Your data is safe; please try again.' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/** Fills `{name}` placeholders of a catalogue wording; unknown placeholders are left as they are. */
export function formatWording(template: string, params: Record<string, string | number> = {}): string {
  const filled = template.replace(/\{(\w+)\}/g, (whole, key: string) => (key in params ? String(params[key]) : whole));
  // "A {thing}" with a thing that starts with a vowel sound: "An organization", "An API key".
  return filled.replace(/^A (?=[aeioAEIO]|API\b|api\b)/, 'An ');
}

/** One field's problem, as carried in a problem document's `errors`. */
export interface FieldError {
  /** Dotted path of the field in the request (`display_name`, `answers.3.value`). */
  field: string;
  message: string;
}

/** RFC 9457 problem details as every Fieldcheck API error is rendered. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  errors?: FieldError[];
  request_id: string;
  /** RFC 9457 extension members some codes add: `missing` (required_items_missing), `current` (stale_version). */
  missing?: string[];
  current?: unknown[];
}

// Supabase Auth (GoTrue) error codes mapped to the wording users see. Anything not listed falls
// back to a generic sentence: no raw error text from a service reaches a user.
export const authErrorWording: Record<string, string> = {
  invalid_credentials: 'Email or password is incorrect.',
  weak_password: 'Choose a stronger password: at least 8 characters with letters and digits.',
  email_exists: 'An account with this email already exists. Sign in instead.',
  user_already_exists: 'An account with this email already exists. Sign in instead.',
  same_password: 'Your new password must be different from the current one.',
  session_not_found: 'Your session has ended. Please sign in again.',
  session_expired: 'Your session has expired. Please sign in again.',
  refresh_token_not_found: 'Your session has ended. Please sign in again.',
  refresh_token_already_used: 'Your session has ended. Please sign in again.',
  over_request_rate_limit: 'Too many attempts. Wait a few minutes and try again.',
  over_email_send_rate_limit: 'Too many emails were sent. Wait a few minutes and try again.',
  mfa_verification_failed: 'That code is not right. Enter the current 6-digit code from your authenticator app.',
  mfa_challenge_expired: 'That code request has expired. Try again.',
  mfa_factor_not_found: 'That authenticator was not found. Set it up again.',
  insufficient_aal: 'Confirm with your authenticator code first.',
  otp_expired: 'This link has expired or was already used. Request a new one.',
  email_address_invalid: 'Enter a valid email address.',
  validation_failed: 'Some fields need attention.',
  signup_disabled: 'Sign-ups are closed on this server.',
  email_not_confirmed: 'Confirm your email address first: check your inbox for the link.',
  user_not_found: 'We could not find that account.',
};

export const genericAuthWording = 'Something went wrong on our side. Your data is safe; please try again.';

export function authErrorMessage(code: string | undefined): string {
  return (code && authErrorWording[code]) || genericAuthWording;
}
