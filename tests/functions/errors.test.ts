// Every catalogue code renders as an RFC 9457 document with its status and wording, and
// database failures are mapped without their raw text ever reaching the client.
import assert from 'node:assert/strict';
import { ApiError, type ErrorLogger, fromPostgresError, renderProblem, toApiError } from '../../supabase/functions/_shared/errors.ts';
import { type ErrorCode, errorCatalogue, type Problem } from '../../supabase/functions/_shared/schemas/errors.ts';

const silent: ErrorLogger = () => {};
const requestId = 'req-test-1';

function pgError(fields: Record<string, string>): Error {
  const error = new Error(fields.message ?? 'raw database message');
  error.name = 'PostgresError';
  return Object.assign(error, fields);
}

async function render(error: unknown, log: ErrorLogger = silent): Promise<{ response: Response; problem: Problem; text: string }> {
  const response = renderProblem(error, requestId, log);
  const text = await response.text();
  return { response, problem: JSON.parse(text), text };
}

const factories: Record<ErrorCode, () => ApiError> = {
  unauthenticated: () => ApiError.unauthenticated(),
  session_expired: () => ApiError.sessionExpired(),
  mfa_required: () => ApiError.mfaRequired(),
  forbidden: () => ApiError.forbidden(),
  not_found: () => ApiError.notFound('site'),
  validation_failed: () => ApiError.validation([{ field: 'name', message: 'Enter a name.' }]),
  required_items_missing: () => ApiError.requiredItemsMissing(['a', 'b', 'c']),
  invalid_transition: () => ApiError.invalidTransition('approved', 'edited'),
  stale_version: () => ApiError.staleVersion(),
  duplicate: () => ApiError.duplicate('organization', 'slug'),
  limit_exceeded: () => ApiError.limitExceeded(10, 'webhooks'),
  idempotency_conflict: () => ApiError.idempotencyConflict(),
  payload_too_large: () => ApiError.payloadTooLarge(10 * 1024 * 1024),
  unsupported_media_type: () => ApiError.unsupportedMediaType(),
  rate_limited: () => ApiError.rateLimited(12),
  service_unavailable: () => ApiError.serviceUnavailable(),
  internal_error: () => ApiError.internal(new Error('boom')),
};

const expectedTitles: Partial<Record<ErrorCode, string>> = {
  not_found: "We couldn't find that site.",
  required_items_missing: 'Answer all required items before submitting (3 left).',
  invalid_transition: "This inspection is approved, so it can't be edited.",
  duplicate: 'An organization with that slug already exists.',
  limit_exceeded: "You've reached the limit of 10 webhooks.",
  payload_too_large: 'That file is too large. The limit is 10 MB.',
  rate_limited: 'Too many requests. Try again in 12 seconds.',
};

for (const code of Object.keys(errorCatalogue) as ErrorCode[]) {
  Deno.test(`${code} renders with status ${errorCatalogue[code].status} and its catalogue wording`, async () => {
    const { response, problem } = await render(factories[code]());
    assert.equal(response.status, errorCatalogue[code].status);
    assert.equal(response.headers.get('content-type'), 'application/problem+json');
    assert.equal(response.headers.get('x-request-id'), requestId);
    assert.equal(problem.code, code);
    assert.equal(problem.status, errorCatalogue[code].status);
    assert.equal(problem.type, `https://fieldcheck.app/problems/${code}`);
    assert.equal(problem.title, expectedTitles[code] ?? errorCatalogue[code].title);
    assert.doesNotMatch(problem.title, /\{\w+\}/, 'a placeholder was left unfilled');
    assert.equal(typeof problem.detail, 'string');
    assert.equal(problem.request_id, requestId);
  });
}

Deno.test('validation problems carry their field errors', async () => {
  const { problem } = await render(ApiError.validation([{ field: 'display_name', message: 'Enter a display name.' }]));
  assert.deepEqual(problem.errors, [{ field: 'display_name', message: 'Enter a display name.' }]);
});

Deno.test('rate_limited sends Retry-After', async () => {
  const { response } = await render(ApiError.rateLimited(7.2));
  assert.equal(response.headers.get('retry-after'), '8');
});

const pgCases: Array<[string, ErrorCode, number]> = [
  ['42501', 'forbidden', 403],
  ['23505', 'duplicate', 409],
  ['23514', 'validation_failed', 422],
  ['22001', 'validation_failed', 422],
  ['23502', 'validation_failed', 422],
  ['22P02', 'validation_failed', 422],
  ['40001', 'service_unavailable', 503],
  ['40P01', 'service_unavailable', 503],
  ['42P01', 'internal_error', 500],
  ['XX000', 'internal_error', 500],
];

for (const [sqlstate, code, status] of pgCases) {
  Deno.test(`postgres error ${sqlstate} becomes ${code} without leaking the database's text`, async () => {
    const secret = `relation "private.secret_${sqlstate}" leaked at line 42`;
    const { response, problem, text } = await render(
      pgError({ code: sqlstate, message: secret, detail: `Key (slug)=(acme) already exists. ${secret}`, table_name: 'organizations' }),
    );
    assert.equal(response.status, status);
    assert.equal(problem.code, code);
    assert.ok(!text.includes('secret_'), `raw database text leaked: ${text}`);
    assert.ok(!text.includes('line 42'));
  });
}

Deno.test('a unique violation names the thing and the field', () => {
  const error = fromPostgresError({ code: '23505', detail: 'Key (slug)=(acme) already exists.', table_name: 'organizations' });
  assert.equal(error.title, 'An organization with that slug already exists.');
});

Deno.test('a not-null violation points at its column', () => {
  const error = fromPostgresError({ code: '23502', column_name: 'display_name' });
  assert.deepEqual(error.errors, [{ field: 'display_name', message: 'This value is not allowed.' }]);
});

