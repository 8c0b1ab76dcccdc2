-- Inspections: who reads, schedules, edits and deletes them (both sides of every policy); the
-- consistency checks on scheduling; the inspector assignment rule; the required-items check on
-- submit; details frozen in final states; lifecycle columns set by the database only; MFA.
begin;
select plan(64);

create temp table actors on commit drop as select * from tests.create_org_matrix('110');
alter table actors add column site uuid, add column site_b uuid, add column archived_site uuid,
  add column template uuid, add column draft_template uuid, add column version_id uuid, add column inspector2 uuid;
update actors set inspector2 = tests.create_user('inspector2-110@example.test', 'Second inspector');
select tests.add_member(org_a, inspector2, 'inspector') from actors;
update public.organizations set default_geofence_m = 100 where id = (select org_a from actors);
with created as (insert into public.sites (org_id, name, latitude, longitude) select org_a, 'Depot', 51.5007, -0.1246 from actors returning id)
update actors set site = (select id from created);
with created as (insert into public.sites (org_id, name, archived_at) select org_a, 'Old depot', now() from actors returning id)
update actors set archived_site = (select id from created);
with created as (insert into public.sites (org_id, name) select org_b, 'Depot B' from actors returning id)
update actors set site_b = (select id from created);
-- Required: a pass/fail item and a photo item; optional: a text item.
with created as (
  insert into public.templates (org_id, name, definition)
  select org_a, 'Kitchen audit', '{"sections":[{"key":"main","title":"Main","items":[
    {"key":"floor","kind":"pass_fail","label":"Floor clean","help":null,"required":true,"weight":1},
    {"key":"remarks","kind":"text","label":"Remarks","help":null,"required":false,"weight":0},
    {"key":"photo","kind":"photo","label":"Photo","help":null,"required":true,"weight":0,"max_photos":2}]}]}'
  from actors returning id
)
update actors set template = (select id from created);
with created as (insert into public.template_versions (org_id, template_id, version, name, definition) select org_a, template, 1, 'x', '{}' from actors returning id)
update actors set version_id = (select id from created);
with created as (
  insert into public.templates (org_id, name, definition) select org_a, 'Never published', '{"sections":[]}' from actors returning id
)
update actors set draft_template = (select id from created);
grant select on actors to anon, authenticated;

-- Scheduling: managers and above, consistent rows only.
select tests.act_as_anon();
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  '42501', null, 'anon cannot schedule an inspection');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  '42501', null, 'a non-member cannot schedule an inspection in A');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  '42501', null, 'the owner of B cannot schedule an inspection in A');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  '42501', null, 'a viewer cannot schedule an inspection');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  '42501', null, 'an inspector cannot schedule an inspection');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id, title) select org_a, site, template, 'By manager' from actors$$,
  'a manager schedules an inspection');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id, title, assignee_id) select org_a, site, template, 'Assigned', inspector2 from actors$$,
  'an admin schedules an inspection assigned to an inspector');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  'the owner schedules an inspection without a title');
select is((select title from public.inspections where title not in ('By manager', 'Assigned')), 'Kitchen audit — Depot',
  'the title defaults to "<template> — <site>"');
select is((select count(*)::int from public.inspections i join actors a on i.template_version_id = a.version_id), 3,
  'every inspection pinned the template''s latest version');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site_b, template from actors$$,
  'P0001', 'validation_failed', 'a site of another organization is refused');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, archived_site, template from actors$$,
  'P0001', 'validation_failed', 'an archived site is refused');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, draft_template from actors$$,
  'P0001', 'validation_failed', 'a template never published is refused');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id, assignee_id) select org_a, site, template, viewer from actors$$,
  'P0001', 'validation_failed', 'a viewer cannot be the assignee');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id, assignee_id) select org_a, site, template, b_owner from actors$$,
  'P0001', 'validation_failed', 'a non-member cannot be the assignee');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id, status) select org_a, site, template, 'approved' from actors$$,
  '42501', null, 'an inspection cannot be scheduled in another status');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id, score) select org_a, site, template, 100 from actors$$,
  '42501', null, 'the score is not the caller''s to set');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_b, site_b, template from actors$$,
  '42501', null, 'the owner of A cannot schedule in B');

select tests.reset_role();
update public.templates set status = 'archived' where id = (select template from actors);
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, template from actors$$,
  'P0001', 'validation_failed', 'an archived template is refused');
select tests.reset_role();
select is((select count(*)::int from public.inspections where org_id = (select org_a from actors)), 3, 'only the three allowed inspections were written');

-- Reading: members of the organization only.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.inspections$$, '42501', null, 'anon cannot read inspections');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.inspections), 0, 'a signed-in non-member sees no inspection');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.inspections), 0, 'the owner of B sees none of A''s inspections');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.inspections), 3, 'a viewer sees A''s inspections');
select tests.act_as((select inspector from actors));
select is((select count(*)::int from public.inspections), 3, 'an inspector sees every inspection of A, assigned or not');

