-- The analytics rollups (issue 28; docs/analytics.md): kept by the writes' own triggers — a
-- submit adds an inspection, its score and its judged answers (never a hidden item), a send-back
-- takes them out, answers saved while in progress cost nothing, occurrences and actions follow
-- their moves, a site's new time zone moves its days, deleted answers and inspections leave — and
-- always equal to a rebuild from the base tables. Readable under the one site rule: members and
-- keys of the organization read them, a member or key limited to a site group only its sites' rows,
-- another organization's member, an outsider and anon nothing; nobody writes them.
begin;
select plan(32);

create temp table actors on commit drop as
  select m.*, p.*, tests.create_user('limited-260@example.test', 'Limited viewer') as limited
  from tests.create_org_matrix('260') m, tests.create_published_template(m.org_a, '[
    {"key":"floor","kind":"pass_fail","label":"Floor is clean","help":null,"required":false,"weight":1},
    {"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":"°C"},
    {"key":"cooks","kind":"yes_no","label":"Is food cooked here?","help":null,"required":false,"weight":0,"fail_on":null},
    {"key":"core","kind":"pass_fail","label":"Core temperature checked","help":null,"required":false,"weight":2,
     "show_when":{"match":"all","conditions":[{"item":"cooks","op":"equals","value":"yes"}]}}
  ]') p;
select tests.add_member((select org_a from actors), (select limited from actors), 'viewer');
insert into public.sites (org_id, name, timezone) select org_a, 'Auckland kitchen', 'Pacific/Auckland' from actors;
alter table actors add column auckland uuid, add column cooked uuid, add column harbour uuid, add column spare uuid, add column viewer_key uuid;
update actors set auckland = (select id from public.sites where name = 'Auckland kitchen' and org_id = actors.org_a),
                  viewer_key = tests.create_api_key(org_a, 'viewer');
update actors set cooked = tests.create_inspection(org_a, site, template, 'in_progress', inspector),
                  harbour = tests.create_inspection(org_a, auckland, template, 'in_progress', inspector),
                  spare = tests.create_inspection(org_a, site, template, 'in_progress', inspector);
grant select on actors to authenticated, anon;

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

-- Every rollup row of the organization with something in it, as text, for comparing states.
create function tests.rollup_rows(org uuid)
returns setof text
language sql
as $$
  select 'inspection ' || concat_ws(' ', day, site_id, template_id, template_version_id, inspections, scored, round(score_sum, 6))
  from public.analytics_inspection_days where org_id = org and (inspections, scored, score_sum) <> (0, 0, 0)
  union all
  select 'item ' || concat_ws(' ', day, site_id, template_id, item_key, failed, unjudged)
  from public.analytics_item_days where org_id = org and (failed, unjudged) <> (0, 0)
  union all
  select 'occurrence ' || concat_ws(' ', day, site_id, template_id, occurrences, on_time, late)
  from public.analytics_occurrence_days where org_id = org and (occurrences, on_time, late) <> (0, 0, 0)
  union all
  select 'action ' || concat_ws(' ', day, site_id, template_id, priority, opened, resolved, verified, due, resolved_by_due,
                                (select array_agg(x order by x) from unnest(resolve_seconds) x), (select array_agg(x order by x) from unnest(verify_seconds) x))
  from public.analytics_action_days where org_id = org and (opened, resolved, verified, due, resolved_by_due) <> (0, 0, 0, 0, 0);
$$;

-- The rows as kept, then the rows a rebuild gives, and back to the kept ones' state: equal or not.
create function tests.rollups_equal_a_rebuild(org uuid)
returns boolean
language plpgsql
as $$
declare
  kept text[] := array(select r from tests.rollup_rows(org) r order by r);
  rebuilt text[];
begin
  perform private.rebuild_analytics(org);
  rebuilt := array(select r from tests.rollup_rows(org) r order by r);
  if kept is distinct from rebuilt then
    raise notice 'kept: %', kept;
    raise notice 'rebuilt: %', rebuilt;
  end if;
  return kept is not distinct from rebuilt;
end;
$$;

