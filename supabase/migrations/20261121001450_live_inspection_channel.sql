-- The live inspection (PRODUCT.md §7 "Realtime"): everyone filling or watching one inspection
-- shares the private topic `inspection:<id>`. The database announces every saved answer
-- (answer_saved) and every change of the inspection's status, score or version
-- (inspection_updated) there, and members of the inspection's organization share presence (who
-- is here, on which item). See docs/realtime.md.

-- Sends answer_saved with the saved row (the api's Answer without the display name) to the
-- inspection's topic. security definer because it writes realtime.messages, which callers may
-- not insert into themselves.
create or replace function private.broadcast_answer_saved()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object(
      'inspection_id', new.inspection_id,
      'item_key', new.item_key,
      'value', new.value,
      'note', new.note,
      'failed', new.failed,
      'answered_by', new.answered_by,
      -- As the api writes timestamps (toISOString), so clients compare them as they are.
      'answered_at', to_char(new.answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'version', new.version
    ),
    'answer_saved',
    'inspection:' || new.inspection_id::text,
    true
  );
  return null;
end;
$$;

comment on function private.broadcast_answer_saved() is
  'After-row trigger on answers: broadcasts answer_saved with the row on the private topic inspection:<id>.';

revoke all on function private.broadcast_answer_saved() from public, anon, authenticated;

create trigger answers_broadcast_saved
  after insert or update on public.answers
  for each row execute function private.broadcast_answer_saved();

-- Sends inspection_updated with what the run page shows live (status, score, version) to the
-- inspection's topic; the organization topic carries the list-level event separately.
create or replace function private.broadcast_inspection_progress()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform realtime.send(
    jsonb_build_object(
      'id', new.id,
      'status', new.status,
      'score', new.score,
      'max_score', new.max_score,
      'failed_count', new.failed_count,
      'version', new.version
    ),
    'inspection_updated',
    'inspection:' || new.id::text,
    true
  );
  return null;
end;
$$;

comment on function private.broadcast_inspection_progress() is
  'After-row trigger on inspections: broadcasts inspection_updated (status, score, version) on inspection:<id>.';

revoke all on function private.broadcast_inspection_progress() from public, anon, authenticated;

-- Every update bumps the version (private.enforce_inspection_transition), so a change of status
-- or score is always a change of version too.
create trigger inspections_broadcast_progress
  after update on public.inspections
  for each row
  when (old.version is distinct from new.version)
  execute function private.broadcast_inspection_progress();

-- The inspection a realtime topic names: only when the topic is exactly `inspection:` and a
-- canonical (lowercase) uuid, else null, so a made-up topic is simply not admitted rather than a
-- cast error.
create or replace function private.inspection_id_of_topic(topic text)
returns uuid
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when topic ~ '^inspection:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    then substr(topic, 12)::uuid
  end;
$$;

revoke all on function private.inspection_id_of_topic(text) from public, anon;
grant execute on function private.inspection_id_of_topic(text) to authenticated, service_role;

-- Realtime evaluates these as the joining user with realtime.topic() set to the channel's topic;
-- the inspection is found by its primary key (an organization may have very many).
create policy "Members can receive live events of their organization's inspections"
  on realtime.messages
  for select
  to authenticated
  using (
    realtime.messages.extension in ('broadcast', 'presence')
    and exists (
      select 1
      from public.inspections i
      where i.id = (select private.inspection_id_of_topic(realtime.topic()))
        and i.org_id in (select private.org_ids_of_current_user())
    )
  );

-- Members share presence (who is here, which item they are on); answers and status are broadcast
-- only by the database, so clients may not send broadcasts on an inspection's topic.
create policy "Members can share presence on their organization's inspections"
  on realtime.messages
  for insert
  to authenticated
  with check (
    realtime.messages.extension = 'presence'
    and exists (
      select 1
      from public.inspections i
      where i.id = (select private.inspection_id_of_topic(realtime.topic()))
        and i.org_id in (select private.org_ids_of_current_user())
    )
  );
