-- Issue 24 finding 6: creating a webhook or replacing its secret with an Idempotency-Key stored the
-- whole answer, signing secret included, in idempotency_keys.response_body. The routes now keep the
-- answer without it (a retry gets `secret: null`, as an API key's create always did), but rows
-- written before stay: a stored answer is removed only when its sender sends another keyed request
-- after it expired, so a secret could sit there for good. This nulls every secret still stored,
-- which is what a retry of those requests answers from now on.
update public.idempotency_keys
set response_body = jsonb_set(response_body, '{secret}', 'null'::jsonb)
where jsonb_typeof(response_body -> 'secret') = 'string';
