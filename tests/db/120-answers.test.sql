-- Answers in the database: the trigger's rules (inspection in progress, item of the pinned
-- version, value fits the item, failed and weight, who, when and the row version, org_id from the
-- inspection), the inspection's score kept after every statement, answers frozen in every status
-- but in_progress, and RLS on both sides for every actor of the matrix (inspectors only on
-- inspections assigned to them or to nobody). The superuser checks afterwards that refused writes
-- changed nothing.
begin;
select plan(69);

create temp table items on commit drop as select '[
  {"key":"pf","kind":"pass_fail","label":"Floor clean","help":null,"required":true,"weight":2},
  {"key":"yn","kind":"yes_no","label":"Locked","help":null,"required":true,"weight":1,"fail_on":"no"},
  {"key":"temp","kind":"number","label":"Temperature","help":null,"required":true,"weight":3,"min":0,"max":5,"unit":"°C"},
  {"key":"remarks","kind":"text","label":"Remarks","help":null,"required":false,"weight":4},
  {"key":"clean","kind":"single_choice","label":"Cleanliness","help":null,"required":false,"weight":5,"options":["Good","Poor"],"failing_options":["Poor"]},
  {"key":"photo","kind":"photo","label":"Kitchen","help":null,"required":false,"weight":0,"max_photos":2}
]'::jsonb as value;
create temp table actors on commit drop as
  select m.*, a.site as site_a, a.template as template_a, b.site as site_b, b.template as template_b
  from tests.create_org_matrix('120') m,
       tests.create_published_template(m.org_a, (select value from items)) a,
       tests.create_published_template(m.org_b, (select value from items)) b;
alter table actors add column inspector2 uuid;
update actors set inspector2 = tests.create_user('inspector2-120@example.test', 'Iris 120');
select tests.add_member(org_a, inspector2, 'inspector') from actors;

-- One inspection per case: name → id. In progress unless named after another status, which it is
-- placed in directly: this file is about answers.
create temp table insp (name text primary key, id uuid) on commit drop;
grant select on actors, insp to anon, authenticated;
create function pg_temp.schedule(name text, org uuid, site uuid, template uuid, assignee uuid default null,
                                 status public.inspection_status default 'in_progress') returns void language sql as $$
  insert into insp values (name, tests.create_inspection(org, site, template, status, assignee));
$$;
select pg_temp.schedule('open', org_a, site_a, template_a) from actors;
select pg_temp.schedule('mine', org_a, site_a, template_a, inspector) from actors;
select pg_temp.schedule('theirs', org_a, site_a, template_a, inspector2) from actors;
select pg_temp.schedule('scores', org_a, site_a, template_a) from actors;
select pg_temp.schedule('second', org_a, site_a, template_a) from actors;
select pg_temp.schedule('org_b', org_b, site_b, template_b) from actors;
select pg_temp.schedule(s, org_a, site_a, template_a, status => s::public.inspection_status)
from actors, unnest('{scheduled,submitted,changes_requested,approved,canceled}'::text[]) s;

create function pg_temp.answer_sql(inspection text, item_key text, value text) returns text language sql as $$
  select format('insert into public.answers (inspection_id, item_key, value) values (%L, %L, %L::jsonb)',
                (select id from insp where name = inspection), item_key, value);
$$;
create function pg_temp.inspection(name text) returns public.inspections language sql as $$
  select i.* from public.inspections i where i.id = (select id from insp where insp.name = inspection.name);
$$;

-- The trigger's rules, as an inspector working on an unassigned inspection.
select tests.act_as((select inspector from actors));
select lives_ok(pg_temp.answer_sql('open', 'pf', '"fail"'), 'an inspector answers an unassigned inspection in progress');
select results_eq(
  $$select org_id, value, failed, weight, answered_by, version from public.answers
    where inspection_id = (select id from insp where name = 'open') and item_key = 'pf'$$,
  $$select org_a, '"fail"'::jsonb, true, 2::numeric, inspector, 1 from actors$$,
  'the new answer gets the organization, failed, the item''s weight, its author and version 1');