-- The assignment rule: inspectors work on theirs and unassigned ones; starting does not assign.
select tests.act_as((select inspector from actors));
with changed as (update public.inspections set status = 'in_progress' where title = 'Assigned' returning 1)
select is(count(*)::int, 0, 'an inspector cannot start an inspection assigned to someone else (0 rows)') from changed;
with changed as (update public.inspections set status = 'in_progress', start_latitude = 51.5015, start_longitude = -0.1246, start_accuracy_m = 5
                 where title = 'By manager' returning 1)
select is(count(*)::int, 1, 'an inspector starts an unassigned inspection') from changed;
select tests.reset_role();
select results_eq(
  $$select status::text, assignee_id, started_by, round(start_distance_m)::int, start_outside_geofence from public.inspections where title = 'By manager'$$,
  $$select 'in_progress', null::uuid, inspector, 89, false from actors$$,
  'the start left it unassigned; the database stamped who started and how far from the site (89 m, inside 100 m)'
);
select tests.act_as((select inspector2 from actors));
with changed as (update public.inspections set status = 'in_progress' where title = 'Assigned' returning 1)
select is(count(*)::int, 1, 'the assignee starts their inspection') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.inspections set title = 'By viewer' returning 1)
select is(count(*)::int, 0, 'a viewer updates nothing (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.inspections set title = 'By B' returning 1)
select is(count(*)::int, 0, 'the owner of B updates nothing in A (0 rows)') from changed;

-- Lifecycle columns are the database's: not granted, and replaced by the trigger when written by the superuser.
select tests.act_as((select manager from actors));
select throws_ok($$update public.inspections set started_at = now() - interval '1 day' where title = 'By manager'$$,
  '42501', null, 'started_at is not the caller''s to set');
select throws_ok($$update public.inspections set start_distance_m = 1 where title = 'By manager'$$,
  '42501', null, 'the start distance is not the caller''s to set');
select throws_ok($$update public.inspections set score = 99 where title = 'By manager'$$,
  '42501', null, 'the score is not the caller''s to set');
select throws_ok($$update public.inspections set start_latitude = 0, start_longitude = 0 where title = 'By manager'$$,
  'P0001', 'validation_failed', 'the start position cannot be changed after the start');
select throws_ok($$update public.inspections set review_note = 'Sneaky' where title = 'By manager'$$,
  'P0001', 'validation_failed', 'a review note comes only with a review');
select throws_ok($$update public.inspections set site_id = (select archived_site from actors) where title = 'By manager'$$,
  '42501', null, 'an inspection cannot move to another site');
select tests.reset_role();
update public.inspections set submitted_at = now(), started_by = null where title = 'By manager';
select results_eq($$select submitted_at is null, started_by from public.inspections where title = 'By manager'$$,
  $$select true, inspector from actors$$, 'the trigger keeps stamps even against the superuser');

-- Editing details: managers only, while scheduled or in progress.
select tests.act_as((select inspector from actors));
select throws_ok($$update public.inspections set title = 'Renamed by inspector' where title = 'By manager'$$,
  'P0001', 'forbidden', 'an inspector cannot edit the title of an inspection they may fill in');
select throws_ok($$update public.inspections set assignee_id = (select inspector from actors) where title = 'By manager'$$,
  'P0001', 'forbidden', 'an inspector cannot assign themselves');
select tests.act_as((select manager from actors));
select lives_ok($$update public.inspections set due_at = now() + interval '1 day', external_ref = 'WO-1' where title = 'By manager'$$,
  'a manager edits the due date and reference while the inspection is in progress');
select throws_ok($$update public.inspections set assignee_id = (select viewer from actors) where title = 'By manager'$$,
  'P0001', 'validation_failed', 'a viewer cannot become the assignee');
select lives_ok($$update public.inspections set assignee_id = (select inspector2 from actors) where title = 'Kitchen audit — Depot'$$,
  'a manager assigns an inspector');

-- Submitting needs every required item answered; a photo item needs a confirmed photo.
select tests.act_as((select inspector from actors));
create temp table submit_errors (message text, detail text) on commit drop;
grant all on submit_errors to authenticated;
do $$
declare
  detail_text text;
begin
  update public.inspections set status = 'submitted' where title = 'By manager';
exception when others then
  get stacked diagnostics detail_text = pg_exception_detail;
  insert into submit_errors values (sqlerrm, detail_text);
end;
$$;
select results_eq($$select message, detail::jsonb from submit_errors$$,
  $$values ('required_items_missing', '{"n": 2, "missing": ["floor", "photo"]}'::jsonb)$$,
  'submitting with nothing answered names both required items, in definition order');
select tests.reset_role();
insert into public.answers (org_id, inspection_id, item_key, value)
select org_a, (select id from public.inspections where title = 'By manager'), 'floor', '"pass"' from actors;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, uploaded_by)
select org_a, i.id, 'photo', org_a || '/' || i.id || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10, inspector
from actors, public.inspections i where i.title = 'By manager';
select tests.act_as((select inspector from actors));
select throws_ok($$update public.inspections set status = 'submitted' where title = 'By manager'$$,
  'P0001', 'required_items_missing', 'a pending photo does not answer a photo item');
