-- Deleting a user clears their references (on delete set null) on inspections, answers and photos
-- in every state, without tripping the lifecycle rules: the assignee, starter and submitter of a
-- submitted inspection, the author of its answers and the uploader of its photo, and the manager
-- who scheduled it, can all be deleted, and the rest of each row stays as it was. A manager still
-- cannot unassign a submitted inspection while the assignee exists, and the answer left without
-- an author still cannot change.
begin;
select plan(11);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('110d') m, tests.create_published_template(m.org_a, '[
    {"key": "pf", "kind": "pass_fail", "label": "Floor clean", "help": null, "required": true, "weight": 1},
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 5}]') p;
alter table actors add column inspection uuid;
grant select, update on actors to authenticated;

-- Scheduled by the manager, assigned to the inspector, who starts, answers, adds a photo and submits.
select tests.act_as((select manager from actors));
with created as (
  insert into public.inspections (org_id, site_id, template_id, assignee_id) select org_a, site, template, inspector from actors returning id
)
update actors set inspection = (select id from created);
select tests.act_as((select inspector from actors));
update public.inspections set status = 'in_progress' where id = (select inspection from actors);
insert into public.answers (org_id, inspection_id, item_key, value) select org_a, inspection, 'pf', '"fail"' from actors;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
select org_a, inspection, 'photo', org_a || '/' || inspection || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors;
update public.inspections set status = 'submitted' where id = (select inspection from actors);
select tests.reset_role();
create temp table before_deletion on commit drop as
  select a.value, a.failed, a.version, a.answered_at, i.status, i.score, i.max_score, i.failed_count
  from public.answers a join public.inspections i on i.id = a.inspection_id where i.id = (select inspection from actors);

-- The other side: clearing the assignee of someone who exists is still an edit, refused once submitted.
select tests.act_as((select manager from actors));
select throws_ok($$update public.inspections set assignee_id = null where id = (select inspection from actors)$$,
  'P0001', 'invalid_transition', 'a manager cannot unassign a submitted inspection');
select tests.reset_role();

select lives_ok($$delete from auth.users where id = (select inspector from actors)$$,
  'the inspector who was assigned, started, answered, added a photo and submitted can be deleted');
select results_eq(
  $$select assignee_id, started_by, submitted_by, status from public.inspections where id = (select inspection from actors)$$,
  $$values (null::uuid, null::uuid, null::uuid, 'submitted'::public.inspection_status)$$,
  'the inspection forgets them and stays submitted');
select results_eq(
  $$select a.value, a.failed, a.version, a.answered_at, i.status, i.score, i.max_score, i.failed_count
    from public.answers a join public.inspections i on i.id = a.inspection_id where i.id = (select inspection from actors)$$,
  $$select * from before_deletion$$,
  'the answer keeps its value, version and time, and the score is unchanged');
select is((select answered_by from public.answers where inspection_id = (select inspection from actors)), null,
  'the answer forgets who gave it');
select is((select uploaded_by from public.attachments where inspection_id = (select inspection from actors)), null,
  'the photo forgets who uploaded it');
select is((select count(*)::int from realtime.messages
           where topic = 'inspection:' || (select inspection from actors) and event = 'attachment_changed' and payload ->> 'action' = 'confirmed'),
  0, 'forgetting the uploader is not announced as a confirmed photo');

select tests.act_as((select owner from actors));
select throws_ok($$update public.answers set value = value, note = note where inspection_id = (select inspection from actors)$$,
  'P0001', 'invalid_transition', 'an answer whose author is gone is still written only while the inspection is in progress');
select tests.reset_role();

select lives_ok($$delete from auth.users where id = (select manager from actors)$$, 'the manager who scheduled it can be deleted');
select is((select created_by from public.inspections where id = (select inspection from actors)), null,
  'the inspection forgets who scheduled it');
select is((select status from public.inspections where id = (select inspection from actors)), 'submitted',
  'and is still submitted');

select * from finish();
rollback;
