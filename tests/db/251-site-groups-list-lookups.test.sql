-- The two lookups the inspections list of a member limited to site groups reads (docs/site-groups.md,
-- "Hot paths"): private.answered_count_of_inspection, which counts an inspection's answered items
-- past the answers' and photos' policies, asking the rule once for the inspection; and
-- private.inspections_by_site_group, which keeps each inspection's site group in the list's order.
-- Signed-in callers read both. Each shows a caller exactly the inspections it reads, both sides
-- (org-wide and limited members and keys, another organization's owner, anon, a caller's own
-- leaky function); the counts are those the policies give; the kept groups follow every write
-- that changes which inspections a site group holds, at once.
begin;
select plan(35);

create temp table actors on commit drop as select * from tests.create_site_group_world('251');
grant select on actors to anon, authenticated;
create temp table names on commit drop as
  select north_insp as id, 'north' as name from actors union all select pier_insp, 'pier' from actors
  union all select south_insp, 'south' from actors union all select loose_insp, 'loose' from actors;
grant select on names to anon, authenticated;

-- Answered: North's floor and a confirmed photo (2), Pier's floor and a photo not yet confirmed
-- (1), South's confirmed photo alone (1), the loose site's floor (1). Photos written past the
-- checks, as 244 does.
insert into public.answers (org_id, inspection_id, item_key, value)
  select org_a, i, 'floor', '"pass"' from actors, unnest(array[north_insp, pier_insp, loose_insp]) i;
set local session_replication_role = replica;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, confirmed_at)
  select org_a, v.inspection, 'photo', org_a || '/' || v.inspection || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10, v.confirmed
  from actors, lateral (values (north_insp, now()), (pier_insp, null::timestamptz), (south_insp, now())) v (inspection, confirmed);
set local session_replication_role = origin;

-- What the caller reads: the counts of the view; the same counted under the answers' and
-- attachments' policies for the inspections it reads (the lists' statement before the view); the
-- kept groups' rows; by the fixture's names.
create function pg_temp.counts_read() returns text language sql as $$
  select coalesce(string_agg(n.name || ' ' || c.answered_count, ', ' order by n.name), '')
  from private.answered_count_of_inspection c join names n on n.id = c.inspection_id;
$$;
create function pg_temp.counts_by_policies() returns text language sql as $$
  select coalesce(string_agg(n.name || ' ' || (
      (select count(*)::int from public.answers x where x.inspection_id = i.id and x.value is not null and x.item_key <> all (i.hidden_item_keys))
      + (select count(distinct t.item_key)::int from public.attachments t
         where t.inspection_id = i.id and t.confirmed_at is not null and t.item_key <> all (i.hidden_item_keys))),
    ', ' order by n.name), '')
  from public.inspections i join names n on n.id = i.id;
$$;
create function pg_temp.walk_read() returns text language sql as $$
  select coalesce(string_agg(coalesce(n.name, 'new'), ', ' order by coalesce(n.name, 'new')), '')
  from private.inspections_by_site_group w left join names n on n.id = w.inspection_id
  where w.org_id = (select org_a from actors);
$$;
-- A caller's own function that tells where it was called (volatile, not leakproof, and as cheap
-- as the planner can be told, so that it would run first wherever it is allowed to).
create temp table peeked (inspection_id uuid) on commit drop;
grant insert, select, delete on peeked to authenticated;
create function pg_temp.peek(inspection uuid) returns boolean language plpgsql volatile cost 0.0001 as $$
begin
  insert into peeked values (inspection);
  return true;
end;
$$;
create function pg_temp.peeked_names() returns text language sql as $$
  select coalesce(string_agg(distinct n.name, ', ' order by n.name), '') from peeked p join names n on n.id = p.inspection_id;
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- The answered counts: what the policies count, for every caller.
select tests.act_as((select owner from actors));
select is(pg_temp.counts_read(), 'loose 1, north 2, pier 1, south 1',
  'the owner reads every inspection''s answered count: answers with a value and confirmed photos');
select is(pg_temp.counts_read(), pg_temp.counts_by_policies(), 'the counts the answers'' and photos'' policies give it');
select tests.act_as((select viewer from actors));
select is(pg_temp.counts_read(), pg_temp.counts_by_policies(), 'so for an org-wide viewer');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.counts_read(), 'loose 1, north 2, pier 1, south 1', 'an org-wide key reads every count');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.counts_read(), 'north 2, pier 1', 'an inspector limited to North reads the counts of North''s and Pier''s inspections only');
select is(pg_temp.counts_read(), pg_temp.counts_by_policies(), 'the counts the policies give it');
select tests.act_as((select l_manager from actors));
select is(pg_temp.counts_read(), 'north 2, pier 1', 'so does a limited manager');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.counts_read(), pg_temp.counts_by_policies(), 'and a limited viewer, as the policies count');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.counts_read(), 'north 2, pier 1', 'and a limited key');
select is((select count(*)::int from private.answered_count_of_inspection where inspection_id = (select south_insp from actors)), 0,
  'which finds no count of South''s inspection by its id (0 rows)');
