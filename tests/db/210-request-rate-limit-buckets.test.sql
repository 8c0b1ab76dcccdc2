-- The request rate limit's token bucket (private.take_request_token), one statement since issue 15:
-- a new caller starts full less the token just taken, a drained bucket refuses with when to
-- retry, refills with time, and callers do not share a bucket. Only the service role may take.
begin;
select plan(11);

select is((select row(allowed, remaining, retry_after_s)::text from private.take_request_token('test-210:a', 2, 0.001)),
  '(t,1,0)', 'a new bucket allows the first request and keeps capacity - 1 whole tokens');
select is((select row(allowed, remaining, retry_after_s)::text from private.take_request_token('test-210:a', 2, 0.001)),
  '(t,0,0)', 'the second request takes the last token');
select is((select row(allowed, remaining)::text from private.take_request_token('test-210:a', 2, 0.001)),
  '(f,0)', 'a drained bucket refuses');
select ok((select retry_after_s between 1 and 1000 from private.take_request_token('test-210:a', 2, 0.001)),
  'a refusal says when one token is back (a token per 1000 s here)');
select is((select last_allowed from private.request_buckets where bucket = 'test-210:a'), false,
  'the bucket remembers that its latest take was refused');
select is((select row(allowed, remaining)::text from private.take_request_token('test-210:b', 2, 0.001)),
  '(t,1)', 'another caller has a bucket of its own');

-- Time passes: a bucket last refilled a minute ago at one token a second is full again.
update private.request_buckets set refilled_at = clock_timestamp() - interval '1 minute' where bucket = 'test-210:a';
select is((select row(allowed, remaining, retry_after_s)::text from private.take_request_token('test-210:a', 2, 1)),
  '(t,1,0)', 'a refilled bucket allows again, never above its capacity');
select is((select full_in_s from private.take_request_token('test-210:a', 2, 1)), 2,
  'full_in_s says how long until the bucket is full again');
select cmp_ok((select tokens from private.request_buckets where bucket = 'test-210:a'), '>=', 0::double precision,
  'tokens never go below zero');

set local role authenticated;
select throws_ok($$select * from private.take_request_token('test-210:c', 2, 1)$$, '42501', null,
  'a signed-in caller cannot take tokens itself');
reset role;
set local role service_role;
select lives_ok($$select * from private.take_request_token('test-210:c', 2, 1)$$, 'the service role can');
reset role;

select * from finish();
rollback;
