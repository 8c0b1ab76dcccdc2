-- Corrective actions by site group (issue 27 part 2): actions, their history (action_events) and
-- their photo rows (action_attachments). A limited inspector, manager, viewer and key read exactly
-- those at their groups' sites (descendants included); they open, move and add photos only there,
-- both sides (`using`: 0 rows; `with check`: the error) — an action assigned to a limited
-- inspector included, once its site is moved out of the inspector's groups; assigned only to
-- someone who sees the site; org-wide members, owners and admins as before.
begin;
select plan(39);

create temp table actors on commit drop as select * from tests.create_site_group_world('245');
alter table actors add column north_act uuid, add column pier_act uuid, add column south_act uuid, add column loose_act uuid;
update actors set north_act = tests.create_action(org_a, north_site, 'open', l_inspector, 'North fix'),
                  pier_act = tests.create_action(org_a, pier_site, 'open', null, 'Pier fix'),
                  south_act = tests.create_action(org_a, south_site, 'open', inspector, 'South fix'),
                  loose_act = tests.create_action(org_a, loose_site, 'open', null, 'Loose fix');
grant select on actors to anon, authenticated;
set local session_replication_role = replica;
insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size, confirmed_at)
  select org_a, a, org_a || '/actions/' || a || '/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10, now()
  from actors, unnest(array[north_act, south_act]) a;
set local session_replication_role = origin;

create function pg_temp.actions_read() returns text language sql as $$
  select coalesce(string_agg(a.title, ', ' order by a.title), '') from public.actions a where a.org_id = (select org_a from actors);
$$;
create function pg_temp.history_read() returns text language sql as $$
  select coalesce(string_agg(distinct a.title, ', ' order by a.title), '')
  from public.action_events e join public.actions a on a.id = e.action_id
  where e.org_id = (select org_a from actors);
$$;
-- The titles of the actions whose photo rows the caller reads (titles read as the superuser would).
create function pg_temp.photos_read() returns text language sql as $$
  select coalesce(string_agg(t.title, ', ' order by t.title), '')
  from public.action_attachments p, actors x,
       lateral (select case p.action_id when x.north_act then 'North fix' when x.pier_act then 'Pier fix'
                                        when x.south_act then 'South fix' else 'another' end) t (title)
  where p.org_id = x.org_a;
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Reading.
select tests.act_as((select owner from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'Loose fix, North fix, Pier fix, South fix / Loose fix, North fix, Pier fix, South fix / North fix, South fix',
  'the owner reads every action, its history and its photos');
select tests.act_as((select manager from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'Loose fix, North fix, Pier fix, South fix / Loose fix, North fix, Pier fix, South fix / North fix, South fix', 'so does an org-wide manager');
select tests.act_as((select inspector from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'Loose fix, North fix, Pier fix, South fix / Loose fix, North fix, Pier fix, South fix / North fix, South fix', 'and an org-wide inspector');
select tests.act_as((select viewer from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'Loose fix, North fix, Pier fix, South fix / Loose fix, North fix, Pier fix, South fix / North fix, South fix', 'and an org-wide viewer');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.actions_read(), 'Loose fix, North fix, Pier fix, South fix', 'and an org-wide key');
select tests.act_as((select l_manager from actors));
select is(pg_temp.actions_read(), 'North fix, Pier fix', 'a manager limited to North reads the actions at North''s and Pier''s sites only');
select is(pg_temp.history_read(), 'North fix, Pier fix', 'and their history only');
select is(pg_temp.photos_read(), 'North fix', 'and their photos only');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'North fix, Pier fix / North fix, Pier fix / North fix', 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'North fix, Pier fix / North fix, Pier fix / North fix', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(),
  'North fix, Pier fix / North fix, Pier fix / North fix', 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.actions_read() || ' / ' || pg_temp.history_read() || ' / ' || pg_temp.photos_read(), ' /  / ', 'the owner of B reads none of A''s');

-- Opening actions: at their sites only.
select tests.act_as((select l_inspector from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title) select org_a, pier_site, 'Pier railing' from actors$$,
  'a limited inspector opens an action (for itself) at Pier''s site');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, south_site, 'South railing' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'but not at South''s (as for another organization''s)');
select tests.act_as((select l_manager from actors));
select lives_ok($$insert into public.actions (org_id, site_id, title) select org_a, north_site, 'North drain' from actors$$,
  'a limited manager opens one at North''s site');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, south_site, 'South drain' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'but not at South''s (as for another organization''s)');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, loose_site, 'Loose drain' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'nor at the ungrouped site (as for another organization''s)');
