// Every failure of the API is an ApiError carrying one catalogue code (docs/product.md §8); handlers
// only throw, and renderProblem turns whatever was thrown into an RFC 9457 problem document.
// Database errors are mapped by SQLSTATE; their raw text is logged, never sent.
import { type ErrorCode, errorCatalogue, type FieldError, formatWording, type Problem } from './schemas/errors.ts';

export const PROBLEM_TYPE_BASE = 'https://fieldcheck.app/problems/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

type WordingParams = Record<string, string | number>;

interface ApiErrorOptions {
  params?: WordingParams;
  detail?: string;
  errors?: FieldError[];
  headers?: Record<string, string>;
  /** Extension members of the problem document (RFC 9457 §3.2), e.g. `missing`, `current`. */
  extensions?: ProblemExtensions;
  cause?: unknown;
}

type ProblemExtensions = Pick<Problem, 'missing' | 'current'>;

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  readonly extensions: ProblemExtensions;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    const title = formatWording(errorCatalogue[code].title, options.params);
    super(title, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = errorCatalogue[code].status;
    this.title = title;
    this.detail = options.detail ?? title;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions ?? {};
  }

  static unauthenticated(detail = 'A valid access token is required.'): ApiError {
    return new ApiError('unauthenticated', { detail });
  }
  static sessionExpired(): ApiError {
    return new ApiError('session_expired', { detail: 'The access token has expired.' });
  }
  static mfaRequired(): ApiError {
    return new ApiError('mfa_required', { detail: 'This action needs a session verified with a second factor (aal2).' });
  }
  static forbidden(detail?: string): ApiError {
    return new ApiError('forbidden', { detail });
  }
  static notFound(thing: string): ApiError {
    return new ApiError('not_found', { params: { thing } });
  }
  static validation(errors: FieldError[], detail?: string): ApiError {
    const count = errors.length;
    return new ApiError('validation_failed', {
      errors,
      detail: detail ?? (count === 1 ? '1 field needs attention.' : `${count} fields need attention.`),
    });
  }
  static requiredItemsMissing(missing: string[]): ApiError {
    return new ApiError('required_items_missing', { params: { n: missing.length }, extensions: { missing } });
  }
  static invalidTransition(status: string, verb: string, thing = 'inspection'): ApiError {
    return new ApiError('invalid_transition', { params: { thing, status, verb } });
  }
  /** `current`: the rows as they are now, so the client can show them and retry. */
  static staleVersion(current: unknown[] = []): ApiError {
    return new ApiError('stale_version', { extensions: { current } });
  }
  static duplicate(thing: string, field: string): ApiError {
    return new ApiError('duplicate', { params: { thing, field } });
  }
  static limitExceeded(n: number, things: string): ApiError {
    return new ApiError('limit_exceeded', { params: { n, things } });
  }
  static idempotencyConflict(): ApiError {
    return new ApiError('idempotency_conflict');
  }
  /** `limitBytes` is shown in MB, as the catalogue words it. */
  static payloadTooLarge(limitBytes: number, detail?: string): ApiError {
    const mb = Math.round((limitBytes / (1024 * 1024)) * 100) / 100;
    return new ApiError('payload_too_large', { params: { n: mb }, detail });
  }
  static unsupportedMediaType(detail?: string): ApiError {
    return new ApiError('unsupported_media_type', { detail });
  }
  /** `headers`: more fields for the answer, e.g. RateLimit and RateLimit-Policy. */
  static rateLimited(retryAfterSeconds: number, headers: Record<string, string> = {}): ApiError {
    const s = Math.max(1, Math.ceil(retryAfterSeconds));
    return new ApiError('rate_limited', { params: { s }, headers: { ...headers, 'retry-after': String(s) } });
  }
  static serviceUnavailable(cause?: unknown): ApiError {
    return new ApiError('service_unavailable', { headers: { 'retry-after': '1' }, cause });
  }
  static internal(cause?: unknown): ApiError {
    return new ApiError('internal_error', { cause });
  }
}

