-- Submitting an inspection opens one action per failed item, in the submit's transaction:
-- titled "<label> — <answer>" for every kind that can fail, at the inspection's site, assigned to
-- the inspection's assignee (else the submitter). Idempotent: a resubmission after changes never
-- opens a second action for an item, an item given an action by hand gets none, and the unique
-- index refuses a duplicate even past the trigger. An item that passes on a later submission
-- marks its action "item now passes"; failing again clears the mark.
begin;
select plan(16);

create temp table actors on commit drop as
  select m.*, p.*, tests.create_user('inspector2-141@example.test', 'Second inspector') as inspector2
  from tests.create_org_matrix('141') m, tests.create_published_template(m.org_a, '[
    {"key":"floor","kind":"pass_fail","label":"Floor is clean","help":null,"required":false,"weight":1},
    {"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":"°C"},
    {"key":"locked","kind":"yes_no","label":"Is the store locked?","help":null,"required":false,"weight":1,"fail_on":"no"},
    {"key":"clean","kind":"single_choice","label":"Cleanliness","help":null,"required":false,"weight":1,"options":["Good","Poor"],"failing_options":["Poor"]},
    {"key":"hazards","kind":"multi_choice","label":"Hazards","help":null,"required":false,"weight":1,"options":["Wet floor","Blocked exit","None"],"failing_options":["Wet floor","Blocked exit"]},
    {"key":"door","kind":"pass_fail","label":"Door closes","help":null,"required":false,"weight":1},
    {"key":"extra","kind":"pass_fail","label":"Extractor works","help":null,"required":false,"weight":1}
  ]') p;
select tests.add_member((select org_a from actors), (select inspector2 from actors), 'inspector');
alter table actors add column inspection uuid, add column unassigned uuid, add column by_manager uuid;
update actors set inspection = tests.create_inspection(org_a, site, template, 'in_progress', inspector),
                  unassigned = tests.create_inspection(org_a, site, template, 'in_progress'),
                  by_manager = tests.create_inspection(org_a, site, template, 'in_progress', inspector);
grant select on actors to authenticated;

-- Answers written as `actor`, inserted or changed.
create function tests.answer(actor uuid, inspection uuid, answers jsonb)
returns void
language plpgsql
as $$
begin
  perform tests.act_as(actor);
  insert into public.answers (inspection_id, item_key, value)
  select inspection, a.key, a.value from jsonb_each(answers) a
  on conflict (inspection_id, item_key) do update set value = excluded.value;
  perform tests.reset_role();
end;
$$;

create function tests.set_status(actor uuid, inspection uuid, target public.inspection_status)
returns void
language plpgsql
as $$
begin
  perform tests.act_as(actor);
  update public.inspections set status = target where id = inspection;
  perform tests.reset_role();
end;
$$;

select tests.answer(inspector, inspection,
  '{"floor":"fail","temp":7.5,"locked":"no","clean":"Poor","hazards":["Wet floor","Blocked exit"],"door":"pass"}') from actors;
-- The inspector opens an action on an item by hand before submitting.
select tests.act_as((select inspector from actors));
insert into public.actions (org_id, inspection_id, item_key, title) select org_a, inspection, 'extra', 'Extractor rattles' from actors;
select tests.reset_role();
select tests.answer(inspector, inspection, '{"extra":"fail"}') from actors;

select tests.set_status(inspector, inspection, 'submitted') from actors;
select results_eq(
  $$select item_key, title, origin, status, assignee_id, created_by, site_id, priority::text from public.actions
    where inspection_id = (select inspection from actors) order by item_key$$,
  $$select * from (values
      ('clean', 'Cleanliness — Poor', 'submit', 'open'::public.action_status),
      ('extra', 'Extractor rattles', 'manual', 'open'),
      ('floor', 'Floor is clean — Fail', 'submit', 'open'),
      ('hazards', 'Hazards — Wet floor, Blocked exit', 'submit', 'open'),
      ('locked', 'Is the store locked? — No', 'submit', 'open'),
      ('temp', 'Fridge temperature — 7.5 °C', 'submit', 'open')) v(k, t, o, s),
    lateral (select inspector, inspector, site, 'medium' from actors) a$$,
  'one action per failed item, titled from label and answer, assigned to the inspector; the item with an action by hand gets no second'
);
select is((select count(*)::int from public.action_events e join public.actions a on a.id = e.action_id
           where a.inspection_id = (select inspection from actors) and e.kind = 'opened' and e.actor_user_id = (select inspector from actors)),
  6, 'each opening is an event credited to the submitter');