select is(tests.error_of($$insert into public.actions (org_id, site_id, inspection_id, title) select org_a, south_site, south_insp, 'South item' from actors$$),
  'validation_failed {"field" : "inspection_id", "message" : "Choose an inspection of this organization."}',
  'nor about an inspection at South''s site (as for another organization''s)');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, south_site, 'South key drain' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'a limited key opens none at South''s site (as for another organization''s)');
select tests.act_as((select l_viewer from actors));
select throws_ok($$insert into public.actions (org_id, site_id, title) select org_a, north_site, 'Viewer drain' from actors$$,
  '42501', null, 'a limited viewer opens none, not even at North''s');

-- Moving actions: there only.
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.actions set status = 'in_progress' where id = (select south_act from actors)$$), '0 rows', 'the limited manager starts no action at South''s site (0 rows)');
select is(tests.outcome($$update public.actions set priority = 'high' where id = (select loose_act from actors)$$), '0 rows', 'nor changes one at the ungrouped site (0 rows)');
select is(tests.outcome($$update public.actions set status = 'in_progress' where id = (select pier_act from actors)$$), '1 rows', 'but starts the one at Pier''s');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.outcome($$update public.actions set status = 'canceled' where id = (select south_act from actors)$$), '0 rows', 'the limited key cancels no action at South''s site (0 rows)');
select tests.act_as((select l_inspector from actors));
select is(tests.outcome($$update public.actions set status = 'in_progress' where id = (select north_act from actors)$$), '1 rows', 'the limited inspector starts the action at North''s site assigned to it');

-- Photos of actions: there only.
select tests.act_as((select l_manager from actors));
select lives_ok($$insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size)
  select org_a, pier_act, org_a || '/actions/' || pier_act || '/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  'the limited manager checks in a photo of the action at Pier''s site');
select throws_ok($$insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size)
  select org_a, south_act, org_a || '/actions/' || south_act || '/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  '42501', null, 'but not of the one at South''s');
select is(tests.outcome($$delete from public.action_attachments where action_id = (select south_act from actors)$$), '0 rows', 'nor removes its photo (0 rows)');
select tests.reset_role();
select results_eq($$select a.title, a.status::text from public.actions a where a.org_id = (select org_a from actors) and a.title like '% fix' order by a.title$$,
  $$values ('Loose fix'::text, 'open'::text), ('North fix', 'in_progress'), ('Pier fix', 'in_progress'), ('South fix', 'open')$$,
  'only the allowed moves were made');
select is((select count(*)::int from public.action_attachments where action_id = (select south_act from actors)), 1, 'and South''s photo is still there');

-- Assigning: only to someone who sees the site (sql27's decision, docs/site-groups.md, "Assignees").
select tests.act_as((select manager from actors));
select is(tests.error_of($$insert into public.actions (org_id, site_id, title, assignee_id) select org_a, south_site, 'South gutter', l_inspector from actors$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member who can see this site."}',
  'an org-wide manager cannot open an action at South''s site for the inspector limited to North');
select is(tests.error_of($$update public.actions set assignee_id = (select l_inspector from actors) where id = (select south_act from actors)$$),
  'validation_failed {"field" : "assignee_id", "message" : "Choose a member who can see this site."}',
  'nor give it the action there');
select is(tests.outcome($$update public.actions set assignee_id = (select l_inspector from actors) where id = (select pier_act from actors)$$), '1 rows',
  'but gives it the one at Pier''s site');

-- Its site moved out of North, the action assigned to the limited inspector is out of its reach at once.
select tests.act_as((select owner from actors));
update public.sites set group_id = (select south from actors) where id = (select north_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.actions_read(), 'Pier fix, Pier railing', 'the limited inspector no longer reads the actions at North''s site, its own included');
select is(pg_temp.history_read(), 'Pier fix, Pier railing', 'nor their history');
select is(pg_temp.photos_read(), 'Pier fix', 'nor their photos (only the Pier action''s)');
select is(tests.outcome($$update public.actions set status = 'resolved', transition_note = 'Done.' where id = (select north_act from actors)$$), '0 rows', 'and cannot resolve the action assigned to it there (0 rows)');
select is(tests.error_of($$insert into public.actions (org_id, site_id, title) select org_a, north_site, 'Too late' from actors$$),
  'validation_failed {"field" : "site_id", "message" : "Choose a site of this organization."}',
  'nor open another there (as for another organization''s)');
select tests.act_as((select l_manager from actors));
select is(pg_temp.actions_read(), 'Pier fix, Pier railing', 'the limited manager no longer reads them either');

select * from finish();
rollback;
