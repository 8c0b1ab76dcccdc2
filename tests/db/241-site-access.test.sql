-- Access by site group (issue 27 parts 2 and 3; docs/site-groups.md): every policy on something at
-- a site applies the rule; the rule, private.can_see_site, answers for every kind of principal
-- (owners and admins, org-wide members and keys, limited members of each role and a limited key;
-- another organization, an outsider), including descendants of the groups and not their parents;
-- who sets a member's access and how (owners and admins only, groups of the organization only,
-- never for owners and admins); who reads the grants; the routes around it refused (a limited
-- manager or key widening its own access, a key's limit changed); a change of role to admin
-- clears the limit; a group moved takes its sites out of the old parent's reach at once; what stays
-- org-wide (templates, members); a limited member whose only group is deleted (its sites moved
-- out first) sees nothing rather than everything.
begin;
select plan(61);

create temp table actors on commit drop as select * from tests.create_site_group_world('241');
alter table actors add column l_two uuid, add column l_south uuid, add column k_south uuid, add column b_group uuid;
update actors set l_two = tests.create_limited_member(org_a, 'l-two-241@example.test', 'inspector', array[harbour, south]),
                  l_south = tests.create_limited_member(org_a, 'l-south-241@example.test', 'inspector', array[south]),
                  k_south = tests.create_limited_api_key(org_a, 'viewer', array[south], 'South integration');
insert into public.sites (org_id, name) select org_b, 'B depot' from actors;
update actors set b_group = tests.create_site_group(org_b, 'B region');
grant select on actors to anon, authenticated;
create temp table site_list on commit drop as
  select s.org_id, s.id, s.name from public.sites s where s.org_id in (select org_a from actors union all select org_b from actors);
grant select on site_list to anon, authenticated;

-- The names of the sites (of A and B) the caller may see by the one rule, with `roles` the
-- role-taking variant.
create function pg_temp.seen(roles public.org_role[] default null) returns text language sql as $$
  select coalesce(string_agg(l.name, ', ' order by l.name), '')
  from site_list l
  where case when roles is null then private.can_see_site(l.org_id, l.id) else private.can_see_site(l.org_id, l.id, roles) end;
$$;
-- The names of the sites of A the caller reads.
create function pg_temp.sites_read() returns text language sql as $$
  select coalesce(string_agg(s.name, ', ' order by s.name), '') from public.sites s where s.org_id = (select org_a from actors);
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Every policy on something at a site applies the rule: through its set-returning helpers (once a
-- statement) or a point check that applies it (can_fill_inspection, can_work_action,
-- photo_object_changeable, can_see_site). Adding a schedule is the exception: the row has no site
-- yet, and its sites are checked on schedule_sites. (private.can_see_site cannot be the inlinable
-- SQL the contract asked for: a function with a pinned search_path, which 003 requires, is never
-- inlined; docs/site-groups.md.)
select is_empty($$
  select p.schemaname || '.' || p.tablename || ': ' || p.policyname from pg_policies p
  where ((p.schemaname = 'public' and p.tablename in ('sites', 'site_groups', 'inspections', 'answers', 'attachments', 'actions',
           'action_events', 'action_attachments', 'audit_log', 'schedules', 'schedule_sites'))
         or (p.schemaname = 'storage' and p.tablename = 'objects') or (p.schemaname = 'realtime' and p.tablename = 'messages'))
    and coalesce(p.qual, '') || ' ' || coalesce(p.with_check, '')
        !~ '(org_ids_with_every_site|limited_site_group_ids|limited_site_ids|can_see_site|sees_sites_in_group|can_fill_inspection|can_work_action|photo_object_changeable)'
    and not (p.tablename = 'schedules' and p.cmd = 'INSERT')
$$, 'every policy on sites, what hangs off them, their Storage objects and Realtime topics applies the site rule');
select is((select count(*)::int from pg_proc p
           where p.pronamespace = 'private'::regnamespace and p.proname in ('org_ids_with_every_site', 'limited_site_ids')
             and p.prosecdef and p.proretset and p.provolatile = 's'), 2,
  'org_ids_with_every_site and limited_site_ids are stable, set-returning security definer helpers');

-- Who sees which site.
select tests.act_as((select owner from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'the owner sees every site of A, grouped or not, and none of B''s');
select tests.act_as((select admin from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'so does an admin');
select tests.act_as((select manager from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and an org-wide manager');
select tests.act_as((select inspector from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and an org-wide inspector');
select tests.act_as((select viewer from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and an org-wide viewer');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.seen(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and an org-wide key');
select tests.act_as((select l_manager from actors));
select is(pg_temp.seen(), 'North kitchen, Pier kiosk', 'a manager limited to North sees North''s site and Pier''s (North''s grandchild), not South''s or the ungrouped one');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.seen(), 'North kitchen, Pier kiosk', 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.seen(), 'North kitchen, Pier kiosk', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.seen(), 'North kitchen, Pier kiosk', 'and a key limited to North');
select tests.act_as((select l_two from actors));
select is(pg_temp.seen(), 'Pier kiosk, South depot', 'a member limited to Harbour and South sees their sites, not those of Harbour''s parent');
select tests.act_as((select b_owner from actors));
select is(pg_temp.seen(), 'B depot', 'the owner of B sees B''s site only');
select tests.act_as((select outsider from actors));
select is(pg_temp.seen(), '', 'an outsider sees no site');

-- "A manager of this site": the role-taking variant.
select tests.act_as((select l_manager from actors));
select is(pg_temp.seen('{owner,admin,manager}'), 'North kitchen, Pier kiosk', 'the limited manager manages North''s sites only');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.seen('{owner,admin,manager}'), 'North kitchen, Pier kiosk', 'so does the limited manager key');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.seen('{owner,admin,manager}'), '', 'a limited inspector manages no site');
select is(pg_temp.seen('{inspector}'), 'North kitchen, Pier kiosk', 'but inspects North''s');
select tests.act_as((select manager from actors));
select is(pg_temp.seen('{owner,admin,manager}'), 'Loose yard, North kitchen, Pier kiosk, South depot', 'an org-wide manager manages every site');

-- Setting a member's access: owners and admins, groups of the organization, never owners and admins.
select tests.act_as((select owner from actors));
select lives_ok($$select private.set_member_site_access(org_a, inspector, array[south]) from actors$$,
  'the owner limits the org-wide inspector to South');
select tests.act_as((select inspector from actors));
select is(pg_temp.sites_read(), 'South depot', 'who at once reads South''s site only');
select tests.act_as((select admin from actors));
select lives_ok($$select private.set_member_site_access(org_a, inspector, '{}') from actors$$, 'an admin makes it org-wide again (no groups)');
select tests.act_as((select inspector from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'who reads every site again');
select tests.act_as((select manager from actors));
select matches(tests.error_of($$select private.set_member_site_access(org_a, inspector, array[south]) from actors$$),
  '^forbidden', 'a manager cannot set a member''s access (forbidden)');
select tests.act_as((select l_manager from actors));
select matches(tests.error_of($$select private.set_member_site_access(org_a, l_manager, '{}') from actors$$),
  '^forbidden', 'a limited manager cannot make itself org-wide (forbidden)');
select tests.act_as((select b_owner from actors));
select matches(tests.error_of($$select private.set_member_site_access(org_a, l_inspector, '{}') from actors$$),
  '^not_found', 'the owner of B cannot set access in A (not_found, as for any organization not theirs)');
select tests.act_as((select owner from actors));
select matches(tests.error_of(format('select private.set_member_site_access(%L, %L, array[%L]::uuid[])',
    (select org_a from actors), (select l_inspector from actors), (select b_group from actors))),
  '^validation_failed', 'a group of another organization is refused (validation_failed)');
select matches(tests.error_of(format('select private.set_member_site_access(%L, %L, array[%L]::uuid[])',
    (select org_a from actors), (select admin from actors), (select north from actors))),
  '^validation_failed', 'an admin cannot be limited (validation_failed)');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'the refused calls left the limited inspector as it was');
select tests.act_as((select admin from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and the admin org-wide');

-- Who reads the grants: members of the organization, not anon nor another organization.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.membership_site_groups$$, '42501', null, 'anon cannot read member access');
select throws_ok($$select count(*) from public.api_key_site_groups$$, '42501', null, 'nor key access');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.membership_site_groups) + (select count(*)::int from public.api_key_site_groups), 0,
  'the owner of B reads none of A''s grants');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.api_key_site_groups), 2, 'the owner of A reads its keys'' grants');

-- The routes around it.
select tests.act_as((select l_manager from actors));
select throws_ok($$insert into public.membership_site_groups (org_id, user_id, site_group_id) select org_a, l_manager, south from actors$$,
  '42501', null, 'a limited manager cannot add South to its own groups');
select matches(tests.outcome(format('update public.memberships set site_access_limited = false where user_id = %L', (select l_manager from actors))),
  '^(0 rows|error 42501)', 'nor clear its own limit (0 rows, or refused)');
select tests.act_as((select l_inspector from actors));
select throws_ok($$insert into public.membership_site_groups (org_id, user_id, site_group_id) select org_a, l_inspector, south from actors$$,
  '42501', null, 'nor can a limited inspector');
select tests.act_as_api_key((select k_limited from actors));
select throws_ok($$insert into public.api_key_site_groups (api_key_id, org_id, site_group_id) select k_limited, org_a, south from actors$$,
  '42501', null, 'a limited key cannot add South to its own groups');
select tests.act_as((select owner from actors));
select throws_ok($$update public.api_keys set site_access_limited = false where id = (select k_limited from actors)$$,
  '42501', null, 'a key''s limit is set at creation only: not even the owner clears it');
select tests.reset_role();
select is((select site_access_limited from public.memberships where user_id = (select l_manager from actors)), true, 'the limited manager is still limited');
select is((select count(*)::int from public.membership_site_groups where user_id in (select l_manager from actors union all select l_inspector from actors)), 2,
  'with North alone, as is the limited inspector');
select throws_ok($$update public.memberships set site_access_limited = true where user_id = (select admin from actors)$$,
  '23514', null, 'an admin''s membership cannot be limited, even past the policies');
select throws_ok($$update public.memberships set site_access_limited = true where user_id = (select owner from actors)$$,
  '23514', null, 'nor the owner''s');

-- A change of role to admin clears the limit; other role changes keep it.
select tests.act_as((select owner from actors));
update public.memberships set role = 'admin' where user_id = (select l_manager from actors);
select tests.act_as((select l_manager from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'a limited manager made admin reads every site at once');
select tests.act_as((select owner from actors));
update public.memberships set role = 'manager' where user_id = (select l_manager from actors);
select tests.act_as((select l_manager from actors));
select is(pg_temp.sites_read(), 'Loose yard, North kitchen, Pier kiosk, South depot', 'and stays org-wide once a manager again (the limit was cleared, not hidden)');
select tests.act_as((select owner from actors));
update public.memberships set role = 'manager' where user_id = (select l_inspector from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.sites_read(), 'North kitchen, Pier kiosk', 'a limited inspector made manager stays limited to North');

-- A new group and site under North reach the limited at once.
select tests.reset_role();
insert into public.sites (org_id, name, group_id) select org_a, 'Cove shed', tests.create_site_group(org_a, 'Cove', harbour) from actors;
select tests.act_as((select l_viewer from actors));
select is(pg_temp.sites_read(), 'Cove shed, North kitchen, Pier kiosk', 'a site in a new subgroup of Harbour is read by a viewer limited to North');

-- A group moved, with its subgroups and sites, takes them out of the old parent's reach at once.
select tests.act_as((select owner from actors));
update public.site_groups set parent_id = (select south from actors) where id = (select harbour from actors);
select tests.act_as((select l_viewer from actors));
select is(pg_temp.sites_read(), 'North kitchen', 'Harbour moved under South: the viewer limited to North no longer reads Harbour''s sites');
select tests.act_as((select l_south from actors));
select is(pg_temp.sites_read(), 'Cove shed, Pier kiosk, South depot', 'and the member limited to South now does');
select tests.act_as((select owner from actors));
update public.site_groups set parent_id = (select north from actors) where id = (select harbour from actors);
select tests.act_as((select l_viewer from actors));
select is(pg_temp.sites_read(), 'Cove shed, North kitchen, Pier kiosk', 'moved back, they are the North viewer''s again');

-- What stays org-wide: templates, their versions, the members, the organization.
select tests.act_as((select l_viewer from actors));
select is((select count(*)::int from public.templates) || ' / ' || (select count(*)::int from public.template_versions)
          || ' / ' || (select count(*)::int from public.memberships) || ' / ' || (select count(*)::int from public.organizations),
  (select (select count(*)::int from public.templates where org_id = a.org_a) || ' / ' || (select count(*)::int from public.template_versions where org_id = a.org_a)
          || ' / ' || (select count(*)::int from public.memberships where org_id = a.org_a) || ' / 1' from actors a),
  'a limited viewer reads every template, version and member of A, and A itself');
select tests.act_as((select l_manager from actors));
select is(tests.outcome($$update public.templates set description = 'By the regional manager' where id = (select template from actors)$$), '1 rows',
  'a limited manager still edits the organization''s templates');

-- A group deleted, its site moved out first: its only limited members and keys see nothing, not everything.
select tests.act_as((select l_south from actors));
select is(pg_temp.sites_read(), 'South depot', 'a member limited to South reads South''s site');
select tests.act_as((select owner from actors));
update public.sites set group_id = null where id = (select south_site from actors);
select tests.act_as((select l_south from actors));
select is(pg_temp.sites_read(), '', 'once that site leaves South, at the next statement, it reads none');
select tests.act_as((select owner from actors));
delete from public.site_groups where id = (select south from actors);
select tests.act_as((select l_south from actors));
select is(pg_temp.sites_read(), '', 'with South deleted it still reads no site (not every site)');
select is((select count(*)::int from public.inspections), 0, 'and no inspection');
select tests.act_as_api_key((select k_south from actors));
select is(pg_temp.sites_read(), '', 'a key limited to South alone reads no site either');
select tests.act_as((select l_two from actors));
select is(pg_temp.sites_read(), 'Cove shed, Pier kiosk', 'a member limited to Harbour and South keeps Harbour''s (Pier''s and Cove''s)');
select tests.reset_role();
select results_eq($$select site_access_limited from public.memberships where user_id = (select l_south from actors)$$, array[true],
  'the member is still limited');
select is((select count(*)::int from public.membership_site_groups where user_id = (select l_south from actors))
        + (select count(*)::int from public.api_key_site_groups where api_key_id = (select k_south from actors)), 0,
  'and its and the key''s rows for South went with the group');

select * from finish();
rollback;