select is(tests.error_of(pg_temp.answer_sql('open', 'nope', '"pass"')),
  'validation_failed {"field" : "item_key", "message" : "This item is not in the inspection''s template."}',
  'an item that is not in the pinned version is refused on item_key');
select is(tests.error_of(pg_temp.answer_sql('open', 'temp', '"warm"')),
  'validation_failed {"field" : "value", "message" : "Enter a number."}', 'a value that does not fit its item is refused on value');
select is(tests.error_of(pg_temp.answer_sql('open', 'photo', '"x.jpg"')),
  'validation_failed {"field" : "value", "message" : "Add photos as attachments; a photo item has no value."}',
  'a photo item takes no value');
select is(tests.error_of(pg_temp.answer_sql('open', 'clean', '"Fine"')),
  'validation_failed {"field" : "value", "message" : "Choose one of the options."}', 'a choice that is not an option is refused');
select lives_ok(
  format($$insert into public.answers (org_id, inspection_id, item_key, value, note) values (%L, %L, 'temp', '9', 'Too warm')$$,
         (select org_b from actors), (select id from insp where name = 'open')),
  'an answer sent with another organization''s id is saved');
select is((select org_id from public.answers where inspection_id = (select id from insp where name = 'open') and item_key = 'temp'),
  (select org_a from actors), '... in the inspection''s organization: org_id comes from the inspection');
select lives_ok(
  format($$update public.answers set value = '"pass"' where inspection_id = %L and item_key = 'pf'$$, (select id from insp where name = 'open')),
  'an inspector changes an answer');
select results_eq(
  $$select value, failed, version from public.answers where inspection_id = (select id from insp where name = 'open') and item_key = 'pf'$$,
  $$values ('"pass"'::jsonb, false, 2)$$, 'a change recomputes failed and bumps the version');
select lives_ok(
  format($$update public.answers set value = 'null' where inspection_id = %L and item_key = 'pf'$$, (select id from insp where name = 'open')),
  'JSON null clears an answer');
select results_eq(
  $$select value is null, failed, weight, version from public.answers where inspection_id = (select id from insp where name = 'open') and item_key = 'pf'$$,
  $$values (true, null::boolean, 0::numeric, 3)$$, 'a cleared answer is stored as SQL null, unscored, weight 0, version bumped');
select throws_ok(
  format($$update public.answers set version = 1 where inspection_id = %L$$, (select id from insp where name = 'open')),
  '42501', null, 'the row version is not the caller''s to set');
select throws_ok(
  format($$update public.answers set failed = false where inspection_id = %L$$, (select id from insp where name = 'open')),
  '42501', null, 'failed is not the caller''s to set');
select throws_ok(
  format($$update public.answers set item_key = 'yn' where inspection_id = %L$$, (select id from insp where name = 'open')),
  '42501', null, 'an answer cannot be moved to another item');
select throws_ok(
  format($$delete from public.answers where inspection_id = %L$$, (select id from insp where name = 'open')),
  '42501', null, 'nobody deletes answers (a null value clears one)');
select throws_ok(pg_temp.answer_sql('open', 'yn', '"yes"') || ' on conflict do nothing; insert into public.answers (inspection_id, item_key, value) values ((select id from insp where name = ''open''), ''yn'', ''"no"'')',
  '23505', null, 'one answer per item: a second insert for the item is a duplicate');

-- The score: max_score = Σ weight of scored answers, score = Σ weight of passed ones, failed_count.
select tests.act_as((select manager from actors));
select lives_ok(
  format($$insert into public.answers (inspection_id, item_key, value) values
    (%1$L, 'pf', '"pass"'), (%1$L, 'yn', '"no"'), (%1$L, 'temp', '3'), (%1$L, 'remarks', '"ok"'), (%1$L, 'clean', '"Poor"')$$,
    (select id from insp where name = 'scores')),
  'a manager saves five answers in one statement');
