-- Answers are announced, logged and scored per statement, not per row (issue 15): a statement
-- that saves answers sends one answers_saved per inspection with all of them in the order written,
-- even when it both updates and inserts (the api's save, an upsert), then one inspection_updated;
-- a batch too large for one Realtime message is split, in order; the topic admits the same people
-- as before; and the audit rows written per statement are exactly those the per-row
-- private.write_audit_log() writes, for users, API keys and servers, inserts, updates and deletes,
-- with no entry for a no-op update.
begin;
select plan(22);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('121b') m, tests.create_published_template(m.org_a, '[
    {"key":"pf","kind":"pass_fail","label":"Floor clean","help":null,"required":false,"weight":2},
    {"key":"temp","kind":"number","label":"Fridge","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":null},
    {"key":"remarks","kind":"text","label":"Remarks","help":null,"required":false,"weight":0},
    {"key":"sig","kind":"signature","label":"Signed","help":null,"required":false,"weight":0},
    {"key":"sig2","kind":"signature","label":"Countersigned","help":null,"required":false,"weight":0}]') p;
alter table actors add column inspection uuid, add column second uuid, add column audited uuid, add column api_key uuid;
update actors set inspection = tests.create_inspection(org_a, site, template),
                  second = tests.create_inspection(org_a, site, template),
                  audited = tests.create_inspection(org_a, site, template),
                  api_key = tests.create_api_key(org_a, 'inspector');
grant select on actors to authenticated;

-- The answers_saved payloads on an inspection's topic, without the message id.
create function pg_temp.saved_on(inspection uuid) returns setof jsonb language sql as $$
  select payload - 'id' from realtime.messages where topic = 'inspection:' || inspection and event = 'answers_saved';
$$;
-- [item_key, version] of each answer of those payloads (for one message: in its order).
create function pg_temp.keys_on(inspection uuid) returns jsonb language sql as $$
  select coalesce(jsonb_agg(jsonb_build_array(a ->> 'item_key', (a ->> 'version')::int) order by m.payload_at, k), '[]')
  from (select p, row_number() over () as payload_at from pg_temp.saved_on(inspection) p) m,
       jsonb_array_elements(m.p -> 'answers') with ordinality as t (a, k);
$$;
create function pg_temp.forget_messages() returns void language sql as $$
  delete from realtime.messages where topic like 'inspection:%';
$$;

-- The api's save (api/answers.ts): the answers that exist updated and the new ones inserted, in
-- one statement of two parts.
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value) select inspection, 'pf', '"fail"' from actors;
select tests.reset_role();
select pg_temp.forget_messages();
create temp table before_save on commit drop as select version from public.inspections where id = (select inspection from actors);
select tests.act_as((select inspector from actors));
with input as (
  select * from (values ('pf', '"pass"'::jsonb, true, 1), ('remarks', '"Fine"', false, 2), ('temp', '9', false, 3)) as v (item_key, value, known, n)
), updated as (
  update public.answers a set value = i.value from input i
  where i.known and a.inspection_id = (select inspection from actors) and a.item_key = i.item_key
  returning a.id
), inserted as (
  insert into public.answers (inspection_id, item_key, value)
  select (select inspection from actors), item_key, value from input where not known order by n
  returning id
)
select (select count(*) from updated) + (select count(*) from inserted) as saved;
select tests.reset_role();
select is((select count(*)::int from pg_temp.saved_on((select inspection from actors))), 1,
  'a statement that updates some answers and inserts others sends one answers_saved');
select is(pg_temp.keys_on((select inspection from actors)), '[["pf", 2], ["remarks", 1], ["temp", 1]]',
  '... with all of them, the changed ones first, then the new ones in the order written');
select is((select count(*)::int from pg_temp.saved_on((select inspection from actors)) p
           where p ->> 'inspection_id' = (select inspection from actors)::text and p ?& array['inspection_id', 'answers'] and p - 'inspection_id' - 'answers' = '{}'),
  1, '... and nothing but the inspection''s id and the answers');
