// The request wrapper every route goes through: request id, CORS, routing under the function's
// name, authentication, then strict zod parsing of path, query and body BEFORE the handler runs,
// so a handler only ever sees valid input from an authenticated caller. Handlers return data or
// a Response and throw ApiError for everything else.
import { z } from 'zod';
import type { Authenticator, Principal } from './auth.ts';
import { runAsCallerWith, type Rows, type Tx, withCaller } from './db.ts';
import type { InlineSql } from './sql-literal.ts';
import { ApiError, type ErrorLogger, logToConsole, renderProblem } from './errors.ts';
import {
  claimIdempotencyKey,
  idempotencyKeyOf,
  releaseIdempotencyKey,
  REPLAYED_HEADER,
  requestHash,
  storeIdempotentResponse,
  type StoredResponse,
} from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { FieldError } from './schemas/errors.ts';

/** docs/product.md §9: JSON bodies up to 256 KB. */
export const MAX_JSON_BODY_BYTES = 256 * 1024;

// Wire contract §1.4: what supabase-js and browsers send, and what they must be able to read.
const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': [
    'authorization', 'apikey', 'x-client-info', 'content-type', 'x-supabase-api-version', 'x-upsert',
    'cache-control', 'x-metadata', 'content-encoding', 'x-region', 'traceparent', 'tracestate',
    'baggage', 'prefer', 'range', 'accept-profile', 'content-profile', 'idempotency-key', 'x-request-id',
  ].join(', '),
  'access-control-expose-headers':
    'x-request-id, x-supabase-api-version, x-relay-error, content-disposition, x-total-count, link, retry-after, ratelimit, ratelimit-policy, idempotent-replayed',
  'access-control-max-age': '86400',
};

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type AnySchema = z.ZodType;
const noParams = z.strictObject({});

/**
 * What a route answers (docs/openapi.md): a named zod schema of `_shared/schemas` (its
 * `.meta({ id })` names it in openapi.json), a page of them, or a file by its media type.
 */
export type ResponseSpec = AnySchema | { list: AnySchema } | { file: string };

/** What a handler returns for `R`: the schema's output type, a page of it, or a Response. */
export type AnswerOf<R extends ResponseSpec | undefined> = R extends AnySchema ? z.output<R>
  : R extends { list: infer S extends AnySchema } ? { data: z.output<S>[]; next_cursor: string | null }
  : unknown;

export interface RouteContext<P, Q, B> {
  req: Request;
  requestId: string;
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  /**
   * Runs `fn` in the request's transaction as the caller (RLS applies). Every call of one
   * request shares the transaction when the request is idempotent (unless the route
   * `commitsOwnWork`); otherwise each call is one.
   */
  db: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;
  /**
   * Runs read-only statements as the caller in one round trip (db.ts, runAsCallerWith); each
   * statement's rows, in order. For the hot reads; anything that writes uses `db`.
   */
  read: (statements: readonly InlineSql[]) => Promise<Rows[]>;
  /**
   * Runs `fn` once the request's writes are committed and before the response leaves (mail about
   * what was written): never for a change that rolled back, never again for a replayed key. A
   * failure is logged, not answered: what the request did is done.
   */
  afterCommit: (fn: () => Promise<void>) => void;
}

export interface RouteDefinition<
  P extends AnySchema = typeof noParams,
  Q extends AnySchema = typeof noParams,
  B extends AnySchema | undefined = undefined,
  R extends ResponseSpec | undefined = undefined,