-- 1. Answers of an inspection in progress cost the rollups nothing; the submit adds it once: its
-- score, and for each item of its version that can fail, a failure or "not judged" (passes need no row).
select tests.answer(inspector, cooked, '{"floor":"pass","temp":7.5,"cooks":"yes","core":"fail"}') from actors;
-- Then "no cooking here": the core item hides, its failed answer stays stored.
select tests.answer(inspector, cooked, '{"cooks":"no"}') from actors;
select is((select count(*)::int from tests.rollup_rows((select org_a from actors))), 0,
  'answers saved while the inspection is in progress write no rollup row');

select tests.set_status(inspector, cooked, 'submitted') from actors;
select results_eq(
  $$select day, inspections, scored, score_sum from public.analytics_inspection_days where org_id = (select org_a from actors)$$,
  $$select (now() at time zone 'UTC')::date, 1, 1, 50::numeric$$,
  'the submit adds one inspection on its site''s day, scored 50 % (floor passed, temperature failed; the hidden core item does not score)');
select results_eq(
  $$select item_key, failed, unjudged from public.analytics_item_days where org_id = (select org_a from actors) order by item_key$$,
  $$values ('core', 0, 1), ('temp', 1, 0)$$,
  'the failed answer counts as failed; the hidden item as not judged (its stored failure never counts); a pass needs no row, nor does an item that cannot fail');

-- 2. Sent back: out of the figures until submitted again; approving changes nothing.
select tests.set_status(manager, cooked, 'changes_requested') from actors;
select is((select count(*)::int from tests.rollup_rows((select org_a from actors)) r where r like 'inspection %' or r like 'item %'), 0,
  'an inspection sent back leaves the scores and the failed items');
select tests.set_status(inspector, cooked, 'in_progress') from actors;
select tests.answer(inspector, cooked, '{"temp":3}') from actors;
select tests.set_status(inspector, cooked, 'submitted') from actors;
select tests.set_status(manager, cooked, 'approved') from actors;
select results_eq(
  $$select inspections, scored, score_sum from public.analytics_inspection_days where org_id = (select org_a from actors)$$,
  $$values (1, 1, 100::numeric)$$,
  'submitted again with the temperature fixed it counts once, at 100 %; approving it keeps it');
select results_eq(
  $$select item_key, failed, unjudged from public.analytics_item_days where org_id = (select org_a from actors) and (failed, unjudged) <> (0, 0) order by item_key$$,
  $$values ('core', 0, 1)$$,
  'and its answers as they are now: the temperature passes, the core item is still hidden');

-- 3. Another site, another time zone: the local day of the submission there.
select tests.answer(inspector, harbour, '{"floor":"fail","temp":4}') from actors;
select tests.set_status(inspector, harbour, 'submitted') from actors;
select is((select day from public.analytics_inspection_days where site_id = (select auckland from actors)),
  (select (submitted_at at time zone 'Pacific/Auckland')::date from public.inspections where id = (select harbour from actors)),
  'an inspection counts on its own site''s calendar (Auckland)');
select tests.answer(inspector, spare, '{"floor":"pass"}') from actors;
select tests.set_status(inspector, spare, 'submitted') from actors;

-- 4. Actions: two opened by the submits (a failed temperature, a failed floor), three by hand — one
-- verified, one worked and given a high priority, one canceled (which counts for nothing).
create temp table manual on commit drop as
  select tests.create_action(org_a, auckland, 'verified') as verified, tests.create_action(org_a, site, 'canceled') as canceled,
         tests.create_action(org_a, site, 'in_progress') as working
  from actors;
grant select on manual to authenticated;
update public.actions set priority = 'high' where id = (select working from manual);
select results_eq(
  $$select priority::text, sum(opened)::int, sum(resolved)::int, sum(verified)::int, sum(due)::int
    from public.analytics_action_days where org_id = (select org_a from actors) group by 1 order by 1$$,
  $$values ('high', 1, 0, 0, 1), ('medium', 3, 1, 1, 3)$$,
  'actions count as opened, resolved, verified and due by priority; a canceled one not at all; a new priority moves its counts');
select is((select template_id from public.analytics_action_days where site_id = (select auckland from actors) and opened > 0 and priority = 'medium' and template_id is not null),
  (select template from actors), 'an action opened by a submit carries its inspection''s template');