select results_eq(
  $$select payload from realtime.messages where topic = 'inspection:' || (select inspection from actors) and event = 'inspection_updated'$$,
  $$select jsonb_build_object('id', i.id, 'status', 'in_progress', 'score', 2, 'max_score', 3, 'failed_count', 1, 'version', i.version)
    from public.inspections i where i.id = (select inspection from actors)$$,
  'one inspection_updated follows, with the batch''s totals');
select is((select version from public.inspections where id = (select inspection from actors)), (select version + 1 from before_save),
  '... and the inspection changed once for the batch, not once per part');

-- An upsert updates and inserts in one statement too.
select pg_temp.forget_messages();
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value)
  select inspection, k, v from actors, (values ('temp', '3'::jsonb), ('sig', null)) as x (k, v)
  on conflict (inspection_id, item_key) do update set value = excluded.value;
select tests.reset_role();
select is(pg_temp.keys_on((select inspection from actors)), '[["temp", 2], ["sig", 1]]',
  'insert … on conflict do update sends one answers_saved with the updated and the inserted answer');
select is((select count(*)::int from realtime.messages where topic = 'inspection:' || (select inspection from actors) and event = 'inspection_updated'), 1,
  '... and one inspection_updated');

-- One statement, two inspections: a message on each topic, each with only its own answers.
select pg_temp.forget_messages();
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value)
  select i, 'remarks', to_jsonb('For ' || n) from actors cross join lateral (values (1, inspection), (2, second)) as x (n, i)
  on conflict (inspection_id, item_key) do update set value = excluded.value;
select tests.reset_role();
select is(pg_temp.keys_on((select inspection from actors)), '[["remarks", 2]]', 'a statement on two inspections sends one message on the first''s topic with its answer');
select is(pg_temp.keys_on((select second from actors)), '[["remarks", 1]]', '... and one on the second''s topic with its own');

-- Statements of one transaction are announced one by one.
select pg_temp.forget_messages();
select tests.act_as((select inspector from actors));
update public.answers set note = 'Checked' where inspection_id = (select inspection from actors) and item_key = 'pf';
update public.answers set note = 'Read twice' where inspection_id = (select inspection from actors) and item_key = 'temp';
select tests.reset_role();
select is((select count(*)::int from pg_temp.saved_on((select inspection from actors))), 2, 'two statements send two messages');

-- A statement that fails where its error is caught leaves no part waiting behind it.
select pg_temp.forget_messages();
select tests.act_as((select inspector from actors));
do $$
begin
  insert into public.answers (inspection_id, item_key, value) select inspection, 'sig2', '"not a signature"' from actors;
exception when others then
  null;
end;
$$;
select is(coalesce(nullif(current_setting('fieldcheck.answer_statements_open', true), ''), '0') || '/' || coalesce(current_setting('fieldcheck.saved_answers', true), ''),
  '0/', 'a failed statement whose error was caught leaves nothing counted or waiting');
update public.answers set note = 'After the failure' where inspection_id = (select inspection from actors) and item_key = 'remarks';
select tests.reset_role();
select is(pg_temp.keys_on((select inspection from actors)), '[["remarks", 3]]', '... so the next statement is announced at once, alone');

-- Realtime refuses broadcasts over 256 KB: answers that would not fit one message are split, in order.
select pg_temp.forget_messages();
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value)
  select inspection, k, jsonb_build_object('signer', 'Ada', 'image', tests.png_data_url(600, 200, 150000, c))
  from actors, (values ('sig', 'A'), ('sig2', 'B')) as x (k, c)
  on conflict (inspection_id, item_key) do update set value = excluded.value;
select tests.reset_role();
select is((select count(*)::int from pg_temp.saved_on((select inspection from actors))), 2,
  'two signatures of 150,000 characters are sent as two messages');
select is((select max(octet_length(payload::text)) < 256000 from realtime.messages where topic = 'inspection:' || (select inspection from actors)), true,
  '... each under Realtime''s 256 KB');
select is((select jsonb_agg(a ->> 'item_key' order by a ->> 'item_key') from pg_temp.saved_on((select inspection from actors)) p, jsonb_array_elements(p -> 'answers') a),
  '["sig", "sig2"]', '... which together carry both answers');