> {
  method: Method;
  /** Path below the function, with `:name` segments, e.g. `/orgs/:org/sites/:id`. */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Success status when the handler returns data (default 200). */
  status?: number;
  /** The route answers 204 with no body (its handler returns nothing). */
  empty?: boolean;
  /**
   * What a success answers: a named response schema of `_shared/schemas` (`siteSchema`), or a
   * page of them (`{ list: siteSchema }`, answered as `{ data, next_cursor }`). openapi.json
   * describes the answer with zod's JSON Schema of it, and the handler must return its output
   * type (docs/openapi.md). Every route that answers data names one; a file (a CSV, a PDF) is
   * named by its media type: `{ file: 'text/csv' }` (docs/reports.md).
   */
  response?: R;
  /**
   * Only a signed-in user calls this route (their profile, their organizations, members,
   * invitations, keys, webhooks, settings); an API key gets 403 before anything runs.
   */
  usersOnly?: boolean;
  /**
   * What an Idempotency-Key keeps of the answer for a retry, when not all of it may be stored
   * (an API key's secret exists in the first answer only). Default: the whole answer.
   */
  keptForRetry?: (result: never) => unknown;
  /** One line for the API reference (openapi.json); `METHOD /path` when absent. */
  summary?: string;
  /**
   * The handler's writes must be committed before it returns, because another service reads them
   * mid-request (Storage checks a pending attachment). Each `db` call then commits on its own, and
   * an Idempotency-Key is claimed and answered in short transactions around the handler instead of
   * one holding a pooled connection while the handler opens more.
   */
  commitsOwnWork?: boolean;
  handler: (
    ctx: RouteContext<z.output<P>, z.output<Q>, B extends AnySchema ? z.output<B> : undefined>,
  ) => Promise<AnswerOf<R> | Response>;
}

export interface Route {
  method: Method;
  segments: string[];
  definition: RouteDefinition<AnySchema, AnySchema, AnySchema | undefined, ResponseSpec | undefined>;
}

/** Declares a route; the generics carry the schemas' output types to the handler and its answer. */
export function route<
  P extends AnySchema = typeof noParams,
  Q extends AnySchema = typeof noParams,
  B extends AnySchema | undefined = undefined,
  R extends ResponseSpec | undefined = undefined,
>(definition: RouteDefinition<P, Q, B, R>): Route {
  const segments = definition.path.split('/').filter(Boolean);
  // Without a declared schema, each `:name` segment is still a required, non-empty string.
  const params = definition.params ??
    z.strictObject(Object.fromEntries(segments.filter((s) => s.startsWith(':')).map((s) => [s.slice(1), z.string().min(1)])));
  return {
    method: definition.method,
    segments,
    definition: { ...definition, params } as unknown as Route['definition'],
  };
}

/**
 * What `json` made each of its responses from, so the answer that leaves (`finish`) is built once
 * from the text and a plain header object, rather than by copying Headers and reading the body
 * back as a stream: that copying was ~12 % of the function's CPU on a small read (issue 15).
 */
const jsonAnswers = new WeakMap<Response, { text: string; status: number; headers: Record<string, string> }>();

/** Responses with data: JSON with the right content type. */
export function json(data: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(data);
  const allHeaders = { 'content-type': 'application/json', ...headers };
  const response = new Response(text, { status, headers: allHeaders });
  jsonAnswers.set(response, { text, status, headers: allHeaders });
  return response;
}

function matchPath(segments: string[], pathSegments: string[]): Record<string, string> | null {
  if (segments.length !== pathSegments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const pattern = segments[i];
    const actual = pathSegments[i];
    if (pattern.startsWith(':')) {
      try {
        params[pattern.slice(1)] = decodeURIComponent(actual);
      } catch {
        return null;
      }
    } else if (pattern !== actual) {
      return null;
    }
  }
  return params;
}

/** zod issues as the problem document's per-field errors; unknown keys get one entry each. */
export function fieldErrorsOf(error: z.ZodError, prefix?: string): FieldError[] {
  const errors: FieldError[] = [];
  for (const issue of error.issues) {
    const base = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        errors.push({ field: [prefix, ...base, key].filter(Boolean).join('.'), message: 'This field is not allowed.' });
      }
      continue;
    }
    const field = [prefix, ...base].filter(Boolean).join('.') || prefix || 'body';
    errors.push({ field, message: issue.message });
  }
  return errors;
}

