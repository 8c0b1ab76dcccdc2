-- Platform bootstrap: the realtime schema's objects that database code and RLS policies use,
-- with Supabase Realtime's names and signatures. Private channels are authorized by policies
-- on realtime.messages evaluated with realtime.topic() set; realtime.send() and
-- realtime.broadcast_changes() write the messages the Realtime service delivers.
-- As on Supabase, realtime.messages is partitioned by day (messages_YYYY_MM_DD); the Realtime
-- service makes the coming days' partitions and drops old ones, and a message for a day with no
-- partition is lost with a warning, as there.

create table realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp not null default now(),
  inserted_at timestamp not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
) partition by range (inserted_at);
create index messages_inserted_at_topic_index on realtime.messages (inserted_at desc, topic) where extension = 'broadcast' and private is true;
alter table realtime.messages enable row level security;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
grant all on realtime.messages to postgres;

-- Local stack only: what Realtime's janitor does on Supabase. Makes the partitions from today
-- (UTC) to `days_ahead` days on, and drops those older than `days_kept` days.
create or replace function realtime.local_stack_maintain_message_partitions(days_ahead int default 3, days_kept int default 3)
returns void
language plpgsql
set search_path = ''
as $$
declare
  today date := (now() at time zone 'utc')::date;
  day date;
  old record;
begin
  for day in select generate_series(today, today + days_ahead, interval '1 day')::date loop
    execute format(
      'create table if not exists realtime.%I partition of realtime.messages for values from (%L) to (%L)',
      'messages_' || to_char(day, 'YYYY_MM_DD'), day::timestamp, (day + 1)::timestamp);
  end loop;
  for old in
    select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'realtime.messages'::regclass
      and c.relname ~ '^messages_\d{4}_\d{2}_\d{2}$'
      and to_date(substr(c.relname, 10), 'YYYY_MM_DD') < today - days_kept
  loop
    execute format('drop table realtime.%I', old.relname);
  end loop;
end;
$$;
comment on function realtime.local_stack_maintain_message_partitions(int, int) is
  'Local stack only: creates and drops the daily partitions of realtime.messages, as Realtime does on Supabase.';
select realtime.local_stack_maintain_message_partitions();

-- The channel topic being authorized, set by Realtime while it evaluates policies.
create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

-- Sends a broadcast message to a topic from the database. As current Realtime does, a payload
-- without an `id` gets the message's id, so clients can tell deliveries apart.
create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql as $$
declare
  message_id uuid := gen_random_uuid();
begin
  begin
    -- Realtime reads the topic from this setting when it evaluates policies.
    perform set_config('realtime.topic', topic, true);
    perform set_config('realtime.private', private::text, true);
    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (
      message_id,
      case when payload ? 'id' then payload else jsonb_set(payload, '{id}', to_jsonb(message_id)) end,
      event, topic, private, 'broadcast');
  exception when others then
    -- Sending must never fail the transaction that sends.
    raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;

-- Broadcasts a row change (for use in triggers) in the same shape as Supabase Realtime.
create or replace function realtime.broadcast_changes(
  topic_name text, event_name text, operation text, table_name text, table_schema text,
  new record, old record, level text default 'ROW'
) returns void
language plpgsql as $$
declare
  row_data jsonb := '{}'::jsonb;
begin
  if level = 'STATEMENT' then
    raise exception 'function can only be triggered for each row, not for each statement';
  end if;
  if operation = 'INSERT' or operation = 'UPDATE' or operation = 'DELETE' then
    row_data := jsonb_build_object('old_record', old, 'record', new, 'operation', operation,
                                   'table', table_name, 'schema', table_schema);
    perform realtime.send(row_data, event_name, topic_name);
  else
    raise exception 'Unexpected operation type %', operation;
  end if;
end;
$$;

grant execute on function realtime.topic(), realtime.send(jsonb, text, text, boolean),
  realtime.broadcast_changes(text, text, text, text, text, record, record, text)
  to anon, authenticated, service_role, postgres;

-- Local stack only: Supabase's Realtime reads new rows of realtime.messages by logical
-- replication; the local Realtime service LISTENs instead. NOTIFY is delivered at commit, in
-- commit order, and never for a rolled-back transaction, which is the delivery Supabase gives.
-- A notification carries the message itself, or only its key when it would not fit in one
-- (NOTIFY payloads are limited to 8000 bytes), and the service then reads the row.
create or replace function realtime.local_stack_notify_message()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  message text := json_build_object(
    'id', new.id, 'topic', new.topic, 'event', new.event, 'private', new.private, 'payload', new.payload
  )::text;
begin
  if octet_length(message) > 7900 then
    message := json_build_object('id', new.id, 'fetch', true)::text;
  end if;
  perform pg_notify('local_stack_realtime_messages', message);
  return null;
end;
$$;
comment on function realtime.local_stack_notify_message() is
  'Local stack only: tells the local Realtime service about a new broadcast message (Supabase uses logical replication).';

create trigger local_stack_notify_realtime_service
  after insert on realtime.messages
  for each row when (new.extension = 'broadcast')
  execute function realtime.local_stack_notify_message();