select results_eq($$select score, max_score, failed_count from pg_temp.inspection('scores')$$,
  $$values (5::numeric, 11::numeric, 2)$$, 'score 5 (pf 2 + temp 3), max 11 (+ yn 1 + clean 5; text unscored), 2 failed');
select lives_ok(
  format($$update public.answers set value = case item_key when 'yn' then '"yes"'::jsonb else '"Good"'::jsonb end
           where inspection_id = %L and item_key in ('yn', 'clean')$$, (select id from insp where name = 'scores')),
  'two failed answers are corrected in one statement');
select results_eq($$select score, max_score, failed_count from pg_temp.inspection('scores')$$,
  $$values (11::numeric, 11::numeric, 0)$$, 'the score follows: 11 of 11, none failed');
select lives_ok(
  format($$insert into public.answers (inspection_id, item_key, value) values (%L, 'pf', '"fail"'), (%L, 'pf', '"pass"')
           on conflict (inspection_id, item_key) do update set value = excluded.value$$,
         (select id from insp where name = 'scores'), (select id from insp where name = 'second')),
  'one statement writes answers of two inspections (an upsert and an insert)');
select results_eq(
  $$select score, max_score, failed_count from pg_temp.inspection('scores') union all
    select score, max_score, failed_count from pg_temp.inspection('second')$$,
  $$values (9::numeric, 11::numeric, 1), (2::numeric, 2::numeric, 0)$$, 'both inspections'' scores are recomputed');
select tests.reset_role();
delete from public.answers where inspection_id = (select id from insp where name = 'scores') and item_key = 'pf';
select results_eq($$select score, max_score, failed_count from pg_temp.inspection('scores')$$,
  $$values (9::numeric, 9::numeric, 0)$$, 'a deletion (by the server) recomputes the score too');
select is((select count(*)::int from public.audit_log where entity = 'answers'
           and coalesce(after, before) ->> 'inspection_id' = (select id::text from insp where name = 'scores')), 9,
  'every insert, update and delete of an answer is in the audit log (5 + 3 + 1)');

-- Frozen outside in_progress: every other status refuses new answers and changes.
select tests.act_as((select owner from actors));
select is(tests.error_of(pg_temp.answer_sql('scheduled', 'pf', '"pass"')),
  'invalid_transition {"status" : "scheduled", "verb" : "answered"}', 'a scheduled inspection cannot be answered');
select is(tests.error_of(pg_temp.answer_sql('submitted', 'pf', '"pass"')),
  'invalid_transition {"status" : "submitted", "verb" : "answered"}', 'a submitted inspection cannot be answered');
select is(tests.error_of(pg_temp.answer_sql('changes_requested', 'pf', '"pass"')),
  'invalid_transition {"status" : "sent back for changes", "verb" : "answered"}', 'an inspection sent back cannot be answered before it is continued');
select is(tests.error_of(pg_temp.answer_sql('approved', 'pf', '"pass"')),
  'invalid_transition {"status" : "approved", "verb" : "answered"}', 'an approved inspection cannot be answered');
select is(tests.error_of(pg_temp.answer_sql('canceled', 'pf', '"pass"')),
  'invalid_transition {"status" : "canceled", "verb" : "answered"}', 'a canceled inspection cannot be answered');
select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set status = 'submitted' where id = (select id from insp where name = 'second');
set local session_replication_role = origin;
select tests.act_as((select owner from actors));
select is(tests.error_of(format($$update public.answers set value = '"fail"' where inspection_id = %L$$, (select id from insp where name = 'second'))),
  'invalid_transition {"status" : "submitted", "verb" : "answered"}', 'an answer of a submitted inspection cannot be changed');