function parseWith<T extends AnySchema>(schema: T, input: unknown, prefix?: string): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw ApiError.validation(fieldErrorsOf(result.error, prefix));
  return result.data;
}

function queryObject(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return query;
}

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0].trim().toLowerCase();
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Reads at most MAX_JSON_BODY_BYTES of the body; more is refused without reading the rest. */
async function readBodyText(req: Request): Promise<string> {
  const tooLarge = () =>
    ApiError.payloadTooLarge(MAX_JSON_BODY_BYTES, `Request bodies are limited to ${MAX_JSON_BODY_BYTES / 1024} KB.`);
  const declared = Number(req.headers.get('content-length') ?? 'NaN');
  if (Number.isFinite(declared) && declared > MAX_JSON_BODY_BYTES) throw tooLarge();
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_JSON_BODY_BYTES) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function bodyError(message: string): ApiError {
  return ApiError.validation([{ field: 'body', message }]);
}

async function readJsonBody(req: Request, expectsBody: boolean): Promise<unknown> {
  const text = await readBodyText(req);
  if (!expectsBody) {
    if (text.length > 0) throw bodyError('This request does not take a body.');
    return undefined;
  }
  if (!isJsonContentType(req.headers.get('content-type'))) {
    throw bodyError('Send the body as JSON with Content-Type: application/json.');
  }
  if (text.trim().length === 0) throw bodyError('Send a JSON body.');
  try {
    return JSON.parse(text);
  } catch {
    throw bodyError('The body is not valid JSON.');
  }
}

const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `x-request-id` when it looks like one, otherwise a fresh UUID. */
export function requestIdOf(req: Request): string {
  const given = req.headers.get('x-request-id');
  return given && REQUEST_ID_PATTERN.test(given) ? given : crypto.randomUUID();
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

// JSON answers this large or larger go gzipped to a caller that accepts it: an inspection of 500
// items is ~60 KB of JSON, ~6 KB gzipped, which a phone on a slow network feels (docs/offline.md,
// "Weight"). Deno.serve does not compress by itself; smaller answers are not worth the work.
const COMPRESS_FROM_BYTES = 1024;

/** Whether the request's Accept-Encoding takes gzip (and does not refuse it with q=0). */
export function acceptsGzip(req: Request): boolean {
  const header = req.headers.get('accept-encoding') ?? '';
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** `response` gzipped when the caller takes gzip and it is JSON of some size; otherwise as it is. */
export async function compressed(req: Request, response: Response): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || response.headers.has('content-encoding') || !/^application\/(problem\+)?json\b/.test(type)) return response;
  const vary = new Headers(response.headers);
  vary.append('vary', 'accept-encoding');
  if (!acceptsGzip(req)) return new Response(response.body, { status: response.status, statusText: response.statusText, headers: vary });
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.byteLength < COMPRESS_FROM_BYTES) return new Response(bytes, { status: response.status, statusText: response.statusText, headers: vary });
  const gzipped = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  vary.set('content-encoding', 'gzip');
  vary.delete('content-length');
  return new Response(gzipped, { status: response.status, statusText: response.statusText, headers: vary });
}

/**
 * The answer that leaves: `response` with `extra` headers, gzipped as `compressed` would. A JSON
 * answer made by `json` is built in one go from its text; any other goes the general way.
 */
async function finish(req: Request, response: Response, extra: Record<string, string>): Promise<Response> {
  const known = jsonAnswers.get(response);
  if (!known) return await compressed(req, withHeaders(response, extra));
  const headers: Record<string, string> = { ...known.headers, ...extra };
  headers.vary = headers.vary ? `${headers.vary}, accept-encoding` : 'accept-encoding';
  if (!acceptsGzip(req)) return new Response(known.text, { status: known.status, headers });
  const bytes = new TextEncoder().encode(known.text);
  if (bytes.byteLength < COMPRESS_FROM_BYTES) return new Response(bytes, { status: known.status, headers });
  const gzipped = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
  headers['content-encoding'] = 'gzip';
  return new Response(gzipped, { status: known.status, headers });
}

