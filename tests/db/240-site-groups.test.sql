-- Site groups themselves (issue 27 part 1; docs/site-groups.md): who reads and manages the tree
-- (managers and above; a limited manager or key only inside its groups, never at the top level;
-- a limited member reads its groups and their descendants, not a sibling region), both sides; and
-- the tree's rules as the database holds them: depth kept by the database and at most 3, no
-- cycles, names unique among siblings (top-level ones too) and shaped like site names, another
-- organization's groups refused, a group with sites or subgroups not deleted, at most 1,000 groups
-- per organization.
begin;
select plan(82);

create temp table actors on commit drop as select * from tests.create_site_group_world('240');
alter table actors add column b_group uuid, add column l_harbour_manager uuid;
update actors set b_group = tests.create_site_group(org_b, 'B region'),
                  l_harbour_manager = tests.create_limited_member(org_a, 'l-harbour-240@example.test', 'manager', array[harbour]);
grant select on actors to anon, authenticated;

create function pg_temp.group_names() returns text[] language sql as $$
  select coalesce(array_agg(g.name order by g.name), '{}') from public.site_groups g where g.org_id = (select org_a from actors);
$$;
grant execute on function pg_temp.group_names() to anon, authenticated;

-- The depth is the database's.
select results_eq($$select name, depth::int from public.site_groups where org_id = (select org_a from actors) order by name$$,
  $$values ('Harbour'::text, 2), ('North', 1), ('Pier', 3), ('South', 1)$$,
  'each group''s depth is kept by the database: North and South 1, Harbour 2, Pier 3');

-- Reading: every member of A reads the tree; a limited one its groups and their descendants.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.site_groups$$, '42501', null, 'anon cannot read site groups');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.site_groups), 0, 'a signed-in non-member reads no group');
select tests.act_as((select b_owner from actors));
select is(pg_temp.group_names(), '{}', 'the owner of B reads none of A''s groups');
select tests.act_as((select owner from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier,South}', 'the owner reads every group');
select tests.act_as((select manager from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier,South}', 'an org-wide manager reads every group');
select tests.act_as((select inspector from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier,South}', 'an org-wide inspector reads every group');
select tests.act_as((select viewer from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier,South}', 'an org-wide viewer reads every group');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier,South}', 'an org-wide key reads every group');
select tests.act_as((select l_manager from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier}', 'a manager limited to North reads North and its descendants, not South');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier}', 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier}', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier}', 'and a key limited to North');
select tests.act_as((select l_harbour_manager from actors));
select is(pg_temp.group_names(), '{Harbour,North,Pier}', 'a manager limited to Harbour reads Harbour, Pier below it and North above it (to draw the tree), not South');
select is(tests.outcome($$update public.site_groups set name = 'Northern' where id = (select north from actors)$$), '0 rows',
  'but cannot rename North (0 rows)');
select is(tests.outcome($$update public.site_groups set name = 'Harbourside' where id = (select harbour from actors)$$), '0 rows',
  'nor Harbour, its own group (0 rows)');
select is(tests.outcome($$update public.site_groups set name = 'Pier head' where id = (select pier from actors)$$), '1 rows',
  'but renames Pier, inside it');
update public.site_groups set name = 'Pier' where id = (select pier from actors);

-- Adding: managers and above; limited ones only below their groups.
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'By viewer' from actors$$,
  '42501', null, 'a viewer cannot add a group');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'By inspector' from actors$$,
  '42501', null, 'an inspector cannot add a group');
select tests.act_as((select l_inspector from actors));
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, north, 'By limited inspector' from actors$$,
  '42501', null, 'nor can a limited inspector inside its own group');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'By B' from actors$$,
  '42501', null, 'the owner of B cannot add a group to A');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.site_groups (org_id, name) select org_a, 'East' from actors$$, 'an org-wide manager adds a top-level group');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.site_groups (org_id, name) select org_a, 'West' from actors$$, 'an admin adds one');
select tests.act_as_api_key((select k_wide from actors));
select lives_ok($$insert into public.site_groups (org_id, name) select org_a, 'Central' from actors$$, 'an org-wide manager key adds one');
select tests.act_as((select l_manager from actors));
select lives_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, north, 'Docks' from actors$$,
  'a manager limited to North adds a group under North');
select lives_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, harbour, 'Quay' from actors$$,
  'and one under Harbour, North''s child');
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'Rogue region' from actors$$,
  '42501', null, 'but no top-level group');
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, south, 'Rogue area' from actors$$,
  '42501', null, 'and no group under South');
select tests.act_as_api_key((select k_limited from actors));
select lives_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, harbour, 'Marina' from actors$$,
  'a manager key limited to North adds a group under Harbour');
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'Key region' from actors$$,
  '42501', null, 'but no top-level group');
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, south, 'Key area' from actors$$,
  '42501', null, 'and none under South');