update public.actions set status = 'resolved', transition_note = 'Mopped.' where id = (select working from manual);
select results_eq(
  $$select sum(resolved)::int, (select array_agg(x) from public.analytics_action_days r, unnest(r.resolve_seconds) x where r.priority = 'high' and r.org_id = (select org_a from actors))
    from public.analytics_action_days where org_id = (select org_a from actors) and priority = 'high'$$,
  $$select 1, array[extract(epoch from resolved_at - created_at)] from public.actions where id = (select working from manual)$$,
  'a resolution counts on its day, with its time to resolve');
select results_eq(
  $$select (select array_agg(x) from unnest(r.verify_seconds) x) from public.analytics_action_days r
    where r.org_id = (select org_a from actors) and r.verified > 0$$,
  $$select array[extract(epoch from verified_at - resolved_at)] from public.actions where id = (select verified from manual)$$,
  'a verification with its time to verify');
update public.actions set status = 'open', transition_note = 'Still wet.' where id = (select working from manual);
select results_eq(
  $$select sum(resolved)::int, sum(cardinality(resolve_seconds))::int from public.analytics_action_days where org_id = (select org_a from actors) and priority = 'high'$$,
  $$values (0, 0)$$,
  'a reopen takes it back, and its time to resolve');

-- 5. Occurrences: one on time (submitted before its due time), one canceled, one still open.
set local session_replication_role = replica;
insert into public.schedules (id, org_id, name, template_id, rrule, start_date, time_of_day, due_after)
select '2600a000-0000-4000-8000-000000000001', org_a, 'Daily', template, 'FREQ=DAILY', current_date - 30, '06:00', 'P2D' from actors;
set local session_replication_role = origin;
insert into public.inspections (org_id, site_id, template_id, schedule_id, occurrence_at, due_at, assignee_id)
select org_a, s, template, '2600a000-0000-4000-8000-000000000001', now() - make_interval(days => n), now() + make_interval(days => 2 - n), inspector
from actors, unnest(array[site, auckland]) s, generate_series(0, 1) n;
select results_eq(
  $$select sum(occurrences)::int, sum(on_time)::int, sum(late)::int from public.analytics_occurrence_days where org_id = (select org_a from actors)$$,
  $$values (4, 0, 0)$$,
  'occurrences count as they are made');
create temp table firsts on commit drop as
  select (select id from public.inspections i where i.schedule_id = '2600a000-0000-4000-8000-000000000001' and i.site_id = a.auckland order by i.due_at limit 1) as auckland,
         (select id from public.inspections i where i.schedule_id = '2600a000-0000-4000-8000-000000000001' and i.site_id = a.site order by i.due_at limit 1) as home
  from actors a;
select tests.set_status(manager, (select auckland from firsts), 'canceled') from actors;
select tests.set_status(inspector, (select home from firsts), 'in_progress') from actors;
select tests.set_status(inspector, (select home from firsts), 'submitted') from actors;
select results_eq(
  $$select sum(occurrences)::int, sum(on_time)::int, sum(late)::int from public.analytics_occurrence_days where org_id = (select org_a from actors)$$,
  $$values (3, 1, 0)$$,
  'a canceled occurrence leaves; one submitted before its due time counts on time');

select ok(tests.rollups_equal_a_rebuild((select org_a from actors)), 'the rollups kept by the triggers equal a rebuild from the base tables');

-- 6. A new time zone moves the site's rows to its new days, in the same transaction.
update public.sites set timezone = 'Pacific/Kiritimati' where id = (select site from actors);
select is((select day from public.analytics_inspection_days where site_id = (select site from actors) and inspections > 0 limit 1),
  (now() at time zone 'Pacific/Kiritimati')::date, 'a site''s new time zone moves its rows to its local days');
select ok(tests.rollups_equal_a_rebuild((select org_a from actors)), 'and they still equal a rebuild');

-- 7. Deleting answers of a submitted inspection (the service role only), and an inspection.
delete from public.answers where inspection_id = (select harbour from actors) and item_key = 'temp';
select is((select unjudged from public.analytics_item_days where site_id = (select auckland from actors) and item_key = 'temp'), 1,
  'a deleted (passed) answer of a submitted inspection leaves the item not judged');
select ok(tests.rollups_equal_a_rebuild((select org_a from actors)), 'and the rollups equal a rebuild');
delete from public.inspections where id = (select spare from actors);
select ok(tests.rollups_equal_a_rebuild((select org_a from actors)), 'a deleted inspection leaves them, equal to a rebuild');