/** A handler's result as a response: data as JSON with `status`, nothing as 204. */
function responseOf(result: unknown, status: number): Response {
  if (result instanceof Response) return result;
  if (result === undefined) return new Response(null, { status: 204 });
  return json(result, status);
}

/** The stored answer of an Idempotency-Key, sent again. */
function replayOf(stored: StoredResponse): Response {
  return withHeaders(responseOf(stored.body ?? undefined, stored.status), { [REPLAYED_HEADER]: 'true' });
}

/**
 * Stores a keyed request's answer with `store` (a Response of the handler's own is not kept; of
 * data, what `kept` keeps), then sends it whole.
 */
async function answerKey(
  result: unknown,
  status: number,
  store: (response: StoredResponse) => Promise<void>,
  kept: (result: unknown) => unknown = (whole) => whole,
): Promise<Response> {
  if (result instanceof Response) return result;
  await store({ status: result === undefined ? 204 : status, body: result === undefined ? null : kept(result) });
  return responseOf(result, status);
}

export interface HandlerOptions {
  /** The function's name: Supabase hands it paths starting with `/<name>`. */
  basePath: string;
  routes: Route[];
  /** Served without authentication at `GET <basePath>/openapi.json` (docs/openapi.md). */
  openApiDocument?: () => unknown;
  authenticator: () => Authenticator;
  /** Takes each authenticated request from its caller's bucket (rate-limit.ts); none: no limit. */
  rateLimiter?: () => RateLimiter;
  log?: ErrorLogger;
}