/** The fields postgres.js puts on a server error (PostgresError). */
interface PgErrorLike {
  code: string;
  message?: string;
  detail?: string;
  hint?: string;
  table_name?: string;
  column_name?: string;
  constraint_name?: string;
}

function isPgError(error: unknown): error is PgErrorLike {
  return (
    typeof error === 'object' && error !== null && 'code' in error &&
    typeof (error as { code: unknown }).code === 'string' &&
    (error as { name?: unknown }).name === 'PostgresError'
  );
}

// postgres.js client-side connection failures: the database is unreachable for a moment.
// EPIPE is a write on a connection the server closed as it died ("This socket has been ended by
// the other party"), seen when Postgres is killed under load (tests/stack/lifecycle/faults.test.ts).
const CONNECTION_ERROR_CODES = new Set([
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
]);

// Server states in which a retry shortly after is the right advice.
const RETRYABLE_SQLSTATES = new Set(['40001', '40P01', '53300', '57P01', '57P02', '57P03']);
const VALIDATION_SQLSTATES = new Set(['23514', '22001', '23502', '22P02']);

function isErrorCode(value: string | undefined): value is ErrorCode {
  return value !== undefined && Object.hasOwn(errorCatalogue, value);
}

/** "api_keys" → "api key": wording placeholders name things the way users do. */
function thingFromTable(table: string | undefined): string {
  if (!table) return 'record';
  return table.replace(/_/g, ' ').replace(/s$/, '');
}

/**
 * Postgres leaves the key out of a unique violation's detail when row-level security is on, so
 * the columns come from the constraint's name instead: `sites_org_id_external_ref_key` →
 * `org_id, external_ref` (the migrations name unique constraints `<table>_<columns>_key`).
 */
function columnsFromConstraint(error: PgErrorLike): string | undefined {
  const name = error.constraint_name;
  const table = error.table_name;
  if (!name || !table || !name.startsWith(`${table}_`) || !name.endsWith('_key')) return undefined;
  const columns = name.slice(table.length + 1, -'_key'.length);
  return columns.startsWith('org_id_') ? `org_id, ${columns.slice('org_id_'.length)}` : columns;
}

/** A `raise exception` DETAIL parsed as JSON: null unless it is an object. */
function detailObject(detail: string | undefined): Record<string, unknown> | null {
  if (!detail) return null;
  try {
    const parsed: unknown = JSON.parse(detail);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed as Record<string, unknown> : null;
  } catch {
    return null;
  }
}

/** Reads wording parameters that a `raise exception` put in its DETAIL as a JSON object. */
function paramsFromDetail(detail: string | undefined): WordingParams {
  const params: WordingParams = {};
  for (const [key, value] of Object.entries(detailObject(detail) ?? {})) {
    if (typeof value === 'string' || typeof value === 'number') params[key] = value;
  }
  return params;
}

/** The extension member SQL may attach to these two codes (an array in the JSON DETAIL). */
function extensionsFromDetail(code: ErrorCode, detail: string | undefined): ProblemExtensions {
  const parsed = detailObject(detail) ?? {};
  if (code === 'required_items_missing' && Array.isArray(parsed.missing)) {
    return { missing: parsed.missing.filter((key) => typeof key === 'string') };
  }
  if (code === 'stale_version' && Array.isArray(parsed.current)) return { current: parsed.current };
  return {};
}

/**
 * Maps a Postgres error to the catalogue. SQL raises product errors with
 * `raise exception '<catalogue code>' using detail = '{"status":"approved",…}'` (or the code as
 * HINT); the JSON detail only fills the catalogue wording's placeholders.
 */