-- 8. Who reads them: the one site rule.
insert into public.site_groups (id, org_id, name) select '2600a000-0000-4000-8000-0000000000a1', org_a, 'South' from actors;
insert into public.site_groups (id, org_id, parent_id, name) select '2600a000-0000-4000-8000-0000000000a2', org_a, '2600a000-0000-4000-8000-0000000000a1', 'Harbour' from actors;
update public.sites set group_id = '2600a000-0000-4000-8000-0000000000a2' where id = (select auckland from actors);
update public.memberships set site_access_limited = true where user_id = (select limited from actors);
insert into public.membership_site_groups (org_id, user_id, site_group_id) select org_a, limited, '2600a000-0000-4000-8000-0000000000a1' from actors;
-- A key limited to the same group at its creation, as the api makes one (site_group_ids).
alter table actors add column limited_key uuid;
update actors set limited_key = tests.create_limited_api_key(org_a, 'viewer', array['2600a000-0000-4000-8000-0000000000a1'::uuid]);
create temp table visible (who text, rows int, sites int) on commit drop;
grant all on visible to authenticated, anon;

create function tests.count_rollups(who text)
returns void
language sql
as $$
  insert into visible
  select who, count(*)::int, count(distinct site_id)::int from (
    select site_id from public.analytics_inspection_days union all select site_id from public.analytics_item_days
    union all select site_id from public.analytics_occurrence_days union all select site_id from public.analytics_action_days) r;
$$;

select tests.act_as((select viewer from actors));
select tests.count_rollups('viewer');
select tests.act_as((select limited from actors));
select tests.count_rollups('limited');
select results_eq($$select distinct site_id from public.analytics_item_days$$, $$select auckland from actors$$,
  'a member limited to a site group reads the rows of its sites only (a site in a group below it)');
select tests.act_as((select b_owner from actors));
select tests.count_rollups('other organization');
select tests.act_as((select outsider from actors));
select tests.count_rollups('outsider');
select tests.act_as_api_key((select viewer_key from actors));
select tests.count_rollups('viewer key');
select tests.act_as_api_key((select limited_key from actors));
select tests.count_rollups('limited key');
select results_eq($$select distinct site_id from public.analytics_inspection_days$$, $$select auckland from actors$$,
  'a key limited to a site group reads the rows of its sites only');
select tests.reset_role();
select results_eq($$select who, rows > 0, sites from visible order by who$$,
  $$values ('limited', true, 1), ('limited key', true, 1), ('other organization', false, 0), ('outsider', false, 0), ('viewer', true, 2), ('viewer key', true, 2)$$,
  'members and keys of the organization read its rollups; a limited member and a limited key one site''s; another organization''s member and an outsider none');

select tests.act_as_anon();
select throws_ok($$select count(*) from public.analytics_inspection_days$$, '42501', null, 'anon cannot read the rollups at all');
select tests.act_as((select owner from actors));
select throws_ok($$insert into public.analytics_inspection_days (org_id, day, site_id, template_id, inspections)
  select org_a, current_date, site, template, 5 from actors$$, '42501', null, 'not even an owner writes a rollup');
select throws_ok($$update public.analytics_item_days set failed = 0$$, '42501', null, 'or changes one');
select throws_ok($$delete from public.analytics_action_days$$, '42501', null, 'or deletes one');
select throws_ok($$select private.rebuild_analytics()$$, '42501', null, 'and only operators rebuild them');
select tests.reset_role();

-- 9. A site moved out of the limited member's group: its rows leave their sight at once.
update public.sites set group_id = null where id = (select auckland from actors);
select tests.act_as((select limited from actors));
select is((select count(*)::int from public.analytics_inspection_days), 0, 'a site moved out of a limited member''s group leaves their figures at once');
select tests.act_as_api_key((select limited_key from actors));
select is((select count(*)::int from public.analytics_inspection_days), 0, 'and a limited key''s');
select tests.act_as_api_key((select viewer_key from actors));
select isnt((select count(*)::int from public.analytics_inspection_days), 0, 'while an org-wide key still reads its rows');
select tests.reset_role();

-- 10. An organization is deleted with its rollups (its triggers take nothing out of rows that are gone).
delete from public.organizations where id = (select org_a from actors);
select is((select count(*)::int from tests.rollup_rows((select org_a from actors))), 0, 'an organization deleted takes its rollups with it');

select * from finish();
rollback;