/** Builds the `Deno.serve` handler of a function from its routes. */
export function createHandler(options: HandlerOptions): (req: Request) => Promise<Response> {
  const base = options.basePath.split('/').filter(Boolean);

  /** `answerHeaders` collects fields every answer to this request carries, errors included. */
  async function dispatch(req: Request, requestId: string, answerHeaders: Record<string, string>): Promise<Response> {
    const url = new URL(req.url);
    const pathSegments = url.pathname.split('/').filter(Boolean);
    const underBase = base.every((segment, i) => pathSegments[i] === segment);
    if (!underBase) throw ApiError.notFound('page');
    const routePath = pathSegments.slice(base.length);

    let matched: { route: Route; params: Record<string, string> } | undefined;
    for (const candidate of options.routes) {
      if (candidate.method !== req.method) continue;
      const params = matchPath(candidate.segments, routePath);
      if (params) {
        matched = { route: candidate, params };
        break;
      }
    }
    if (!matched) throw ApiError.notFound('page');

    const definition = matched.route.definition;
    const principal = await options.authenticator().authenticate(req);
    const limiter = options.rateLimiter?.();
    // The request's token from its caller's bucket (rate-limit.ts) is taken before the request's
    // first database work: at the head of a one-round-trip read's message (`read`), where a
    // refusal stops the message before any of the read's statements runs, otherwise in a
    // statement of its own. A request that never reaches the database (bad input, no SQL) takes
    // it on the way out; a caller over the limit gets the 429 either way.
    let tokenTaken = !limiter;
    const takeToken = async () => {
      if (tokenTaken) return;
      tokenTaken = true;
      Object.assign(answerHeaders, await limiter!.take(principal));
    };
    const read = async (statements: readonly InlineSql[]): Promise<Rows[]> => {
      if (tokenTaken) return (await runAsCallerWith(principal, statements)).rows;
      tokenTaken = true;
      let result: Awaited<ReturnType<typeof runAsCallerWith>>;
      try {
        result = await runAsCallerWith(principal, statements, { first: limiter!.statement(principal) });
      } catch (error) {
        // Refused: the message stopped at its first statement, nothing of the read ran.
        const refused = limiter!.refusal(principal, error);
        if (refused) throw refused;
        // The message failed as a whole, its token too: the request still counts.
        Object.assign(answerHeaders, await limiter!.take(principal));
        throw error;
      }
      Object.assign(answerHeaders, limiter!.settle(principal, result.first!));
      return result.rows;
    };
    const matchedParams = matched.params;
    try {
      const response = await handle();
      await takeToken();
      return response;
    } catch (error) {
      await takeToken();
      throw error;
    }

    async function handle(): Promise<Response> {
      if (definition.usersOnly && principal.kind !== 'user') throw ApiError.forbidden('An API key cannot do this; sign in as a member.');
      const params = parseWith(definition.params ?? noParams, matchedParams);
      const query = parseWith(definition.query ?? noParams, queryObject(url), 'query');
      const rawBody = await readJsonBody(req, definition.body !== undefined);
      const body = definition.body ? parseWith(definition.body, rawBody) : undefined;

      const status = definition.status ?? 200;
      const committed: (() => Promise<void>)[] = [];
      const context = {
        req,
        requestId,
        principal,
        params,
        query,
        body,
        afterCommit: (fn: () => Promise<void>) => void committed.push(fn),
        read,
      };
      const response = await respond();
      for (const fn of committed) {
        await fn().catch((error) => (options.log ?? logToConsole)({ level: 'error', request_id: requestId, after_commit: true, error: String(error) }));
      }
      return response;

      /** The handler's response, or the stored one of a key used before. */
      async function respond(): Promise<Response> {
        const key = req.method === 'POST' ? idempotencyKeyOf(req) : null;
        if (key === null) {
          const db = async <T>(fn: (tx: Tx) => Promise<T>) => {
            await takeToken();
            return await withCaller(principal, fn);
          };
          return responseOf(await definition.handler({ ...context, db }), status);
        }
        await takeToken();
        const hash = await requestHash(req.method, url.pathname, rawBody);
        const kept = definition.keptForRetry as ((result: unknown) => unknown) | undefined;
        if (definition.commitsOwnWork) {
          const stored = await withCaller(principal, (tx) => claimIdempotencyKey(tx, key, hash, { ahead: true }));
          if (stored) return replayOf(stored);
          let result: unknown;
          try {
            result = await definition.handler({ ...context, db: (fn) => withCaller(principal, fn) });
          } catch (error) {
            // A failed request leaves no key behind, as on the one-transaction path.
            await withCaller(principal, (tx) => releaseIdempotencyKey(tx, key)).catch(() => undefined);
            throw error;
          }
          return await answerKey(result, status, (response) => withCaller(principal, (tx) => storeIdempotentResponse(tx, key, response)), kept);
        }
        // One transaction for the key and the handler's writes: both commit, or neither does.
        return await withCaller(principal, async (tx) => {
          const stored = await claimIdempotencyKey(tx, key, hash);
          if (stored) return replayOf(stored);
          // Inside the key's transaction, reads run in it too (the caller's settings are in force).
          const read = (statements: readonly InlineSql[]) => Promise.all(statements.map((statement) => tx.unsafe<Rows>(statement.text))) as Promise<Rows[]>;
          const result = await definition.handler({ ...context, db: (fn) => fn(tx), read });
          return await answerKey(result, status, (response) => storeIdempotentResponse(tx, key, response), kept);
        });
      }
    }
  }

  return async (req) => {
    const requestId = requestIdOf(req);
    const common = { ...CORS_HEADERS, 'x-request-id': requestId };
    if (req.method === 'OPTIONS') return new Response(null, { status: 204, headers: common });
    if (options.openApiDocument && req.method === 'GET' && new URL(req.url).pathname === `${options.basePath}/openapi.json`) {
      // The description of the API is public, as the routes' shapes are no secret: no token needed.
      return await finish(req, json(options.openApiDocument(), 200, { 'cache-control': 'public, max-age=300' }), common);
    }
    const answerHeaders: Record<string, string> = {};
    try {
      return await finish(req, await dispatch(req, requestId, answerHeaders), { ...answerHeaders, ...common });
    } catch (error) {
      return await finish(req, renderProblem(error, requestId, options.log), { ...answerHeaders, ...common });
    }
  };
}