-- Who receives answers_saved: the members of the inspection's organization, as Realtime evaluates
-- the policy (the caller's role and claims, realtime.topic set).
create function pg_temp.saved_seen_by(who uuid, inspection uuid) returns integer language plpgsql as $$
declare
  seen integer;
begin
  perform tests.act_as(who);
  perform set_config('realtime.topic', 'inspection:' || inspection, true);
  select count(*) into seen from realtime.messages m where m.topic = 'inspection:' || inspection and m.event = 'answers_saved';
  perform tests.reset_role();
  return seen;
end;
$$;
select is(pg_temp.saved_seen_by(viewer, inspection), 2, 'a viewer of the organization receives answers_saved') from actors;
select is(pg_temp.saved_seen_by(b_owner, inspection), 0, 'the owner of another organization receives none') from actors;
select is(pg_temp.saved_seen_by(outsider, inspection), 0, 'a signed-in non-member receives none') from actors;

-- The audit rows: the per-row function that wrote them before, attached again beside the
-- statement triggers, must write the very same rows.
create trigger tests_per_row_audit after insert or update or delete on public.answers
  for each row execute function private.write_audit_log();
create temp table marks (name text, last_id bigint) on commit drop;
insert into marks select 'start', coalesce(max(id), 0) from public.audit_log;
select tests.act_as((select inspector from actors));
insert into public.answers (inspection_id, item_key, value, note)
  select audited, k, v, n from actors, (values ('pf', '"fail"'::jsonb, 'Sticky'), ('temp', '4', null)) as x (k, v, n);
select tests.reset_role();
insert into marks select 'mixed', max(id) from public.audit_log;
select tests.act_as((select inspector from actors));
with updated as (
  update public.answers set value = '"pass"' where inspection_id = (select audited from actors) and item_key = 'pf' returning id
), inserted as (
  insert into public.answers (inspection_id, item_key, value) select audited, 'remarks', '"Mopped"' from actors returning id
)
select (select count(*) from updated) + (select count(*) from inserted);
select tests.reset_role();
insert into marks select 'mixed end', max(id) from public.audit_log;
select tests.act_as_api_key((select api_key from actors));
update public.answers set value = '2' where inspection_id = (select audited from actors) and item_key = 'temp';
select tests.reset_role();
-- A server (no request claims) changes a note, then saves a row unchanged (the item rules, which
-- always bump the version, set aside so that the row stays the same), then deletes an answer.
update public.answers set note = 'Noted by the import' where inspection_id = (select audited from actors) and item_key = 'remarks';
alter table public.answers disable trigger answers_apply_item_rules;
update public.answers set value = value where inspection_id = (select audited from actors) and item_key = 'pf';
alter table public.answers enable trigger answers_apply_item_rules;
delete from public.answers where inspection_id = (select audited from actors) and item_key = 'remarks';
drop trigger tests_per_row_audit on public.answers;

create temp table logged on commit drop as
  select * from public.audit_log where id > (select last_id from marks where name = 'start') and entity = 'answers';
select is((select count(*)::int from logged), 14, 'seven changes are logged twice, once by each trigger, and the no-op update by neither');
select is(
  (select count(*)::int from (
     select org_id, actor_kind, actor_user_id, actor_api_key_id, action, entity, entity_id, before, after, at
     from logged group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 having count(*) <> 2) unpaired),
  0, 'every row the statement triggers write is identical to one the per-row function writes (actor, action, ids, before, after, at)');
select results_eq(
  $$select action, actor_kind, count(*)::int from logged group by 1, 2 order by 1, 2$$,
  $$values ('delete', 'system', 2), ('insert', 'user', 6), ('update', 'api_key', 2), ('update', 'system', 2), ('update', 'user', 2)$$,
  'users, the API key and the server are each named as they were');
select is(
  (select array_agg(entity_id order by id) from logged where id <= (select last_id from marks where name = 'mixed')),
  (select array[p, t, p, t] from (select
     (select id from public.answers where inspection_id = (select audited from actors) and item_key = 'pf') as p,
     (select id from public.answers where inspection_id = (select audited from actors) and item_key = 'temp') as t) ids),
  'a statement''s rows come in the order the per-row trigger wrote them (its rows, then the statement''s)');

select * from finish();
rollback;
