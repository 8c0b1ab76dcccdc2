-- The site groups' SQL after the pgTAP review's mends (docs/site-groups.md): 240-249 prove the
-- behaviour; this file holds what each mend must leave true that those cannot see.
begin;
select plan(6);

-- The tables of groups and access grant signed-in users only the columns and commands they use
-- (20261129200100): Supabase's default privileges gave them everything, which RLS does not hold
-- for truncate, nor for the columns the database keeps (depth, created_by, org_id on update).
select ok(not has_table_privilege('authenticated', 'public.site_groups', 'truncate')
      and not has_table_privilege('authenticated', 'public.membership_site_groups', 'truncate')
      and not has_table_privilege('authenticated', 'public.api_key_site_groups', 'truncate'),
  'signed-in users cannot truncate the tables of groups and access');
select ok(not has_column_privilege('authenticated', 'public.site_groups', 'depth', 'update')
      and not has_column_privilege('authenticated', 'public.site_groups', 'org_id', 'update')
      and not has_column_privilege('authenticated', 'public.site_groups', 'created_by', 'update')
      and not has_column_privilege('authenticated', 'public.site_groups', 'depth', 'insert'),
  'nor write a group''s depth, organization or author');
select ok(has_column_privilege('authenticated', 'public.site_groups', 'name', 'update')
      and has_column_privilege('authenticated', 'public.site_groups', 'parent_id', 'update')
      and has_table_privilege('authenticated', 'public.site_groups', 'delete'),
  'but rename, move and delete groups (the policies decide which)');
select ok(not has_table_privilege('authenticated', 'public.membership_site_groups', 'update')
      and not has_table_privilege('authenticated', 'public.api_key_site_groups', 'update')
      and not has_table_privilege('authenticated', 'public.api_key_site_groups', 'delete'),
  'grants are never updated, and a key''s are never taken back');
select ok(not has_table_privilege('anon', 'public.site_groups', 'select')
      and not has_table_privilege('anon', 'public.membership_site_groups', 'select')
      and not has_table_privilege('anon', 'public.api_key_site_groups', 'select'),
  'anon has no right on them at all');

-- Triggers of a table fire in the order of their names: the schedule's own check of its assignee
-- and rotation (every site of it) runs before schedules_apply_change writes the occurrences,
-- whose own check (this site) would otherwise answer first, on the wrong field (20261129200200).
select ok((select array_agg(t.tgname::text order by t.tgname) from pg_trigger t
    where t.tgrelid = 'public.schedules'::regclass and not t.tgisinternal
      and t.tgname in ('schedules_apply_change', 'schedules_require_people_to_see_its_sites',
                       'schedules_admit_only_people_seeing_its_sites'))
  = array['schedules_admit_only_people_seeing_its_sites', 'schedules_apply_change'],
  'the schedule''s people are checked by a trigger named to fire before its change is applied');

select * from finish();