select tests.reset_role();
select results_eq($$select name, depth::int from public.site_groups where name in ('Docks', 'Quay', 'Marina', 'East') order by name$$,
  $$values ('Docks'::text, 2), ('East', 1), ('Marina', 3), ('Quay', 3)$$, 'the added groups have their depths');

-- Changing: renames and moves, inside only for the limited.
select tests.act_as((select viewer from actors));
select is(tests.outcome($$update public.site_groups set name = 'By viewer' where id = (select north from actors)$$), '0 rows', 'a viewer renames no group (0 rows)');
select tests.act_as((select l_inspector from actors));
select is(tests.outcome($$update public.site_groups set name = 'By limited inspector' where id = (select harbour from actors)$$), '0 rows', 'a limited inspector renames no group, not even inside (0 rows)');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.site_groups set name = 'Docklands' where name = 'Docks'$$), '1 rows', 'a manager limited to North renames a group under it');
select is(tests.outcome($$update public.site_groups set name = 'Southern' where id = (select south from actors)$$), '0 rows', 'but not South (0 rows)');
select is(tests.outcome($$update public.site_groups set name = 'Northern' where id = (select north from actors)$$), '0 rows', 'nor its own top-level group, North (0 rows)');
select throws_ok($$update public.site_groups set parent_id = (select south from actors) where name = 'Docklands'$$,
  '42501', null, 'it cannot move a group of North under South');
select throws_ok($$update public.site_groups set parent_id = null where name = 'Docklands'$$,
  '42501', null, 'nor to the top level');
select is(tests.outcome($$update public.site_groups set parent_id = (select north from actors) where name = 'Quay'$$), '1 rows', 'but moves a group from Harbour to North, inside its own');
select tests.reset_role();
select results_eq($$select parent_id, depth::int from public.site_groups where name = 'Quay'$$,
  $$select north, 2 from actors$$, 'Quay moved from Harbour to North, and its depth went from 3 to 2');
select results_eq($$select parent_id from public.site_groups where name = 'Docklands'$$,
  $$select north from actors$$, 'the refused moves left Docklands under North');
select tests.act_as((select manager from actors));
select is(tests.outcome($$update public.site_groups set name = 'South region' where id = (select south from actors)$$), '1 rows', 'an org-wide manager renames a top-level group');

-- Deleting: an empty group, inside only for the limited.
select tests.act_as((select inspector from actors));
select is(tests.outcome($$delete from public.site_groups where name = 'East'$$), '0 rows', 'an inspector deletes no group (0 rows)');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$delete from public.site_groups where name = 'East'$$), '0 rows', 'a limited manager deletes no empty top-level group (0 rows)');
select is(tests.outcome($$delete from public.site_groups where name = 'Docklands'$$), '1 rows', 'but deletes an empty group under North');
select tests.act_as_api_key((select k_limited from actors));
select is(tests.outcome($$delete from public.site_groups where name = 'Central'$$), '0 rows', 'a limited key deletes no top-level group (0 rows)');
select is(tests.outcome($$delete from public.site_groups where name = 'Marina'$$), '1 rows', 'but deletes an empty one under Harbour');
select tests.act_as((select manager from actors));
select is(tests.outcome($$delete from public.site_groups where name = 'East'$$), '1 rows', 'an org-wide manager deletes an empty top-level group');
select tests.act_as((select b_owner from actors));
select is(tests.outcome($$delete from public.site_groups where name = 'West'$$), '0 rows', 'the owner of B deletes none of A''s (0 rows)');

-- A group with sites or subgroups is not deleted.
select tests.act_as((select owner from actors));
select throws_ok($$delete from public.site_groups where id = (select south from actors)$$,
  '23503', null, 'a group with a site is not deleted');
select throws_ok($$delete from public.site_groups where id = (select harbour from actors)$$,
  '23503', null, 'a group with a subgroup is not deleted');
select is(pg_temp.group_names(), '{Central,Harbour,North,Pier,Quay,South region,West}', 'both are still there');

-- Depth at most 3, no cycles; moves recompute the depth of the whole subtree.
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, pier, 'Too deep' from actors$$,
  '23514', null, 'a fourth level is refused');
select throws_ok($$update public.site_groups set parent_id = (select pier from actors) where id = (select south from actors)$$,
  '23514', null, 'moving a group under a third-level group is refused');
select throws_ok($$update public.site_groups set parent_id = (select south from actors) where id = (select north from actors)$$,
  '23514', null, 'moving a three-level tree under another group is refused (its deepest would be at 4)');
