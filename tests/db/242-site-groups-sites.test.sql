-- Sites by site group (issue 27 part 2): a limited inspector, manager, viewer and key read exactly
-- the sites of their groups and those groups' descendants; a limited manager (and key) adds, edits,
-- moves and archives sites only there, both sides (`using`: 0 rows; `with check`: the error);
-- moving a site into or out of a group changes who reads it at the very next statement; org-wide
-- members, owners and admins read every site as before; the site search (a security definer
-- function) returns nothing outside.
begin;
select plan(44);

create temp table actors on commit drop as select * from tests.create_site_group_world('242');
grant select on actors to anon, authenticated;

create function pg_temp.sites_read() returns text language sql as $$
  select coalesce(string_agg(s.name, ', ' order by s.name), '') from public.sites s where s.org_id = (select org_a from actors);
$$;
-- The names of the sites the search (private.site_search_page) finds for the caller, every site matching.
create function pg_temp.sites_found() returns text language sql as $$
  select coalesce(string_agg(s.name, ', ' order by s.name), '')
  from private.site_search_page((select org_a from actors), '%', 'false', null, null, 200) f(id)
  join public.sites s on s.id = f.id;
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Reading.
select tests.act_as((select owner from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'the owner reads every site');
select tests.act_as((select admin from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an admin reads every site');
select tests.act_as((select manager from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an org-wide manager reads every site');
select tests.act_as((select inspector from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an org-wide inspector reads every site');
select tests.act_as((select viewer from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an org-wide viewer reads every site');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an org-wide key reads every site');
select tests.act_as((select l_manager from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'a manager limited to North reads North''s site and its grandchild Pier''s, not South''s nor the ungrouped one');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'and a limited key');
select is((select count(*)::int from public.sites where id = (select south_site from actors)), 0, 'which reads South''s site by its id as 0 rows');

-- The search, security definer: nothing outside.
select tests.act_as((select l_inspector from actors));
select is(pg_temp.sites_found(), 'North kitchen, Pier kiosk', 'the site search finds a limited inspector''s sites only');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.sites_found(), 'North kitchen, Pier kiosk', 'and a limited key''s');
select tests.act_as((select inspector from actors));
select is(pg_temp.sites_found(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and every site for an org-wide inspector');

-- Adding: a limited manager or key only into its groups.
select tests.act_as((select l_manager from actors));
select lives_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'Harbour office', harbour from actors$$,
  'a manager limited to North adds a site to Harbour');
select throws_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'South office', south from actors$$,
  '42501', null, 'but not to South');
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'Nowhere office' from actors$$,
  '42501', null, 'nor outside every group');
select tests.act_as_api_key((select k_limited from actors));
select lives_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'Pier office', pier from actors$$,
  'a limited manager key adds a site to Pier');
select throws_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'South key office', south from actors$$,
  '42501', null, 'but not to South');
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'Nowhere key office' from actors$$,
  '42501', null, 'nor outside every group');
select tests.act_as((select l_inspector from actors));
select throws_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'By inspector', north from actors$$,
  '42501', null, 'a limited inspector adds no site, not even in North');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.sites (org_id, name) select org_a, 'Head office' from actors$$, 'an org-wide manager adds an ungrouped site');
select lives_ok($$insert into public.sites (org_id, name, group_id) select org_a, 'South shed', south from actors$$, 'and one to South');

-- Editing, moving and archiving: only their sites, and only into their groups.
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.sites set address = '1 Quay Road' where id = (select north_site from actors)$$), '1 rows', 'the limited manager edits North''s site');
select is(tests.outcome($$update public.sites set address = '1 Depot Road' where id = (select south_site from actors)$$), '0 rows', 'but not South''s (0 rows)');
select is(tests.outcome($$update public.sites set address = '1 Yard Road' where id = (select loose_site from actors)$$), '0 rows', 'nor the ungrouped one (0 rows)');
select is(tests.outcome($$update public.sites set archived_at = now() where id = (select south_site from actors)$$), '0 rows', 'nor archives South''s (0 rows)');
select is(tests.outcome($$update public.sites set group_id = (select north from actors) where id = (select south_site from actors)$$), '0 rows', 'nor pulls South''s site into North (0 rows)');
select throws_ok($$update public.sites set group_id = (select south from actors) where id = (select north_site from actors)$$,
  '42501', null, 'it cannot move North''s site to South');
select throws_ok($$update public.sites set group_id = null where id = (select north_site from actors)$$,
  '42501', null, 'nor out of every group');
select is(tests.outcome($$update public.sites set group_id = (select harbour from actors) where id = (select pier_site from actors)$$), '1 rows', 'it moves Pier''s site to Harbour, inside North');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.outcome($$update public.sites set address = '2 Depot Road' where id = (select south_site from actors)$$), '0 rows', 'a limited key edits no site of South (0 rows)');
select throws_ok($$update public.sites set group_id = (select south from actors) where id = (select north_site from actors)$$,
  '42501', null, 'nor moves North''s site to South');
select tests.act_as((select l_inspector from actors));
select is(tests.outcome($$update public.sites set address = '3 Quay Road' where id = (select north_site from actors)$$), '0 rows', 'a limited inspector edits no site, not even North''s (0 rows)');
select tests.act_as((select manager from actors));
select is(tests.outcome($$update public.sites set address = '4 Depot Road' where id = (select south_site from actors)$$), '1 rows', 'an org-wide manager edits South''s site');
select tests.reset_role();
select results_eq($$select name, address, group_id, archived_at from public.sites where id in (select north_site from actors union all select south_site from actors union all select pier_site from actors) order by name$$,
  $$select 'North kitchen'::text, '1 Quay Road'::text, north, null::timestamptz from actors
    union all select 'Pier kiosk', null, harbour, null from actors
    union all select 'South depot', '4 Depot Road', south, null from actors$$,
  'only the allowed edits and moves were stored');

-- Moving a site changes who reads it at the next statement.
select tests.act_as((select owner from actors));
update public.sites set group_id = (select south from actors) where id = (select north_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.sites_read(), 'Harbour office, Pier kiosk, Pier office', 'moved to South, North''s site is gone for the limited inspector at once');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.sites_read(), 'Harbour office, Pier kiosk, Pier office', 'and for the limited key');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.sites set address = '5 Quay Road' where id = (select north_site from actors)$$), '0 rows', 'and the limited manager can no longer edit it (0 rows)');
select tests.act_as((select owner from actors));
update public.sites set group_id = (select pier from actors) where id = (select loose_site from actors);
select tests.act_as((select l_viewer from actors));
select is(pg_temp.sites_read(), 'Harbour office, Loose yard, Pier kiosk, Pier office', 'the ungrouped site put in Pier is read by the limited viewer at once');
select tests.act_as((select viewer from actors));
select is(pg_temp.sites_read(), 'Harbour office, Head office, Loose yard, North kitchen, Pier kiosk, Pier office, South depot, South shed',
  'the org-wide viewer reads every site throughout');

-- Another organization reads nothing of A, grouped or not.
select tests.act_as((select b_owner from actors));
select is(pg_temp.sites_read(), '', 'the owner of B reads none of A''s sites');
select is(pg_temp.sites_found(), '', 'and the search finds none for it');
select tests.act_as_anon();
select throws_ok($$select count(*) from public.sites$$, '42501', null, 'anon cannot read sites');

select * from finish();
rollback;
