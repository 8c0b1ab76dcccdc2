-- Issue 15: the rate limit's token is taken on every API request, so it is now one statement
-- instead of three (an insert that did nothing for a known caller, a select … for update, and an
-- update). `insert … on conflict do update` creates a new caller's bucket or updates the known
-- one under its row lock; the refill is computed from the row as locked, so concurrent requests
-- of one caller still take turns and no token is spent twice. Whether the request was allowed is
-- kept in the row, because RETURNING sees only the new values.

alter table private.request_buckets add column last_allowed boolean not null default true;

comment on column private.request_buckets.last_allowed is
  'Whether the latest take found a whole token (what take_request_token returns as allowed).';

create or replace function private.take_request_token(bucket text, capacity integer, per_second double precision)
returns table (allowed boolean, remaining integer, retry_after_s integer, full_in_s integer)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  -- clock_timestamp, not now(): the refill is about wall time, whatever transaction this is in.
  at timestamptz := clock_timestamp();
  level double precision;
begin
  insert into private.request_buckets as b (bucket, tokens, refilled_at, last_allowed)
  values (take_request_token.bucket, capacity - 1, at, true)
  on conflict on constraint request_buckets_pkey do update
  -- The bucket's level now: what it held plus the refill since, at most its capacity.
  set (tokens, last_allowed, refilled_at) = (
    select refilled.level - case when refilled.level >= 1 then 1 else 0 end, refilled.level >= 1, excluded.refilled_at
    from (select least(capacity, b.tokens + greatest(0, extract(epoch from excluded.refilled_at - b.refilled_at)) * per_second) as level) refilled
  )
  returning b.tokens, b.last_allowed into level, allowed;

  -- Buckets of callers who went quiet are full again and tell nothing: about one request in a
  -- thousand clears them, so the table stays the size of the active callers without a scheduler.
  if random() < 0.001 then
    delete from private.request_buckets b where b.refilled_at < at - interval '1 hour';
  end if;

  remaining := floor(level)::integer;
  retry_after_s := case when allowed then 0 else ceil((1 - level) / per_second)::integer end;
  full_in_s := ceil((capacity - level) / per_second)::integer;
  return next;
end;
$$;

comment on function private.take_request_token(text, integer, double precision) is
  'Token bucket: takes one token of the named bucket if there is one; says when to retry and when it is full.';
