-- Request rate limits (PRODUCT.md §9): a token bucket per caller, kept in Postgres so that every
-- instance of the api function draws from the same bucket. An API key gets 600 requests a
-- minute with bursts of 60; a signed-in user's own limit is decided in docs/api-keys.md. The
-- function asks before it runs a request, in a statement of its own, so a request that fails
-- or rolls back still counts.

-- Unlogged: a bucket is worth nothing after a crash (everyone starts full again), and skipping
-- the WAL keeps one write per request cheap. Not in public: no API role reads or writes it.
create unlogged table private.request_buckets (
  bucket text primary key,
  tokens double precision not null,
  refilled_at timestamptz not null
);

comment on table private.request_buckets is 'Token buckets of the request rate limits, one per caller (key:<id>, user:<id>).';

revoke all on table private.request_buckets from public, anon, authenticated;

-- Takes one token from `bucket` (created full on first use), which holds at most `capacity` and
-- refills at `per_second`. `allowed` says whether the request may run; `remaining` is the whole
-- tokens left; `retry_after_s` is how long until one token is back (0 when allowed); `full_in_s`
-- is how long until the bucket is full again (the RateLimit header's reset). The row lock makes
-- concurrent requests of one caller take turns, so no token is spent twice.
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
  insert into private.request_buckets as b (bucket, tokens, refilled_at)
  values (take_request_token.bucket, capacity, at)
  on conflict on constraint request_buckets_pkey do nothing;

  select least(capacity, b.tokens + greatest(0, extract(epoch from at - b.refilled_at)) * per_second)
  into level
  from private.request_buckets b
  where b.bucket = take_request_token.bucket
  for update;

  allowed := level >= 1;
  if allowed then
    level := level - 1;
  end if;
  update private.request_buckets b set tokens = level, refilled_at = at where b.bucket = take_request_token.bucket;

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

revoke all on function private.take_request_token(text, integer, double precision) from public, anon, authenticated;
grant execute on function private.take_request_token(text, integer, double precision) to service_role;
