-- Recurrence as data (issue 26 part 2; docs/schedules.md): a schedule's rule is iCalendar RRULE
-- text in the subset real inspection programmes need — FREQ (DAILY, WEEKLY, MONTHLY, YEARLY),
-- INTERVAL, BYDAY (numbered 1MO / -1FR under MONTHLY and YEARLY), BYMONTHDAY (negative from the
-- month's end), BYMONTH, and COUNT or UNTIL. The database is the rule: this migration validates
-- the text (private.recurrence_problem, the same checks and words as recurrenceProblem in
-- _shared/schemas/recurrence.ts), expands it into local dates and times
-- (private.recurrence_local_times, RFC 5545's expansion as python-dateutil and the rrule npm
-- package read it) and turns a local wall-clock time into an instant in a time zone
-- (private.instant_of_local_time, RFC 5545 §3.3.5 for times a daylight-saving change skips or
-- repeats). tests/api/schedules/recurrence-property.test.ts holds both to the rrule package.

-- A rule taken apart. Weekdays are ISO numbers (1 Monday … 7 Sunday); a numbered day (1MO, -1FR)
-- is a pair of nth_days (weekday) and nth_numbers (its number) at the same position.
create type private.recurrence as (
  freq text,
  every integer,
  count integer,
  until_date date,
  until_local timestamp,
  until_at timestamptz,
  by_month integer[],
  by_month_day integer[],
  by_day integer[],
  nth_days integer[],
  nth_numbers integer[]
);

comment on type private.recurrence is
  'An RRULE of the supported subset taken apart (private.recurrence_of); weekdays as ISO numbers, 1 = Monday.';

-- Why `rule` is not a rule Fieldcheck can run, in the words the api shows under the field `rrule`,
-- or null. The checks run in a fixed order and the first that fails is the answer, exactly as
-- recurrenceProblem (TypeScript) does, so zod and the database refuse alike.
create or replace function private.recurrence_problem(rule text)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  part text;
  name text;
  value text;
  parts jsonb := '{}';
  supported constant text[] := '{FREQ,INTERVAL,BYDAY,BYMONTHDAY,BYMONTH,COUNT,UNTIL}';
  freq text;
  days text[];
  numbered boolean;
  plain boolean;
  widest integer;
begin
  if rule is null or rule = '' then
    return 'Enter a recurrence rule, e.g. FREQ=WEEKLY;BYDAY=MO.';
  end if;
  if char_length(rule) > 500 then
    return 'Use at most 500 characters.';
  end if;
  foreach part in array string_to_array(rule, ';') loop
    -- Letters, digits and signs only, so upper() means what it means in TypeScript.
    if part !~ '^[A-Za-z]+=[A-Za-z0-9,+-]+$' then
      return 'Write the rule as NAME=value parts separated by semicolons, e.g. FREQ=WEEKLY;BYDAY=MO.';
    end if;
    name := upper(split_part(part, '=', 1));
    value := upper(split_part(part, '=', 2));
    if not name = any (supported) then
      return name || ' is not supported: use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT and UNTIL.';
    end if;
    if parts ? name then
      return name || ' appears twice.';
    end if;
    parts := parts || jsonb_build_object(name, value);
  end loop;

  freq := parts ->> 'FREQ';
  if freq is null or freq not in ('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY') then
    return 'Say how often with FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.';
  end if;
  if parts ? 'INTERVAL' and not (parts ->> 'INTERVAL' ~ '^[1-9][0-9]{0,3}$' and (parts ->> 'INTERVAL')::integer <= 1000) then
    return 'Use INTERVAL=1 to 1000.';
  end if;
  if parts ? 'COUNT' and not (parts ->> 'COUNT' ~ '^[1-9][0-9]{0,4}$' and (parts ->> 'COUNT')::integer <= 10000) then
    return 'Use COUNT=1 to 10000.';
  end if;
  if parts ? 'UNTIL' and private.recurrence_until_of(parts ->> 'UNTIL') is null then
    return 'Use UNTIL=YYYYMMDD (the last day), YYYYMMDDTHHMMSS (a local time) or YYYYMMDDTHHMMSSZ (UTC).';
  end if;
  if parts ? 'COUNT' and parts ? 'UNTIL' then
    return 'Use COUNT or UNTIL, not both.';
  end if;
  if parts ? 'BYMONTH' and parts ->> 'BYMONTH' !~ '^(1[0-2]|[1-9])(,(1[0-2]|[1-9]))*$' then
    return 'Use BYMONTH with months 1 to 12, separated by commas.';
  end if;
  if parts ? 'BYMONTHDAY' then
    if parts ->> 'BYMONTHDAY' !~ '^-?(3[01]|[12][0-9]|[1-9])(,-?(3[01]|[12][0-9]|[1-9]))*$' then
      return 'Use BYMONTHDAY with days 1 to 31 or -1 to -31, separated by commas.';
    end if;
    if freq = 'WEEKLY' then
      return 'BYMONTHDAY cannot be used with FREQ=WEEKLY.';
    end if;
  end if;
  if parts ? 'BYDAY' then
    days := string_to_array(parts ->> 'BYDAY', ',');
    if exists (select 1 from unnest(days) d where d !~ '^([+-]?[1-9][0-9]?)?(MO|TU|WE|TH|FR|SA|SU)$') then
      return 'Use BYDAY with the days MO, TU, WE, TH, FR, SA, SU, each optionally numbered (1MO, -1FR), separated by commas.';
    end if;
    numbered := exists (select 1 from unnest(days) d where d ~ '^[+-]?[0-9]');
    plain := exists (select 1 from unnest(days) d where d !~ '^[+-]?[0-9]');
    if numbered and freq in ('DAILY', 'WEEKLY') then
      return 'Numbered days (1MO, -1FR) need FREQ=MONTHLY or YEARLY.';
    end if;
    if numbered and plain then
      return 'Use numbered days (1MO, -1FR) or plain days (MO), not both.';
    end if;
    widest := case when freq = 'YEARLY' and not parts ? 'BYMONTH' then 53 else 5 end;
    if exists (select 1 from unnest(days) d where d ~ '^[+-]?[0-9]' and abs(substring(d from '^[+-]?[0-9]+')::integer) > widest) then
      return case widest
        when 5 then 'Number days from 1 to 5 (or -1 to -5) within a month.'
        else 'Number days from 1 to 53 (or -1 to -53) within a year.'
      end;
    end if;
  end if;
  return null;
end;
$$;

comment on function private.recurrence_problem(text) is
  'Why an RRULE is outside the supported subset, in the api''s words (or null); the same checks, order and words as recurrenceProblem in _shared/schemas/recurrence.ts.';

-- UNTIL's three forms as the one each is: a last local date, a local time, or an instant (UTC);
-- null when the text is none of them or names a date that does not exist.
create or replace function private.recurrence_until_of(value text, out until_date date, out until_local timestamp, out until_at timestamptz)
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
begin
  if value ~ '^[0-9]{8}$' then
    until_date := make_date(left(value, 4)::integer, substr(value, 5, 2)::integer, substr(value, 7, 2)::integer);
  elsif value ~ '^[0-9]{8}T([01][0-9]|2[0-3])[0-5][0-9][0-5][0-9]Z?$' then
    -- Hours to 23 and no leap second: make_timestamp would take 24:00:00 as the next midnight.
    until_local := make_timestamp(left(value, 4)::integer, substr(value, 5, 2)::integer, substr(value, 7, 2)::integer,
                                  substr(value, 10, 2)::integer, substr(value, 12, 2)::integer, substr(value, 14, 2)::integer);
    if value like '%Z' then
      until_at := until_local at time zone 'UTC';
      until_local := null;
    end if;
  end if;
exception when datetime_field_overflow then
  -- A 13th month, a 30 February or a 25th hour: not a date.
  until_date := null;
  until_local := null;
  until_at := null;
end;
$$;

-- The parts of a rule that passed private.recurrence_problem.
create or replace function private.recurrence_of(rule text)
returns private.recurrence
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  r private.recurrence;
  part text;
  value text;
  day text;
  weekday integer;
begin
  r.every := 1;
  foreach part in array string_to_array(upper(rule), ';') loop
    value := split_part(part, '=', 2);
    case split_part(part, '=', 1)
      when 'FREQ' then r.freq := value;
      when 'INTERVAL' then r.every := value::integer;
      when 'COUNT' then r.count := value::integer;
      when 'UNTIL' then select u.until_date, u.until_local, u.until_at into r.until_date, r.until_local, r.until_at from private.recurrence_until_of(value) u;
      when 'BYMONTH' then r.by_month := string_to_array(value, ',')::integer[];
      when 'BYMONTHDAY' then r.by_month_day := string_to_array(value, ',')::integer[];
      when 'BYDAY' then
        foreach day in array string_to_array(value, ',') loop
          weekday := array_position('{MO,TU,WE,TH,FR,SA,SU}'::text[], right(day, 2));
          if length(day) = 2 then
            r.by_day := r.by_day || weekday;
          else
            r.nth_days := r.nth_days || weekday;
            r.nth_numbers := r.nth_numbers || left(day, -2)::integer;
          end if;
        end loop;
      else null;
    end case;
  end loop;
  return r;
end;
$$;

comment on function private.recurrence_of(text) is 'A valid RRULE taken apart into private.recurrence.';

-- The local date-times of a rule's occurrences from `start_date` at `time_of_day` (the rule's
-- DTSTART, floating: the same wall-clock time in every time zone), numbered from 1 in order,
-- those on `from_date` … `to_date` (both included). RFC 5545's expansion as python-dateutil and the
-- rrule npm package do it: every FREQ period from DTSTART's (days; weeks from Monday; months;
-- years), INTERVAL apart, offers its days; BYMONTH, BYMONTHDAY, BYDAY (a numbered day counted
-- within the month, or the year under YEARLY without BYMONTH) keep the days that match all of
-- them; a rule with none of BYMONTHDAY and BYDAY takes DTSTART's day (its weekday for WEEKLY, its
-- day of the month for MONTHLY, its day and month for YEARLY); occurrences before DTSTART do not
-- count; COUNT keeps the first n; UNTIL's local forms end it (its UTC form is per time zone:
-- private.recurrence_instants). A date a rule names but a month lacks (the 31st, 30 February) is
-- skipped, never moved.
--
-- `numbered`: the numbers are wanted (a rotation's turns). Without COUNT, unnumbered expansions
-- start at the period holding `from_date` instead of DTSTART's, and answer null numbers.
create or replace function private.recurrence_local_times(
  rule text, start_date date, time_of_day time, from_date date, to_date date, numbered boolean default true
)
returns table (n bigint, local_at timestamp)
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  r private.recurrence := private.recurrence_of(rule);
  anchor date;
  step interval;
  span interval;
  last_date date := to_date;
  first_period integer := 0;
  last_period integer;
begin
  if r.freq is null or to_date < start_date or to_date < from_date then
    return;
  end if;
  -- DTSTART's day stands in for a rule that names none.
  if r.by_month_day is null and r.by_day is null and r.nth_days is null then
    case r.freq
      when 'YEARLY' then
        r.by_month := coalesce(r.by_month, array[extract(month from start_date)::integer]);
        r.by_month_day := array[extract(day from start_date)::integer];
      when 'MONTHLY' then r.by_month_day := array[extract(day from start_date)::integer];
      when 'WEEKLY' then r.by_day := array[extract(isodow from start_date)::integer];
      else null;
    end case;
  end if;
  -- UNTIL in local time: no occurrence after it (the UTC form is judged per time zone).
  if r.until_date is not null then
    last_date := least(last_date, r.until_date);
  elsif r.until_local is not null then
    last_date := least(last_date, r.until_local::date - case when time_of_day > r.until_local::time then 1 else 0 end);
  end if;

  case r.freq
    when 'DAILY' then anchor := start_date; step := make_interval(days => r.every); span := interval '1 day';
    when 'WEEKLY' then anchor := start_date - (extract(isodow from start_date)::integer - 1); step := make_interval(days => 7 * r.every); span := interval '7 days';
    when 'MONTHLY' then anchor := date_trunc('month', start_date)::date; step := make_interval(months => r.every); span := interval '1 month';
    else anchor := date_trunc('year', start_date)::date; step := make_interval(years => r.every); span := interval '1 year';
  end case;
  last_period := private.recurrence_period_of(r.freq, r.every, anchor, last_date);
  if not numbered and r.count is null then
    first_period := greatest(0, private.recurrence_period_of(r.freq, r.every, anchor, from_date));
  end if;

  return query
    with days as (
      select d::date as d
      from generate_series(first_period, last_period) p,
           lateral generate_series(anchor + p * step, anchor + p * step + span - interval '1 day', interval '1 day') d
    ), kept as (
      select days.d from days
      where days.d >= start_date and days.d <= last_date
        and (r.by_month is null or extract(month from days.d)::integer = any (r.by_month))
        and (r.by_day is null or extract(isodow from days.d)::integer = any (r.by_day))
        and (r.by_month_day is null
             or extract(day from days.d)::integer = any (r.by_month_day)
             or extract(day from days.d)::integer - private.days_in_month(days.d) - 1 = any (r.by_month_day))
        and (r.nth_days is null or exists (
          select 1
          from unnest(r.nth_days, r.nth_numbers) nth (weekday, number)
          where nth.weekday = extract(isodow from days.d)::integer
            and nth.number = case
              -- Counted within the year (YEARLY without BYMONTH), otherwise within the month.
              when r.freq = 'YEARLY' and r.by_month is null then
                case when nth.number > 0
                  then (extract(doy from days.d)::integer - 1) / 7 + 1
                  else -((private.days_in_year(days.d) - extract(doy from days.d)::integer) / 7 + 1) end
              else
                case when nth.number > 0
                  then (extract(day from days.d)::integer - 1) / 7 + 1
                  else -((private.days_in_month(days.d) - extract(day from days.d)::integer) / 7 + 1) end
            end
        ))
    ), numbered_days as (
      select case when numbered or r.count is not null then row_number() over (order by kept.d) end as n, kept.d
      from kept
    )
    select numbered_days.n, numbered_days.d + time_of_day
    from numbered_days
    where numbered_days.d >= from_date and (r.count is null or numbered_days.n <= r.count)
    order by numbered_days.d;
end;
$$;

comment on function private.recurrence_local_times(text, date, time, date, date, boolean) is
  'Local date-times of an RRULE''s occurrences from start_date at time_of_day, numbered from 1, on from_date … to_date (RFC 5545 as python-dateutil and the rrule package expand it).';

-- Which FREQ period (0 = DTSTART's) holds `day`; negative before the first.
create or replace function private.recurrence_period_of(freq text, every integer, anchor date, day date)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select floor(case freq
    when 'DAILY' then (day - anchor)::numeric / every
    when 'WEEKLY' then (day - anchor)::numeric / (7 * every)
    when 'MONTHLY' then ((extract(year from day) - extract(year from anchor)) * 12 + extract(month from day) - extract(month from anchor)) / every
    else (extract(year from day) - extract(year from anchor)) / every
  end)::integer;
$$;

create or replace function private.days_in_month(day date)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select extract(day from date_trunc('month', day) + interval '1 month - 1 day')::integer;
$$;

create or replace function private.days_in_year(day date)
returns integer
language sql
immutable
parallel safe
set search_path = ''
as $$
  select extract(doy from date_trunc('year', day) + interval '1 year - 1 day')::integer;
$$;

-- The instant a wall-clock time `local` names in time zone `zone`, as RFC 5545 §3.3.5 reads
-- local times: a time a daylight-saving change skips (02:30 on a spring-forward night) is read
-- with the offset before the change, so it lands as far after the change as it was meant after
-- the skipped hour's start (03:30 new time); a time the change repeats (01:30 on a fall-back night)
-- is the first of the two. Postgres's own `at time zone` agrees on the first and takes the second
-- of a repeated time, hence this function. Offsets come from a day either side of `local`: no time
-- zone changes its offset twice within two days.
create or replace function private.instant_of_local_time(local timestamp, zone text)
returns timestamptz
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  day_before timestamptz := (local - interval '1 day') at time zone zone;
  day_after timestamptz := (local + interval '1 day') at time zone zone;
  -- The wall clock minus UTC at those instants, e.g. -05:00 in New York's winter.
  earlier_offset interval := (day_before at time zone zone) - (day_before at time zone 'UTC');
  later_offset interval := (day_after at time zone zone) - (day_after at time zone 'UTC');
  by_earlier timestamptz := (local - earlier_offset) at time zone 'UTC';
  by_later timestamptz;
begin
  if earlier_offset = later_offset then
    return by_earlier;
  end if;
  by_later := (local - later_offset) at time zone 'UTC';
  if (by_earlier at time zone zone) = local and (by_later at time zone zone) = local then
    return least(by_earlier, by_later);
  elsif (by_later at time zone zone) = local then
    return by_later;
  end if;
  -- Valid by the earlier offset, or skipped: the offset before the change either way.
  return by_earlier;
end;
$$;

comment on function private.instant_of_local_time(timestamp, text) is
  'The instant a local wall-clock time names in a time zone (RFC 5545 §3.3.5): a skipped time by the offset before the change, a repeated one the first time.';

-- A rule's occurrences as instants in one time zone, those from `from_at` (included) to `to_at`
-- (excluded), with their numbers (null when not `numbered`, as recurrence_local_times) and local
-- times. UNTIL in UTC is judged here, on each time zone's instants.
create or replace function private.recurrence_instants(
  rule text, start_date date, time_of_day time, zone text, from_at timestamptz, to_at timestamptz, numbered boolean default true
)
returns table (n bigint, local_at timestamp, occurrence_at timestamptz)
language sql
immutable
parallel safe
set search_path = ''
as $$
  select t.n, t.local_at, i.occurrence_at
  from private.recurrence_of(rule) r
  cross join lateral private.recurrence_local_times(rule, start_date, time_of_day,
         -- Local dates two days either side cover every offset (UTC-12 to UTC+14).
         (from_at at time zone 'UTC')::date - 2, (to_at at time zone 'UTC')::date + 2, numbered) t
  cross join lateral (select private.instant_of_local_time(t.local_at, zone) as occurrence_at) i
  where i.occurrence_at >= from_at and i.occurrence_at < to_at
    and (r.until_at is null or i.occurrence_at <= r.until_at)
  order by i.occurrence_at;
$$;

comment on function private.recurrence_instants(text, date, time, text, timestamptz, timestamptz, boolean) is
  'An RRULE''s occurrences in one time zone between two instants (from included, to excluded), numbered, with their local times.';

-- Pure functions of the rule's text; callers reach them through the checks and the schedule functions.
revoke all on function private.recurrence_problem(text) from public, anon;
revoke all on function private.recurrence_until_of(text) from public, anon;
revoke all on function private.recurrence_of(text) from public, anon;
revoke all on function private.recurrence_local_times(text, date, time, date, date, boolean) from public, anon;
revoke all on function private.recurrence_period_of(text, integer, date, date) from public, anon;
revoke all on function private.days_in_month(date) from public, anon;
revoke all on function private.days_in_year(date) from public, anon;
revoke all on function private.instant_of_local_time(timestamp, text) from public, anon;
revoke all on function private.recurrence_instants(text, date, time, text, timestamptz, timestamptz, boolean) from public, anon;
grant execute on function private.recurrence_until_of(text) to authenticated, service_role;
grant execute on function private.recurrence_of(text) to authenticated, service_role;
grant execute on function private.recurrence_local_times(text, date, time, date, date, boolean) to authenticated, service_role;
grant execute on function private.recurrence_period_of(text, integer, date, date) to authenticated, service_role;
grant execute on function private.days_in_month(date) to authenticated, service_role;
grant execute on function private.days_in_year(date) to authenticated, service_role;
grant execute on function private.instant_of_local_time(timestamp, text) to authenticated, service_role;
grant execute on function private.recurrence_problem(text) to authenticated, service_role;
grant execute on function private.recurrence_instants(text, date, time, text, timestamptz, timestamptz, boolean) to authenticated, service_role;
