import type { AuthError } from '@supabase/supabase-js';
import {
  authErrorMessage,
  errorCatalogue,
  formatWording,
  type ErrorCode,
  type Problem,
} from '@schemas/errors';

/** What a screen shows for a failure: a sentence for the form, and messages beside fields. */
export interface UserFacingError {
  /** Shown above the form; absent when every problem belongs to a field. */
  message?: string;
  fieldErrors: Record<string, string>;
  code?: string;
}

/** A failed call to the `api` function, carrying its RFC 9457 problem document when it sent one. */
export class ApiError extends Error {
  readonly problem: Problem | null;
  readonly status: number | null;
  readonly retryAfterSeconds: number | null;

  constructor(problem: Problem | null, status: number | null, retryAfterSeconds: number | null) {
    super(problem?.code ?? 'api_error');
    this.name = 'ApiError';
    this.problem = problem;
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === 'object' && body !== null && typeof (body as Problem).code === 'string';
}

/** The ApiError of a non-2xx answer of the `api` function, reading its problem body. */
export async function problemOf(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after'));
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON: described by its status alone.
  }
  return new ApiError(isProblem(body) ? body : null, response.status, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

// supabase-js's own tests for its auth errors (auth-js lib/errors.ts: isAuthError,
// isAuthRetryableFetchError), by the same marks: importing them would put all of supabase-js on
// every first load (lib/supabase.ts).
function isAuthError(error: unknown): error is AuthError {
  return typeof error === 'object' && error !== null && '__isAuthError' in error;
}

function isAuthRetryableFetchError(error: unknown): boolean {
  return isAuthError(error) && error.name === 'AuthRetryableFetchError';
}

function isCatalogued(code: string): code is ErrorCode {
  return Object.hasOwn(errorCatalogue, code);
}

// Placeholder values for a catalogue wording when the server's own rendering can't be trusted.
const neutralParams = {
  thing: 'item',
  things: 'items',
  field: 'value',
  n: 'the allowed number of',
  s: '60',
  status: 'in another state',
  verb: 'changed',
};

// Renderings the server may send for wordings whose subject varies ("An organization …",
// "This invitation is accepted, …"): plain words only, so no raw text gets through.
const words = "[\\w' -]+";
const variableSubjectPatterns: Partial<Record<ErrorCode, RegExp>> = {
  duplicate: new RegExp(`^An? ${words} with that ${words} already exists\\.$`),
  invalid_transition: new RegExp(`^This ${words} is ${words}, so it can't be ${words}\\.$`),
  not_found: new RegExp(`^We couldn't find that ${words}\\.$`),
};

/** The catalogue wording for `code`, reusing the server's filled-in title only when it matches it. */
function catalogueWording(code: ErrorCode, problem: Problem | null, retryAfterSeconds: number | null): string {
  const template: string = errorCatalogue[code].title;
  if (code === 'rate_limited' && retryAfterSeconds !== null) {
    return formatWording(template, { s: retryAfterSeconds });
  }
  if (!template.includes('{')) return template;
  if (problem?.title) {
    const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
    const pattern = variableSubjectPatterns[code] ?? new RegExp(`^${escaped.replace(/\{\w+\}/g, '.+')}$`);
    if (pattern.test(problem.title)) return problem.title;
  }
  return formatWording(template, neutralParams);
}

/** "A site with that external ref already exists." belongs beside the `external_ref` field. */
function duplicateField(wording: string): string | null {
  const match = /with that ([\w ]+) already exists\.$/.exec(wording);
  return match ? match[1].trim().replace(/ +/g, '_') : null;
}

function describeApiError(error: ApiError): UserFacingError {
  const { problem } = error;
  if (!problem || !isCatalogued(problem.code)) {
    const code: ErrorCode =
      error.status === null || error.status >= 502 ? 'service_unavailable' : error.status === 401 ? 'unauthenticated' : 'internal_error';
    return { message: errorCatalogue[code].title, fieldErrors: {}, code };
  }
  const fieldErrors: Record<string, string> = {};
  for (const fieldError of problem.errors ?? []) {
    fieldErrors[fieldError.field] ??= fieldError.message;
  }
  let message = catalogueWording(problem.code, problem, error.retryAfterSeconds);
  if (problem.code === 'duplicate' && Object.keys(fieldErrors).length === 0) {
    const field = duplicateField(message);
    if (field) fieldErrors[field] = message;
  }
  if (problem.code === 'internal_error' && problem.request_id) {
    message = `${message} Reference: ${problem.request_id}.`;
  }
  return { message, fieldErrors, code: problem.code };
}

// Auth error codes that are about one field of the form rather than the whole request.
const authFieldOfCode: Record<string, string> = {
  weak_password: 'password',
  same_password: 'password',
  email_address_invalid: 'email',
  email_exists: 'email',
  user_already_exists: 'email',
  mfa_verification_failed: 'code',
};

/** Describes any failure with wording from the catalogue; raw error text never reaches the user. */
export function describeError(error: unknown): UserFacingError {
  if (error instanceof ApiError) return describeApiError(error);
  if (isAuthRetryableFetchError(error)) {
    return { message: errorCatalogue.service_unavailable.title, fieldErrors: {}, code: 'service_unavailable' };
  }
  if (isAuthError(error)) {
    const code = error.code;
    const wording = authErrorMessage(code);
    const field = code ? authFieldOfCode[code] : undefined;
    if (field) return { fieldErrors: { [field]: wording }, code };
    return { message: wording, fieldErrors: {}, code };
  }
  return { message: errorCatalogue.internal_error.title, fieldErrors: {}, code: 'internal_error' };
}

/** One sentence for a failed action that has no form (a button in a table row): field messages first. */
export function describeErrorSentence(error: unknown): string {
  const described = describeError(error);
  const fieldMessages = Object.values(described.fieldErrors);
  return fieldMessages.length > 0 ? fieldMessages.join(' ') : (described.message ?? errorCatalogue.internal_error.title);
}