select tests.act_as((select b_owner from actors));
select is(pg_temp.counts_read(), '', 'the owner of B reads none of A''s counts');
select tests.act_as_anon();
select throws_ok($$select * from private.answered_count_of_inspection$$, '42501', null, 'anon reads no count at all');

-- A caller's own condition on the view runs after the rule, never before it (security_barrier).
select tests.act_as((select l_inspector from actors));
select is((select count(*)::int from private.answered_count_of_inspection where pg_temp.peek(inspection_id)), 2,
  'a limited inspector''s own function on the view is given its two inspections');
select is(pg_temp.peeked_names(), 'north, pier', 'and never sees the id of an inspection outside its groups');

-- An item the template's rules hide is not counted, as the policies' count did not count it.
select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set hidden_item_keys = '{photo}' where id = (select north_insp from actors);
set local session_replication_role = origin;
select tests.act_as((select l_inspector from actors));
select is(pg_temp.counts_read(), 'north 1, pier 1', 'a hidden photo item is not counted');
select is(pg_temp.counts_read(), pg_temp.counts_by_policies(), 'as the policies'' count');

-- The kept groups: a row per inspection, with its organization, creation time and site's group.
select tests.reset_role();
select results_eq(
  $$select w.inspection_id, w.org_id, w.created_at, w.group_id from private.inspections_by_site_group w
    where w.org_id = (select org_a from actors) order by 1$$,
  $$select i.id, i.org_id, i.created_at, s.group_id from public.inspections i join public.sites s on s.id = i.site_id
    where i.org_id = (select org_a from actors) order by 1$$,
  'every inspection has its row: its organization, creation time and site''s group');
select tests.act_as((select owner from actors));
select is(pg_temp.walk_read(), 'loose, north, pier, south', 'the owner reads every inspection''s row');
select tests.act_as((select viewer from actors));
select is(pg_temp.walk_read(), 'loose, north, pier, south', 'so does an org-wide viewer');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.walk_read(), 'north, pier', 'an inspector limited to North reads the rows of North''s and Pier''s inspections only');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.walk_read(), 'north, pier', 'so does a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.walk_read(), 'north, pier', 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.walk_read(), '', 'the owner of B reads none of A''s');
select tests.act_as_anon();
select throws_ok($$select * from private.inspections_by_site_group$$, '42501', null, 'anon reads none at all');
select tests.act_as((select owner from actors));
select throws_ok($$update private.inspections_by_site_group set group_id = null$$, '42501', null, 'and no one writes them: not an owner''s update');
select throws_ok($$delete from private.inspections_by_site_group$$, '42501', null, 'nor delete');
select throws_ok($$insert into private.inspections_by_site_group (inspection_id, org_id, created_at) select pier_insp, org_a, now() from actors$$,
  '42501', null, 'nor insert');

-- They follow every write.
select tests.act_as((select l_manager from actors));
insert into public.inspections (org_id, site_id, template_id) select org_a, pier_site, template from actors;
select tests.act_as((select l_inspector from actors));
select is(pg_temp.walk_read(), 'new, north, pier', 'a new inspection at Pier''s site has its row at once, read by the limited inspector');
select tests.reset_role();
select is((select w.group_id from private.inspections_by_site_group w join public.inspections i on i.id = w.inspection_id
    where i.site_id = (select pier_site from actors) and i.id <> (select pier_insp from actors)), (select pier from actors),
  'with its site''s group');

select tests.act_as((select owner from actors));
update public.sites set group_id = (select south from actors) where id = (select north_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.walk_read() || ' / ' || pg_temp.counts_read(), 'new, pier / pier 1',
  'a site moved out of North takes its inspection out of the limited inspector''s rows and counts at once');
select tests.reset_role();
select is((select group_id from private.inspections_by_site_group where inspection_id = (select north_insp from actors)), (select south from actors),
  'its row has the new group');
select tests.act_as((select owner from actors));
update public.sites set group_id = (select harbour from actors) where id = (select south_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.walk_read(), 'new, pier, south', 'and a site moved into Harbour brings its inspection in');
select tests.act_as((select owner from actors));
update public.sites set group_id = null where id = (select pier_site from actors);
select tests.act_as((select l_inspector from actors));
select is(pg_temp.walk_read(), 'south', 'a site taken out of every group leaves only org-wide callers its inspections');
select tests.act_as((select viewer from actors));
select is(pg_temp.walk_read(), 'loose, new, north, pier, south', 'whose org-wide viewer reads them all');

-- An inspection deleted (a site's or an organization's deletion cascades) takes its row with it.
select tests.reset_role();
delete from public.inspections where id = (select loose_insp from actors);
select is((select count(*)::int from private.inspections_by_site_group where inspection_id = (select loose_insp from actors)), 0,
  'a deleted inspection''s row goes with it');

select * from finish();
rollback;
