-- Issue 24, finding 2: a one-round-trip read (ctx.read in the api) sends its rate-limit token,
-- the caller's settings and its statements as one simple-protocol message. The token used to be
-- a plain select, so a caller over the limit got its 429 while its searches, lists and dashboards
-- still ran. This variant raises when no token is left: Postgres runs such a message as one
-- implicit transaction and stops at the first error, so none of the statements after it runs.
-- The raise also rolls back the refused take's own update, which changes nothing that matters:
-- a refused take spends no token, and the refill is computed from the row as it was.
create or replace function private.take_request_token_or_stop(bucket text, capacity integer, per_second double precision)
returns table (allowed boolean, remaining integer, retry_after_s integer, full_in_s integer)
language plpgsql
volatile
set search_path = ''
as $$
declare
  taken record;
begin
  select t.allowed, t.remaining, t.retry_after_s, t.full_in_s into taken
  from private.take_request_token(bucket, capacity, per_second) t;
  if not taken.allowed then
    -- FC429: the api answers 429 with the numbers in the detail (RateLimit, Retry-After).
    raise exception 'rate limited' using
      errcode = 'FC429',
      detail = json_build_object('remaining', taken.remaining, 'retry_after_s', taken.retry_after_s, 'full_in_s', taken.full_in_s)::text;
  end if;
  return query select taken.allowed, taken.remaining, taken.retry_after_s, taken.full_in_s;
end;
$$;

comment on function private.take_request_token_or_stop(text, integer, double precision) is
  'take_request_token, raising FC429 (the numbers as JSON in its detail) when no token is left, so a message it starts stops there.';

revoke all on function private.take_request_token_or_stop(text, integer, double precision) from public, anon, authenticated;
grant execute on function private.take_request_token_or_stop(text, integer, double precision) to service_role;