select throws_ok($$update public.site_groups set parent_id = id where id = (select north from actors)$$,
  '23514', null, 'a group cannot be its own parent');
select throws_ok($$update public.site_groups set parent_id = (select pier from actors) where id = (select harbour from actors)$$,
  '23514', null, 'nor the child of its own descendant (a cycle)');
select throws_ok($$update public.site_groups set parent_id = (select harbour from actors) where id = (select north from actors)$$,
  '23514', null, 'nor the child of its own child');
select lives_ok($$update public.site_groups set parent_id = (select south from actors) where id = (select harbour from actors)$$,
  'a two-level subtree moves under another top-level group');
select results_eq($$select name, depth::int from public.site_groups where name in ('Harbour', 'Pier') order by name$$,
  $$values ('Harbour'::text, 2), ('Pier', 3)$$, 'and its descendants keep their depths below it');
select lives_ok($$update public.site_groups set parent_id = null where id = (select pier from actors)$$, 'a group moves to the top level');
select is((select depth::int from public.site_groups where id = (select pier from actors)), 1, 'and is at depth 1 there');
update public.site_groups set parent_id = (select harbour from actors) where id = (select pier from actors);
update public.site_groups set parent_id = (select north from actors) where id = (select harbour from actors);
select results_eq($$select name, depth::int from public.site_groups where name in ('Harbour', 'North', 'Pier') order by name$$,
  $$values ('Harbour'::text, 2), ('North', 1), ('Pier', 3)$$, 'moved back, the tree is as it was');

-- Names: unique among siblings (top-level ones included), shaped like a site's.
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'North' from actors$$,
  '23505', null, 'two top-level groups cannot share a name');
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, north, 'Harbour' from actors$$,
  '23505', null, 'nor two siblings');
select throws_ok($$update public.site_groups set name = 'North' where name = 'West'$$,
  '23505', null, 'nor can a rename make two');
select lives_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, south, 'Harbour' from actors$$,
  'groups under different parents may share a name');
select tests.act_as((select b_owner from actors));
select lives_ok($$insert into public.site_groups (org_id, name) select org_b, 'North' from actors$$,
  'and another organization may have a North');
select tests.act_as((select owner from actors));
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, '' from actors$$, '23514', null, 'an empty name is refused');
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, ' Padded' from actors$$, '23514', null, 'a name with a leading space is refused');
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, 'Padded ' from actors$$, '23514', null, 'a name with a trailing space is refused');
select throws_ok($$insert into public.site_groups (org_id, name) select org_a, repeat('x', 121) from actors$$, '23514', null, 'a name of 121 characters is refused');
select lives_ok($$insert into public.site_groups (org_id, name) select org_a, repeat('x', 120) from actors$$, 'a name of 120 characters is kept');

-- Another organization's groups: never a parent, a site's group or a member's (the keys
-- themselves, past the policies).
select tests.reset_role();
select throws_ok($$insert into public.site_groups (org_id, parent_id, name) select org_a, b_group, 'Under B' from actors$$,
  '23503', null, 'a group of A cannot be under a group of B');
select throws_ok($$update public.sites set group_id = (select b_group from actors) where id = (select loose_site from actors)$$,
  '23503', null, 'a site of A cannot be in a group of B');
select throws_ok($$insert into public.membership_site_groups (org_id, user_id, site_group_id) select org_a, l_viewer, b_group from actors$$,
  '23503', null, 'a member of A cannot be limited to a group of B');
select throws_ok($$insert into public.api_key_site_groups (api_key_id, org_id, site_group_id) select k_limited, org_a, b_group from actors$$,
  '23503', null, 'nor a key of A');

-- At most 1,000 groups per organization; another organization is not affected.
insert into public.site_groups (org_id, name)
  select org_a, 'Region ' || n from actors, generate_series(1, 1000 - (select count(*)::int from public.site_groups where org_id = (select org_a from actors))) n;
select is((select count(*)::int from public.site_groups where org_id = (select org_a from actors)), 1000, 'A has 1,000 groups');
select tests.act_as((select owner from actors));
select matches(tests.error_of(format($$insert into public.site_groups (org_id, name) values (%L, 'One too many')$$, (select org_a from actors))),
  '^limit_exceeded \{.*"n" : 1000', 'the 1,001st group is refused with limit_exceeded, n = 1000');
select matches(tests.error_of(format($$insert into public.site_groups (org_id, parent_id, name) values (%L, %L, 'One too many')$$,
    (select org_a from actors), (select north from actors))),
  '^limit_exceeded', 'a 1,001st subgroup too');
select tests.act_as((select b_owner from actors));
select lives_ok($$insert into public.site_groups (org_id, name) select org_b, 'B south' from actors$$, 'B still adds groups');

select * from finish();
rollback;
