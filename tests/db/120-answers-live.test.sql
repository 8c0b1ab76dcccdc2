-- The live inspection topic `inspection:<id>`: triggers send answers_saved once for every statement
-- that saves answers (121-answers-batches has the batches' rules) and inspection_updated when the status, score or version changes; RLS on realtime.messages
-- admits members of the inspection's organization (receive broadcast and presence, send presence
-- only) and nobody else, evaluated as Realtime does (the caller's role and claims, realtime.topic
-- set), with made-up topics refused rather than raising a cast error.
begin;
select plan(24);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('120l') m, tests.create_published_template(m.org_a, '[
    {"key":"pf","kind":"pass_fail","label":"Floor clean","help":null,"required":false,"weight":2},
    {"key":"remarks","kind":"text","label":"Remarks","help":null,"required":false,"weight":0}]') p;
alter table actors add column inspection uuid, add column other_inspection uuid;
update actors set inspection = tests.create_inspection(org_a, site, template, 'scheduled'),
                  other_inspection = tests.create_inspection(org_a, site, template, 'scheduled');
grant select on actors to authenticated;

-- Which extensions `who` may receive on `topic`: probe rows as the superuser, read as the caller.
create function pg_temp.receives(who uuid, topic text) returns text language plpgsql as $$
declare
  seen text;
begin
  perform tests.reset_role();
  insert into realtime.messages (topic, extension) values (receives.topic, 'broadcast'), (receives.topic, 'presence');
  perform tests.act_as(who);
  perform set_config('realtime.topic', receives.topic, true);
  select coalesce(string_agg(m.extension, ',' order by m.extension), '') into seen
  from realtime.messages m where m.topic = receives.topic and m.event is null;
  perform tests.reset_role();
  delete from realtime.messages m where m.topic = receives.topic and m.event is null;
  return seen;
end;
$$;
-- Whether `who` may send `extension` on `topic`.
create function pg_temp.sends(who uuid, topic text, extension text) returns boolean language plpgsql as $$
begin
  perform tests.act_as(who);
  perform set_config('realtime.topic', sends.topic, true);
  begin
    insert into realtime.messages (topic, extension) values (sends.topic, sends.extension);
  exception when insufficient_privilege then
    perform tests.reset_role();
    return false;
  end;
  perform tests.reset_role();
  delete from realtime.messages m where m.topic = sends.topic and m.event is null;
  return true;
end;
$$;

-- Receiving: members of the inspection's organization, every role.
select is(pg_temp.receives(owner, 'inspection:' || inspection), 'broadcast,presence', 'the owner receives broadcast and presence') from actors;
select is(pg_temp.receives(manager, 'inspection:' || inspection), 'broadcast,presence', 'a manager receives them') from actors;
select is(pg_temp.receives(inspector, 'inspection:' || inspection), 'broadcast,presence', 'an inspector receives them') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || inspection), 'broadcast,presence', 'a viewer receives them (everyone reads)') from actors;
select is(pg_temp.receives(b_owner, 'inspection:' || inspection), '', 'the owner of another organization receives nothing') from actors;
select is(pg_temp.receives(outsider, 'inspection:' || inspection), '', 'a signed-in non-member receives nothing') from actors;
select is(pg_temp.receives(viewer, 'org:' || inspection), '', 'an inspection id is no organization topic') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || gen_random_uuid()), '', 'an inspection that does not exist admits nobody') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || upper(inspection::text)), '', 'only the canonical (lowercase) id is the topic') from actors;
select is(pg_temp.receives(viewer, 'inspection:not-a-uuid'), '', 'a made-up topic is refused, not a cast error') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || repeat('-', 36)), '', 'a topic of 36 dashes is refused, not a cast error') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || inspection || ':x'), '', 'a topic with more after the id is refused') from actors;

-- Sending: presence only, members only; broadcasts come from the database alone.
select is(pg_temp.sends(inspector, 'inspection:' || inspection, 'presence'), true, 'an inspector shares presence') from actors;
select is(pg_temp.sends(viewer, 'inspection:' || inspection, 'presence'), true, 'a viewer shares presence (who is watching)') from actors;
select is(pg_temp.sends(owner, 'inspection:' || inspection, 'broadcast'), false, 'not even the owner sends a broadcast') from actors;
select is(pg_temp.sends(outsider, 'inspection:' || inspection, 'presence'), false, 'a non-member cannot share presence') from actors;
select is(pg_temp.sends(b_owner, 'inspection:' || inspection, 'presence'), false, 'the owner of another organization cannot share presence') from actors;

-- The triggers: starting the inspection announces it; a statement's saved answers are announced
-- in one message, then the score.
update public.inspections set status = 'in_progress' where id = (select inspection from actors);
select results_eq(
  $$select payload ->> 'status', (payload ->> 'version')::int from realtime.messages
    where topic = 'inspection:' || (select inspection from actors) and event = 'inspection_updated'$$,
  $$values ('in_progress', 2)$$, 'starting sends inspection_updated with the status and version on the inspection''s topic');
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value, note)
  select inspection, k, v, n from actors, (values ('pf', '"fail"'::jsonb, 'Sticky'), ('remarks', '"Mopped"'::jsonb, null)) x(k, v, n);
select tests.reset_role();
select results_eq(
  $$select payload - 'id' from realtime.messages where topic = 'inspection:' || (select inspection from actors) and event = 'answers_saved'$$,
  $$select jsonb_build_object('inspection_id', (select inspection from actors), 'answers', jsonb_agg(jsonb_build_object(
      'item_key', a.item_key, 'value', a.value, 'note', a.note, 'failed', a.failed, 'answered_by', a.answered_by,
      'answered_at', to_char(a.answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'version', a.version) order by a.item_key))
    from public.answers a where a.inspection_id = (select inspection from actors)$$,
  'the statement''s answers are sent as one answers_saved with each row (item, value, note, failed, who, when as ISO 8601 UTC, version), in the order written');
select is(
  (select count(*)::int from realtime.messages where topic = 'inspection:' || (select inspection from actors)
     and event = 'answers_saved' and payload ->> 'id' = id::text), 1,
  '... and, as Supabase''s realtime.send does for a payload without one, carries the message''s id');
select results_eq(
  $$select payload - 'version' from realtime.messages where topic = 'inspection:' || (select inspection from actors)
    and event = 'inspection_updated' and payload ->> 'status' = 'in_progress' and (payload ->> 'version')::int > 2$$,
  $$select jsonb_build_object('id', inspection, 'status', 'in_progress', 'score', 0, 'max_score', 2, 'failed_count', 1) from actors$$,
  'the new score follows as one inspection_updated for the statement');
select is((select count(*)::int from realtime.messages where topic = 'inspection:' || (select other_inspection from actors)), 0,
  'nothing is sent on another inspection''s topic');
select tests.act_as((select inspector from actors));
update public.answers set note = 'Sticky floor' where inspection_id = (select inspection from actors) and item_key = 'pf';
select tests.reset_role();
select is((select count(*)::int from realtime.messages where topic = 'inspection:' || (select inspection from actors)
           and event = 'answers_saved' and payload -> 'answers' @> '[{"item_key": "pf", "note": "Sticky floor", "version": 2}]'
           and jsonb_array_length(payload -> 'answers') = 1), 1,
  'a changed note is announced with the new version, alone');
select is((select count(*)::int from realtime.messages where topic = 'inspection:' || (select inspection from actors)
           and event = 'inspection_updated'), 2, '... and, the score being unchanged, no inspection_updated follows it');

select * from finish();
rollback;