select is((select count(*)::int from public.audit_log where entity = 'actions' and action = 'insert'
           and after ->> 'inspection_id' = (select inspection::text from actors)), 6, 'and audited');
select is((select count(*)::int from public.actions where inspection_id = (select inspection from actors)
           and due_at = created_at + interval '7 days'), 6, 'each due in a week (medium priority)');

select is(tests.error_of($$insert into public.actions (org_id, site_id, inspection_id, item_key, origin, title)
  select org_a, site, inspection, 'floor', 'submit', 'Again' from actors$$)::text like 'duplicate key value violates unique constraint%', true,
  'a second action opened by submit for the same item is refused by the unique index, even past the trigger');

-- Sent back; the floor now passes, the door fails, the rest as before; submitted again.
select tests.set_status(manager, inspection, 'changes_requested') from actors;
select tests.set_status(inspector, inspection, 'in_progress') from actors;
select tests.answer(inspector, inspection, '{"floor":"pass","door":"fail"}') from actors;
select tests.set_status(inspector, inspection, 'submitted') from actors;
select is((select count(*)::int from public.actions where inspection_id = (select inspection from actors)), 7,
  'the resubmission opens one action, for the newly failed door, and no duplicate');
select is((select title from public.actions where inspection_id = (select inspection from actors) and item_key = 'door'),
  'Door closes — Fail', 'the door''s action');
select results_eq(
  $$select item_key, item_passed_at is not null, status from public.actions
    where inspection_id = (select inspection from actors) and item_passed_at is not null$$,
  $$values ('floor', true, 'open'::public.action_status)$$,
  'the floor''s action stays open, marked "item now passes"'
);
select is((select kind from public.action_events e join public.actions a on a.id = e.action_id
           where a.inspection_id = (select inspection from actors) and a.item_key = 'floor' order by e.id desc limit 1),
  'item_passed', 'with an item_passed event');

-- Sent back again; the floor fails again.
select tests.set_status(manager, inspection, 'changes_requested') from actors;
select tests.set_status(inspector, inspection, 'in_progress') from actors;
select tests.answer(inspector, inspection, '{"floor":"fail"}') from actors;
select tests.set_status(inspector, inspection, 'submitted') from actors;
select is((select count(*)::int from public.actions where inspection_id = (select inspection from actors)), 7,
  'failing again opens nothing new');
select is((select item_passed_at from public.actions where inspection_id = (select inspection from actors) and item_key = 'floor'), null,
  'the mark is cleared');
select is((select kind from public.action_events e join public.actions a on a.id = e.action_id
           where a.inspection_id = (select inspection from actors) and a.item_key = 'floor' order by e.id desc limit 1),
  'item_failed_again', 'with an item_failed_again event');

-- Whose work: unassigned → the submitter; assigned but submitted by a manager → the assignee.
select tests.answer(inspector2, unassigned, '{"floor":"fail"}') from actors;
select tests.set_status(inspector2, unassigned, 'submitted') from actors;
select results_eq($$select assignee_id, created_by from public.actions where inspection_id = (select unassigned from actors)$$,
  $$select inspector2, inspector2 from actors$$, 'an unassigned inspection''s actions go to whoever submitted it');
select tests.answer(manager, by_manager, '{"floor":"fail"}') from actors;
select tests.set_status(manager, by_manager, 'submitted') from actors;
select results_eq($$select assignee_id, created_by from public.actions where inspection_id = (select by_manager from actors)$$,
  $$select inspector, manager from actors$$, 'a manager submitting an assigned inspection opens its actions for the assignee');

-- Nothing failed, nothing opened.
alter table actors add column clean uuid;
update actors set clean = tests.create_inspection(org_a, site, template, 'in_progress', inspector);
select tests.answer(inspector, clean, '{"floor":"pass","temp":3}') from actors;
select tests.set_status(inspector, clean, 'submitted') from actors;
select is((select count(*)::int from public.actions where inspection_id = (select clean from actors)), 0,
  'an inspection with no failed item opens no action');
select is((select status::text from public.inspections where id = (select clean from actors)), 'submitted', 'and is submitted');

select * from finish();
rollback;