select is(tests.error_of(format($$update public.answers set note = 'Late note' where inspection_id = %L$$, (select id from insp where name = 'second'))),
  'invalid_transition {"status" : "submitted", "verb" : "answered"}', '... nor its note');
select tests.reset_role();
select is((select count(*)::int from public.answers where inspection_id in (select id from insp where name in
  ('scheduled', 'submitted', 'changes_requested', 'approved', 'canceled'))), 0, 'no answer reached a frozen inspection');
select results_eq($$select value, note from public.answers where inspection_id = (select id from insp where name = 'second')$$,
  $$values ('"pass"'::jsonb, null::text)$$, 'the submitted inspection''s answer is unchanged');

-- RLS, select: members of the organization read its answers; nobody else sees any.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.answers$$, '42501', null, 'anon cannot read answers');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.answers), 0, 'a signed-in non-member sees no answer');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.answers), 0, 'the owner of B sees none of A''s answers');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.answers), (select count(*)::int from public.answers a, actors where a.org_id = actors.org_a),
  'a viewer reads every answer of A');
select is((select count(*)::int from public.answers), 7, '... which are all the answers there are');

-- RLS, insert: fillers; inspectors only on inspections assigned to them or to nobody.
select tests.act_as_anon();
select throws_ok(pg_temp.answer_sql('mine', 'pf', '"pass"'), '42501', null, 'anon cannot answer');
select tests.act_as((select outsider from actors));
select throws_ok(pg_temp.answer_sql('mine', 'pf', '"pass"'), '42501', null, 'a non-member cannot answer A''s inspection');
select tests.act_as((select b_owner from actors));
select throws_ok(pg_temp.answer_sql('mine', 'pf', '"pass"'), '42501', null, 'the owner of B cannot answer A''s inspection');
select throws_ok(
  format($$insert into public.answers (org_id, inspection_id, item_key, value) values (%L, %L, 'pf', '"pass"')$$,
         (select org_b from actors), (select id from insp where name = 'mine')),
  '42501', null, '... not even by sending B''s organization id with it');
select lives_ok(pg_temp.answer_sql('org_b', 'pf', '"pass"'), 'the owner of B answers B''s own inspection');
select tests.act_as((select viewer from actors));
select throws_ok(pg_temp.answer_sql('open', 'yn', '"yes"'), '42501', null, 'a viewer cannot answer');
select tests.act_as((select inspector from actors));
select lives_ok(pg_temp.answer_sql('mine', 'pf', '"pass"'), 'an inspector answers an inspection assigned to them');
select throws_ok(pg_temp.answer_sql('theirs', 'pf', '"pass"'), '42501', null, 'an inspector cannot answer an inspection assigned to someone else');
select throws_ok(pg_temp.answer_sql('org_b', 'yn', '"yes"'), '42501', null, 'an inspector of A cannot answer B''s inspection');
select tests.act_as((select inspector2 from actors));
select lives_ok(pg_temp.answer_sql('theirs', 'pf', '"fail"'), 'the assigned inspector answers it');
select lives_ok(pg_temp.answer_sql('open', 'yn', '"yes"'), 'a second inspector answers the unassigned inspection too (collaboration)');
select tests.act_as((select manager from actors));
select lives_ok(pg_temp.answer_sql('theirs', 'yn', '"yes"'), 'a manager answers an inspection assigned to an inspector');
select tests.act_as((select admin from actors));
select lives_ok(pg_temp.answer_sql('theirs', 'temp', '4'), 'an admin answers it');
select tests.act_as((select owner from actors));
select lives_ok(pg_temp.answer_sql('theirs', 'remarks', '"Checked"'), 'the owner answers it');
select throws_ok(pg_temp.answer_sql('org_b', 'yn', '"yes"'), '42501', null, 'the owner of A cannot answer B''s inspection');
select throws_ok(
  format($$insert into public.answers (inspection_id, item_key, value, version, failed) values (%L, 'clean', '"Good"', 7, true)$$,
         (select id from insp where name = 'theirs')),
  '42501', null, 'version and failed cannot be sent with a new answer');