Deno.test('P0001 raised with a catalogue code as message becomes that code with its parameters', async () => {
  const { response, problem } = await render(
    pgError({ code: 'P0001', message: 'invalid_transition', detail: '{"status":"approved","verb":"started"}' }),
  );
  assert.equal(response.status, 409);
  assert.equal(problem.code, 'invalid_transition');
  assert.equal(problem.title, "This inspection is approved, so it can't be started.");
});

Deno.test('P0001 with a catalogue code as hint becomes that code', async () => {
  const { problem } = await render(pgError({ code: 'P0001', message: 'some internal sentence', hint: 'stale_version' }));
  assert.equal(problem.code, 'stale_version');
  assert.ok(!JSON.stringify(problem).includes('internal sentence'));
});

Deno.test('P0001 without a catalogue code is an internal error', async () => {
  const { problem } = await render(pgError({ code: 'P0001', message: 'not_a_code', hint: 'nope' }));
  assert.equal(problem.code, 'internal_error');
});

Deno.test('an unexpected exception is a 500 with the request id, logged but not shown', async () => {
  const logged: Array<Record<string, unknown>> = [];
  const { response, problem, text } = await render(new TypeError('cannot read x of undefined at handler.ts:12'), (entry) => logged.push(entry));
  assert.equal(response.status, 500);
  assert.equal(problem.code, 'internal_error');
  assert.ok(problem.detail.includes(requestId));
  assert.ok(!text.includes('handler.ts'), 'stack or message leaked');
  assert.ok(!text.includes('cannot read'));
  assert.equal(logged.length, 1);
  assert.equal(logged[0].request_id, requestId);
  assert.match(JSON.stringify(logged[0]), /cannot read x of undefined/);
});

Deno.test('client errors are not logged as failures', async () => {
  const logged: unknown[] = [];
  await render(ApiError.notFound('profile'), (entry) => logged.push(entry));
  assert.equal(logged.length, 0);
});

Deno.test('a lost database connection is service_unavailable', () => {
  const error = Object.assign(new Error('write CONNECTION_CLOSED'), { code: 'CONNECTION_CLOSED' });
  assert.equal(toApiError(error).code, 'service_unavailable');
});

Deno.test('a write on a connection the dying server closed (EPIPE) is service_unavailable', () => {
  // What Deno's node:net throws when Postgres is killed mid-request (tests/stack/lifecycle/faults.test.ts).
  const error = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
  assert.equal(toApiError(error).code, 'service_unavailable');
});

Deno.test('thrown non-errors are internal errors', () => {
  assert.equal(toApiError('a string').code, 'internal_error');
  assert.equal(toApiError(null).code, 'internal_error');
});

Deno.test('a unique violation under RLS (no key in the detail) names the field from the constraint, without org_id', () => {
  const error = fromPostgresError({ code: '23505', table_name: 'sites', constraint_name: 'sites_org_id_external_ref_key' });
  assert.equal(error.title, 'A site with that external ref already exists.');
  const invitation = fromPostgresError({ code: '23505', table_name: 'invitations', constraint_name: 'invitations_org_id_email_key' });
  assert.equal(invitation.title, 'An invitation with that email already exists.');
});

Deno.test('P0001 validation_failed with a field and message in its detail is a per-field error', () => {
  const error = fromPostgresError({ code: 'P0001', message: 'validation_failed', detail: '{"field":"role","message":"An organization needs at least one owner."}' });
  assert.equal(error.code, 'validation_failed');
  assert.deepEqual(error.errors, [{ field: 'role', message: 'An organization needs at least one owner.' }]);
});

Deno.test('P0001 may word the detail itself; the raw message never shows', async () => {
  const { problem, text } = await render(
    pgError({ code: 'P0001', message: 'forbidden', detail: '{"detail":"This invitation was sent to another email address."}' }),
  );
  assert.equal(problem.code, 'forbidden');
  assert.equal(problem.detail, 'This invitation was sent to another email address.');
  assert.ok(!text.includes('P0001'));
});

Deno.test('invalid_transition names its thing, and defaults to the inspection wording of docs/product.md', () => {
  const invitation = fromPostgresError({ code: 'P0001', message: 'invalid_transition', detail: '{"thing":"invitation","status":"expired","verb":"accepted"}' });
  assert.equal(invitation.title, "This invitation is expired, so it can't be accepted.");
  assert.equal(ApiError.invalidTransition('submitted', 'started').title, "This inspection is submitted, so it can't be started.");
});

Deno.test('P0001 required_items_missing carries the count in its wording and the keys as `missing`', async () => {
  const { problem } = await render(
    pgError({ code: 'P0001', message: 'required_items_missing', detail: '{"n":2,"missing":["fridge-temp","signature"]}' }),
  );
  assert.equal(problem.title, 'Answer all required items before submitting (2 left).');
  assert.deepEqual(problem.missing, ['fridge-temp', 'signature']);
});

Deno.test('P0001 stale_version carries the current rows as `current`; other codes get no extension members', async () => {
  const current = [{ item_key: 'fridge-temp', value: 4, version: 3 }];
  const { problem } = await render(pgError({ code: 'P0001', message: 'stale_version', detail: JSON.stringify({ current }) }));
  assert.equal(problem.status, 409);
  assert.deepEqual(problem.current, current);
  const other = await render(pgError({ code: 'P0001', message: 'forbidden', detail: JSON.stringify({ current, missing: ['a'] }) }));
  assert.equal(other.problem.code, 'forbidden');
  assert.equal(other.problem.current, undefined);
  assert.equal(other.problem.missing, undefined);
});
