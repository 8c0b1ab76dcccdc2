-- private.take_request_token_or_stop (issue 24, finding 2): the head of a one-round-trip read's
-- message. It takes a token as take_request_token does, and raises FC429 with the numbers of
-- the refusal when none is left, so the rest of the message never runs. Only the service role
-- (and the connection's own role, which owns it) may call it.
begin;
select plan(6);

select is((select row(allowed, remaining, retry_after_s)::text from private.take_request_token_or_stop('test-211:a', 1, 0.001)),
  '(t,0,0)', 'with a token left it answers as take_request_token does');
select throws_ok($$select * from private.take_request_token_or_stop('test-211:a', 1, 0.001)$$, 'FC429', 'rate limited',
  'with none left it raises FC429');

create function pg_temp.refusal_detail() returns jsonb language plpgsql as $$
declare detail text;
begin
  perform * from private.take_request_token_or_stop('test-211:a', 1, 0.001);
  return null;
exception when sqlstate 'FC429' then
  get stacked diagnostics detail = pg_exception_detail;
  return detail::jsonb;
end;
$$;
select ok((select d ->> 'remaining' = '0' and (d ->> 'retry_after_s')::int between 1 and 1000 and (d ->> 'full_in_s')::int between 1 and 1000
           from pg_temp.refusal_detail() d),
  'the refusal carries remaining, retry_after_s and full_in_s as JSON in its detail');
select is((select last_allowed from private.request_buckets where bucket = 'test-211:a'), true,
  'the refused take left the bucket as it was (its update rolled back with the raise)');

set local role authenticated;
select throws_ok($$select * from private.take_request_token_or_stop('test-211:b', 2, 1)$$, '42501', null,
  'a signed-in caller cannot take tokens itself');
reset role;
set local role service_role;
select lives_ok($$select * from private.take_request_token_or_stop('test-211:b', 2, 1)$$, 'the service role can');
reset role;

select * from finish();
rollback;