export function fromPostgresError(error: PgErrorLike): ApiError {
  const code = error.code;
  if (code === '42501') return ApiError.forbidden();
  if (code === '23505') {
    const columns = (/Key \(([^)]+)\)=/.exec(error.detail ?? '')?.[1] ?? columnsFromConstraint(error) ?? 'value')
      .split(',').map((c) => c.trim());
    // Uniqueness within an organization: the organization is the scope, not the clash.
    const field = columns.filter((c) => c !== 'org_id').join(', ') || 'value';
    return ApiError.duplicate(thingFromTable(error.table_name), field.replace(/_/g, ' '));
  }
  if (VALIDATION_SQLSTATES.has(code)) {
    const field = error.column_name ?? 'body';
    return ApiError.validation([{ field, message: 'This value is not allowed.' }]);
  }
  if (RETRYABLE_SQLSTATES.has(code)) return ApiError.serviceUnavailable(error);
  if (code === 'P0001') {
    const named = isErrorCode(error.message) ? error.message : isErrorCode(error.hint) ? error.hint : undefined;
    if (named) {
      const params = paramsFromDetail(error.detail);
      // A rule that names the offending field (the last owner's role) reads like a form error.
      if (named === 'validation_failed' && typeof params.field === 'string' && typeof params.message === 'string') {
        return ApiError.validation([{ field: params.field, message: params.message }]);
      }
      if (named === 'invalid_transition' && params.thing === undefined) params.thing = 'inspection';
      return new ApiError(named, {
        params,
        // SQL may word the detail itself ("sent to another address"); never the raw error text.
        detail: typeof params.detail === 'string' ? params.detail : undefined,
        extensions: extensionsFromDetail(named, error.detail),
        cause: error,
      });
    }
  }
  return ApiError.internal(error);
}

/** A client-side failure that means the database connection went away (not a query error). */
export function isConnectionLoss(error: unknown): boolean {
  const clientCode = (error as { code?: unknown } | null)?.code;
  return typeof clientCode === 'string' && CONNECTION_ERROR_CODES.has(clientCode) && !isPgError(error);
}

/** Whatever was thrown, as an ApiError; unknown failures become internal_error. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isPgError(error)) return fromPostgresError(error);
  const clientCode = (error as { code?: unknown } | null)?.code;
  if (typeof clientCode === 'string' && CONNECTION_ERROR_CODES.has(clientCode)) {
    return ApiError.serviceUnavailable(error);
  }
  return ApiError.internal(error);
}

export function problemOf(error: ApiError, requestId: string): Problem {
  const problem: Problem = {
    type: `${PROBLEM_TYPE_BASE}${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    request_id: requestId,
  };
  if (error.errors && error.errors.length > 0) problem.errors = error.errors;
  if (error.extensions.missing) problem.missing = error.extensions.missing;
  if (error.extensions.current) problem.current = error.extensions.current;
  return problem;
}

export type ErrorLogger = (entry: Record<string, unknown>) => void;

export const logToConsole: ErrorLogger = (entry) => console.error(JSON.stringify(entry));

/**
 * The one way an error leaves the API: an RFC 9457 document with the catalogue wording. Server
 * side failures (5xx) are logged with the request id and the real error; the client gets only
 * the request id to quote.
 */
export function renderProblem(
  thrown: unknown,
  requestId: string,
  log: ErrorLogger = logToConsole,
): Response {
  const error = toApiError(thrown);
  if (error.status >= 500) {
    const cause = error.cause ?? thrown;
    log({
      level: 'error',
      request_id: requestId,
      code: error.code,
      error: cause instanceof Error ? { name: cause.name, message: cause.message, stack: cause.stack } : String(cause),
      sqlstate: isPgError(cause) ? cause.code : undefined,
    });
  }
  const problem = problemOf(error, requestId);
  if (error.code === 'internal_error') {
    problem.detail = `${error.title} Reference: ${requestId}.`;
  }
  return new Response(JSON.stringify(problem), {
    status: error.status,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'x-request-id': requestId, ...error.headers },
  });
}