select tests.reset_role();
-- Confirming checks the stored object, as the evidence route does after an upload.
insert into storage.objects (bucket_id, name, metadata)
select 'evidence', object_path, jsonb_build_object('size', byte_size, 'mimetype', content_type) from public.attachments where item_key = 'photo';
update public.attachments set confirmed_at = now() where item_key = 'photo';
select tests.act_as((select inspector from actors));
with changed as (update public.inspections set status = 'submitted' where title = 'By manager' returning 1)
select is(count(*)::int, 1, 'with the pass/fail answered and a confirmed photo the inspection is submitted') from changed;
select tests.reset_role();
select results_eq($$select submitted_by, submitted_at is not null from public.inspections where title = 'By manager'$$,
  $$select inspector, true from actors$$, 'the submission is stamped with who and when');

-- Final and reviewed states freeze the details.
select tests.act_as((select manager from actors));
select throws_ok($$update public.inspections set title = 'Renamed after submit' where title = 'By manager'$$,
  'P0001', 'invalid_transition', 'a submitted inspection''s title is frozen');
select lives_ok($$update public.inspections set status = 'approved', review_note = 'Good work.' where title = 'By manager'$$,
  'a manager approves with a note');
select throws_ok($$update public.inspections set due_at = now() where title = 'By manager'$$,
  'P0001', 'invalid_transition', 'an approved inspection''s due date is frozen');
select throws_ok($$update public.inspections set assignee_id = (select inspector2 from actors) where title = 'By manager'$$,
  'P0001', 'invalid_transition', 'an approved inspection''s assignee is frozen');
select lives_ok($$update public.inspections set status = 'canceled' where title = 'Kitchen audit — Depot'$$, 'a manager cancels');
select throws_ok($$update public.inspections set external_ref = 'WO-2' where title = 'Kitchen audit — Depot'$$,
  'P0001', 'invalid_transition', 'a canceled inspection''s reference is frozen');
select tests.reset_role();
-- Five updates here (start, stamps, edit, submit, approve) plus the score kept from the answer.
select results_eq($$select reviewed_by, review_note, version >= 6 from public.inspections where title = 'By manager'$$,
  $$select manager, 'Good work.', true from actors$$, 'the review is stamped and every update bumped the version');

-- Nobody deletes an inspection: it is canceled instead.
select tests.act_as((select owner from actors));
select throws_ok($$delete from public.inspections$$, '42501', null, 'the owner cannot delete inspections');
select tests.act_as((select manager from actors));
select throws_ok($$delete from public.inspections$$, '42501', null, 'a manager cannot delete inspections');
select tests.reset_role();
select is((select count(*)::int from public.inspections where org_id = (select org_a from actors)), 3, 'no inspection was deleted');

-- The transitions are reference data every signed-in user reads.
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.inspection_transitions), 7, 'a viewer reads the seven transitions');
select throws_ok($$insert into public.inspection_transitions values ('approved', 'scheduled', 'reopened', '{owner}')$$,
  '42501', null, 'nobody adds a transition');
select tests.act_as_anon();
select throws_ok($$select count(*) from public.inspection_transitions$$, '42501', null, 'anon cannot read the transitions');

-- MFA: an organization that requires it refuses aal1 writes.
select tests.reset_role();
update public.organizations set require_mfa = true where id = (select org_a from actors);
select tests.act_as((select manager from actors), 'aal1');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, site, draft_template from actors$$,
  'P0001', 'mfa_required', 'an aal1 session cannot schedule in an organization requiring MFA');
select tests.act_as((select inspector2 from actors), 'aal1');
select throws_ok($$update public.inspections set status = 'submitted' where title = 'Assigned'$$,
  'P0001', 'mfa_required', 'an aal1 session cannot move an inspection in an organization requiring MFA');

-- Deleting the organization is the one way inspections go, with their answers and photos.
select tests.reset_role();
select lives_ok($$delete from public.organizations where id = (select org_a from actors)$$,
  'an organization with inspections, answers and photos can be deleted');
select is((select count(*)::int from public.inspections where org_id = (select org_a from actors)), 0, 'its inspections went with it');

select * from finish();
rollback;
