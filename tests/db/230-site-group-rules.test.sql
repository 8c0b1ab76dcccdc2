-- The site group tree and the rule's own functions (issue 27; docs/site-groups.md): depth kept by
-- the database, three levels, no cycles, 1,000 groups, the closure table through moves, setting a
-- member's access, owners and admins always org-wide, and the rule's helpers and point checks for
-- a limited member, an org-wide member, a limited key and a member whose groups are all gone.
-- The per-table matrix of every policy, both sides, is in tests/db/24x-*.
begin;
select plan(38);

create temp table w as select * from tests.create_org_matrix('sg230');
grant select on w to authenticated;

-- North (→ Seattle → Downtown) and South; a site in each, one in none.
create temp table g (name text primary key, id uuid);
grant select on g to authenticated;
with x as (insert into public.site_groups (org_id, name) select org_a, 'North' from w returning id) insert into g select 'north', id from x;
with x as (insert into public.site_groups (org_id, name) select org_a, 'South' from w returning id) insert into g select 'south', id from x;
with x as (insert into public.site_groups (org_id, parent_id, name)
  select w.org_a, g.id, 'Seattle' from w, g where g.name = 'north' returning id) insert into g select 'seattle', id from x;
with x as (insert into public.site_groups (org_id, parent_id, name)
  select w.org_a, g.id, 'Downtown' from w, g where g.name = 'seattle' returning id) insert into g select 'downtown', id from x;

select results_eq($$ select sg.depth::int from public.site_groups sg join g on g.id = sg.id order by g.name $$,
  $$ values (3), (1), (2), (1) $$, 'depth is kept from the parent: downtown 3, north 1, seattle 2, south 1');

select throws_ok($$ insert into public.site_groups (org_id, parent_id, name) select w.org_a, g.id, 'Too deep' from w, g where g.name = 'downtown' $$,
  '23514', 'Groups can be at most three levels deep.', 'a fourth level is refused as a check violation');
select throws_ok($$ update public.site_groups set parent_id = (select id from g where name = 'downtown') where id = (select id from g where name = 'north') $$,
  '23514', 'A group cannot be moved inside itself.', 'a move under its own descendant is refused');
select throws_ok($$ update public.site_groups set parent_id = (select id from g where name = 'south') where id = (select id from g where name = 'north') $$,
  '23514', 'Groups can be at most three levels deep.', 'a move that would put a descendant on a fourth level is refused');
select throws_ok($$ insert into public.site_groups (org_id, name) select org_a, 'North' from w $$,
  '23505', null, 'two top-level groups may not share a name');
select lives_ok($$ insert into public.site_groups (org_id, parent_id, name) select w.org_a, g.id, 'North' from w, g where g.name = 'south' $$,
  '... but a group may share a name with one elsewhere in the tree');

-- A move re-depths the subtree and rearranges the closure table.
update public.site_groups set parent_id = (select id from g where name = 'south') where id = (select id from g where name = 'seattle');
select results_eq($$ select sg.depth::int from public.site_groups sg join g on g.id = sg.id where g.name in ('seattle', 'downtown') order by g.name $$,
  $$ values (3), (2) $$, 'a moved group and its descendants take their new depths');
select set_eq($$ select t.ancestor_id from private.site_group_tree t where t.descendant_id = (select id from g where name = 'downtown') $$,
  $$ select id from g where name in ('downtown', 'seattle', 'south') $$, 'the closure table follows the move');
update public.site_groups set parent_id = (select id from g where name = 'north') where id = (select id from g where name = 'seattle');
select set_eq($$ select t.ancestor_id from private.site_group_tree t where t.descendant_id = (select id from g where name = 'downtown') $$,
  $$ select id from g where name in ('downtown', 'seattle', 'north') $$, '... and back');

-- The 1,000th group is the last.
create temp table bulk as select w.org_a from w;
select lives_ok($$ insert into public.site_groups (org_id, name) select org_a, 'Bulk ' || n from bulk, generate_series(1, 995) n $$,
  'an organization may have 1,000 groups');
select throws_ok($$ insert into public.site_groups (org_id, name) select org_a, 'One too many' from bulk $$,
  'P0001', 'limit_exceeded', '... and no more');
delete from public.site_groups where name like 'Bulk %';

select throws_ok($$ delete from public.site_groups where id = (select id from g where name = 'north') $$,
  '23503', null, 'a group with subgroups cannot be deleted');

create temp table s (name text primary key, id uuid);
grant select on s to authenticated;
with x as (insert into public.sites (org_id, name, group_id) select w.org_a, 'Downtown site', g.id from w, g where g.name = 'downtown' returning id) insert into s select 'downtown site', id from x;
with x as (insert into public.sites (org_id, name, group_id) select w.org_a, 'South site', g.id from w, g where g.name = 'south' returning id) insert into s select 'south site', id from x;
with x as (insert into public.sites (org_id, name) select w.org_a, 'Ungrouped site' from w returning id) insert into s select 'ungrouped site', id from x;

select throws_ok($$ insert into public.sites (org_id, name, group_id) select w.org_b, 'Elsewhere', g.id from w, g where g.name = 'north' $$,
  '23503', null, 'a site cannot be put in another organization''s group');

-- Setting access, as an admin: the inspector to North.
select tests.act_as((select admin from w));
select lives_ok($$ select private.set_member_site_access((select org_a from w), (select inspector from w), array[(select id from g where name = 'north')]) $$,
  'an admin limits an inspector to a group');