-- RLS, update: the same people; others change nothing (0 rows).
select tests.act_as((select viewer from actors));
with changed as (update public.answers set note = 'By viewer' where inspection_id = (select id from insp where name = 'theirs') returning 1)
select is(count(*)::int, 0, 'a viewer changes no answer (0 rows)') from changed;
select tests.act_as((select outsider from actors));
with changed as (update public.answers set note = 'By outsider' returning 1)
select is(count(*)::int, 0, 'a non-member changes no answer (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.answers set note = 'By B' where inspection_id = (select id from insp where name = 'theirs') returning 1)
select is(count(*)::int, 0, 'the owner of B changes none of A''s answers (0 rows)') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.answers set note = 'By inspector' where inspection_id = (select id from insp where name = 'theirs') returning 1)
select is(count(*)::int, 0, 'an inspector changes no answer of an inspection assigned to someone else (0 rows)') from changed;
with changed as (update public.answers set note = 'By inspector' where inspection_id = (select id from insp where name = 'mine') returning 1)
select is(count(*)::int, 1, 'an inspector changes an answer of their own inspection (1 row)') from changed;
select tests.act_as((select inspector2 from actors));
with changed as (update public.answers set note = 'By Iris' where inspection_id = (select id from insp where name = 'theirs') and item_key = 'pf' returning 1)
select is(count(*)::int, 1, 'the assigned inspector changes theirs (1 row)') from changed;
select tests.act_as((select manager from actors));
with changed as (update public.answers set note = 'By manager' where inspection_id = (select id from insp where name = 'mine') returning 1)
select is(count(*)::int, 1, 'a manager changes an answer of an inspection assigned to an inspector (1 row)') from changed;
select tests.act_as((select admin from actors));
with changed as (update public.answers set note = 'By admin' where inspection_id = (select id from insp where name = 'open') and item_key = 'yn' returning 1)
select is(count(*)::int, 1, 'an admin changes an answer (1 row)') from changed;
select tests.act_as((select owner from actors));
with changed as (update public.answers set note = 'By A' where inspection_id = (select id from insp where name = 'org_b') returning 1)
select is(count(*)::int, 0, 'the owner of A changes none of B''s answers (0 rows)') from changed;

select tests.reset_role();
select results_eq(
  $$select item_key, note, answered_by from public.answers where inspection_id = (select id from insp where name = 'theirs') order by item_key$$,
  $$select * from (values ('pf', 'By Iris', (select inspector2 from actors)), ('remarks', null, (select owner from actors)),
                           ('temp', null, (select admin from actors)), ('yn', null, (select manager from actors))) v(k, n, b) order by k$$,
  'the inspection assigned to Iris has exactly the allowed answers and notes, each credited to its author');
select results_eq($$select item_key, note from public.answers where inspection_id = (select id from insp where name = 'mine')$$,
  $$values ('pf', 'By manager')$$, 'the inspector''s own inspection has their answer, last changed by the manager');
select results_eq($$select item_key, note from public.answers where inspection_id = (select id from insp where name = 'org_b')$$,
  $$values ('pf', null::text)$$, 'B''s inspection has only its owner''s answer, untouched by A');

-- Organizations requiring MFA: answers need an aal2 session.
update public.organizations set require_mfa = true where id = (select org_a from actors);
select tests.act_as((select inspector from actors));
select throws_ok(pg_temp.answer_sql('mine', 'yn', '"yes"'), 'P0001', 'mfa_required', 'an aal1 session cannot answer when the organization requires MFA');
select tests.act_as((select inspector from actors), 'aal2');
select lives_ok(pg_temp.answer_sql('mine', 'yn', '"yes"'), 'an aal2 session can');

select * from finish();
rollback;