select throws_ok($$ select private.set_member_site_access((select org_a from w), (select owner from w), array[(select id from g where name = 'north')]) $$,
  'P0001', 'validation_failed', 'owners are always org-wide');
select throws_ok($$ select private.set_member_site_access((select org_a from w), (select manager from w),
                      array[(select id from public.site_groups where org_id <> (select org_a from w) limit 1), gen_random_uuid()]) $$,
  'P0001', 'validation_failed', 'a group not of the organization is refused');
select tests.act_as((select manager from w));
select throws_ok($$ select private.set_member_site_access((select org_a from w), (select viewer from w), array[(select id from g where name = 'north')]) $$,
  'P0001', 'forbidden', 'a manager does not set access');
select tests.act_as((select outsider from w));
select throws_ok($$ select private.set_member_site_access((select org_a from w), (select viewer from w), array[]::uuid[]) $$,
  'P0001', 'not_found', 'a stranger is told nothing');

-- The limited inspector sees the North subtree only.
select tests.act_as((select inspector from w));
select set_eq($$ select private.limited_site_group_ids() $$, $$ select id from g where name in ('north', 'seattle', 'downtown') $$,
  'a limited member''s groups are its group and those below it');
select is_empty($$ select private.org_ids_with_every_site() $$, '... and it is org-wide nowhere');
select set_eq($$ select name from public.sites $$, $$ values ('Downtown site') $$, 'it reads only the sites below its group');
select ok(private.can_see_site((select org_a from w), (select id from s where name = 'downtown site')), 'can_see_site: a site two levels below its group');
select ok(not private.can_see_site((select org_a from w), (select id from s where name = 'south site')), 'can_see_site: not a site of another group');
select ok(not private.can_see_site((select org_a from w), (select id from s where name = 'ungrouped site')), 'can_see_site: not a site in no group');
select ok(not private.can_see_site((select org_a from w), (select id from s where name = 'downtown site'), '{owner,admin,manager}'),
  'can_see_site with roles: not as a manager');
select set_eq($$ select name from public.site_groups $$, $$ values ('North'), ('Seattle'), ('Downtown') $$,
  'it reads its groups and those below, not the others');

-- An org-wide member sees everything, as before.
select tests.act_as((select viewer from w));
select set_eq($$ select private.org_ids_with_every_site() $$, $$ select org_a from w $$, 'an org-wide member is org-wide in its organization');
select is((select count(*)::int from public.sites), 3, '... and reads every site');
select ok(private.can_see_site((select org_a from w), (select id from s where name = 'ungrouped site')), '... a site in no group too');

-- Moving the site out of the group ends access at once.
select tests.reset_role();
update public.sites set group_id = (select id from g where name = 'south') where id = (select id from s where name = 'downtown site');
select tests.act_as((select inspector from w));
select is_empty($$ select 1 from public.sites $$, 'a site moved out of the group is no longer read');
select tests.reset_role();
update public.sites set group_id = (select id from g where name = 'downtown') where id = (select id from s where name = 'downtown site');

-- Its groups deleted: still limited, sees nothing.
select tests.reset_role();
delete from public.membership_site_groups where user_id = (select inspector from w);
select tests.act_as((select inspector from w));
select is_empty($$ select 1 from public.sites $$, 'a limited member whose groups are gone sees no site');
select is_empty($$ select private.org_ids_with_every_site() $$, '... and is not org-wide');

-- Back to org-wide with no groups.
select tests.act_as((select admin from w));
select private.set_member_site_access((select org_a from w), (select inspector from w), '{}');
select tests.act_as((select inspector from w));
select is((select count(*)::int from public.sites), 3, 'no groups: org-wide again');

-- A role change to admin clears the limit and the groups.
select tests.act_as((select admin from w));
select private.set_member_site_access((select org_a from w), (select manager from w), array[(select id from g where name = 'south')]);
update public.memberships set role = 'admin' where user_id = (select manager from w) and org_id = (select org_a from w);
select tests.reset_role();
select results_eq($$ select site_access_limited, (select count(*)::int from public.membership_site_groups x where x.user_id = m.user_id)
                    from public.memberships m where m.user_id = (select manager from w) $$,
  $$ values (false, 0) $$, 'made an admin, a limited manager becomes org-wide and loses its groups');
select throws_ok($$ update public.memberships set site_access_limited = true where user_id = (select owner from w) $$,
  '23514', null, 'an owner cannot be limited');

-- A limited key: its groups only, set in the transaction that makes it.
create temp table k as
  select gen_random_uuid() as id, (select org_a from w) as org_id;
grant select on k to authenticated;
insert into public.api_keys (id, org_id, name, prefix, secret_hash, role, site_access_limited)
select k.id, k.org_id, 'South key', 'fck_sgtest23', extensions.digest('sg230', 'sha256'), 'inspector', true from k;
insert into public.api_key_site_groups (api_key_id, org_id, site_group_id) select k.id, k.org_id, g.id from k, g where g.name = 'south';
select tests.set_request('authenticated', jsonb_build_object('role', 'authenticated', 'api_key_id', k.id,
  'api_key_org_id', k.org_id, 'api_key_role', 'inspector')) from k;
select set_eq($$ select name from public.sites $$, $$ values ('South site') $$, 'a limited key reads its groups'' sites only');
select ok(private.sees_sites_in_group((select org_id from k), (select id from g where name = 'south')), 'sees_sites_in_group: a key''s group');
select ok(not private.sees_sites_in_group((select org_id from k), (select id from g where name = 'north')), 'sees_sites_in_group: not another');

select * from finish();
rollback;
