-- Sites: every actor of the matrix against select, insert, update and delete; then, as the
-- superuser, proof that the refused calls changed nothing. Members read, owners, admins and
-- managers add and edit, nobody deletes (archiving is an update). Also the geofence default
-- from the organization and the check and unique constraints.
begin;
select plan(71);

create temp table actors on commit drop as select * from tests.create_org_matrix('050');
update public.organizations set default_geofence_m = 350 where id = (select org_a from actors);
alter table actors add column site_a uuid, add column site_b uuid;
with created as (insert into public.sites (org_id, name, external_ref) select org_a, 'Depot A', 'REF-1' from actors returning id)
update actors set site_a = (select id from created);
with created as (insert into public.sites (org_id, name) select org_b, 'Depot B' from actors returning id)
update actors set site_b = (select id from created);
grant select on actors to anon, authenticated;

-- Select: members of the organization.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.sites$$, '42501', null, 'anon cannot read sites');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.sites), 0, 'a signed-in non-member sees no site');
select tests.act_as((select b_owner from actors));
select results_eq($$select id from public.sites$$, $$select site_b from actors$$, 'the owner of B sees B''s site only, none of A''s');
select tests.act_as((select viewer from actors));
select results_eq($$select id from public.sites$$, $$select site_a from actors$$, 'a viewer sees A''s site only');
select tests.act_as((select inspector from actors));
select results_eq($$select id from public.sites$$, $$select site_a from actors$$, 'an inspector sees A''s site only');
select tests.act_as((select manager from actors));
select results_eq($$select id from public.sites$$, $$select site_a from actors$$, 'a manager sees A''s site only');
select tests.act_as((select admin from actors));
select results_eq($$select id from public.sites$$, $$select site_a from actors$$, 'an admin sees A''s site only');
select tests.act_as((select owner from actors));
select results_eq($$select id from public.sites$$, $$select site_a from actors$$, 'the owner sees A''s site only');

-- Insert: owners, admins and managers.
select tests.act_as_anon();
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By anon' from actors$$,
  '42501', null, 'anon cannot add a site');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By outsider' from actors$$,
  '42501', null, 'a non-member cannot add a site to A');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By B''s owner' from actors$$,
  '42501', null, 'the owner of B cannot add a site to A');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By viewer' from actors$$,
  '42501', null, 'a viewer cannot add a site');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.sites (org_id, name) select org_a, 'By inspector' from actors$$,
  '42501', null, 'an inspector cannot add a site');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.sites (org_id, name) select org_a, 'By manager' from actors$$, 'a manager adds a site');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.sites (org_id, name) select org_a, 'By admin' from actors$$, 'an admin adds a site');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.sites (org_id, name) select org_a, 'By owner' from actors$$, 'the owner adds a site');
select throws_ok($$insert into public.sites (org_id, name) select org_b, 'Into B' from actors$$,
  '42501', null, 'the owner of A cannot add a site to B');
select throws_ok($$insert into public.sites (org_id, name, created_at) select org_a, 'Dated', now() - interval '1 year' from actors$$,
  '42501', null, 'created_at is not the caller''s to set');
select throws_ok($$insert into public.sites (org_id, name, archived_at) select org_a, 'Born archived', now() from actors$$,
  '42501', null, 'a site cannot be inserted already archived');
select throws_ok($$insert into public.sites (org_id, name, created_by) select org_a, 'Credited to the viewer', viewer from actors$$,
  '42501', null, 'a site cannot be credited to another user');

select tests.reset_role();
select results_eq(
  $$select name, created_by from public.sites where org_id = (select org_a from actors) and name <> 'Credited to the viewer' order by name$$,
  $$select * from (values ('By admin', (select admin from actors)), ('By manager', (select manager from actors)),
                          ('By owner', (select owner from actors)), ('Depot A', null)) v(name, created_by) order by name$$,
  'A has its site and the three allowed ones, each credited to whoever added it, and none of the refused ones'
);
select is((select count(*)::int from public.sites where org_id = (select org_b from actors)), 1, 'B still has only its own site');

-- Update: owners, admins and managers edit and archive; the ids and history are not theirs to change.
select tests.act_as_anon();
select throws_ok($$update public.sites set name = 'By anon' where id = (select site_a from actors)$$,
  '42501', null, 'anon cannot edit a site');
select tests.act_as((select outsider from actors));
with changed as (update public.sites set name = 'By outsider' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 0, 'a non-member edits nothing (0 rows)') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.sites set name = 'By B''s owner' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 0, 'the owner of B edits nothing in A (0 rows)') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.sites set name = 'By viewer' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 0, 'a viewer edits nothing (0 rows)') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.sites set archived_at = now() where id = (select site_a from actors) returning 1)
select is(count(*)::int, 0, 'an inspector archives nothing (0 rows)') from changed;

select tests.reset_role();
select results_eq($$select name, archived_at from public.sites where id = (select site_a from actors)$$,
  $$values ('Depot A', null::timestamptz)$$, 'the refused edits left A''s site as it was');

select tests.act_as((select manager from actors));
with changed as (update public.sites set name = 'Renamed by manager' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'a manager edits a site (1 row)') from changed;
select tests.act_as((select admin from actors));
with changed as (update public.sites set address = '1 Admin Street' where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'an admin edits a site (1 row)') from changed;
select tests.act_as((select owner from actors));
with changed as (update public.sites set geofence_m = 500 where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'the owner edits a site (1 row)') from changed;
with changed as (update public.sites set name = 'By A''s owner' where id = (select site_b from actors) returning 1)
select is(count(*)::int, 0, 'the owner of A edits nothing in B (0 rows)') from changed;
select throws_ok($$update public.sites set org_id = (select org_b from actors) where id = (select site_a from actors)$$,
  '42501', null, 'a site cannot be moved to another organization');
select throws_ok($$update public.sites set created_by = (select viewer from actors) where id = (select site_a from actors)$$,
  '42501', null, 'a site''s creator cannot be changed');
select throws_ok($$update public.sites set created_at = now() where id = (select site_a from actors)$$,
  '42501', null, 'a site''s created_at cannot be changed');
select tests.act_as((select manager from actors));
with changed as (update public.sites set archived_at = now() where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'a manager archives a site (1 row)') from changed;
with changed as (update public.sites set archived_at = null where id = (select site_a from actors) returning 1)
select is(count(*)::int, 1, 'a manager restores an archived site (1 row)') from changed;

select tests.reset_role();
select results_eq(
  $$select name, address, geofence_m, archived_at from public.sites where id = (select site_a from actors)$$,
  $$values ('Renamed by manager', '1 Admin Street', 500, null::timestamptz)$$,
  'every allowed edit was stored'
);
select is((select name from public.sites where id = (select site_b from actors)), 'Depot B', 'B''s site is untouched');

-- Delete: nobody; "delete" archives.
create temp table sites_before_deletes on commit drop as select count(*)::int as n from public.sites;
select tests.act_as_anon();
select throws_ok($$delete from public.sites$$, '42501', null, 'anon cannot delete sites');
select tests.act_as((select outsider from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'a non-member cannot delete sites');
select tests.act_as((select b_owner from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'the owner of B cannot delete sites');
select tests.act_as((select viewer from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'a viewer cannot delete sites');
select tests.act_as((select inspector from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'an inspector cannot delete sites');
select tests.act_as((select manager from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'a manager cannot delete sites');
select tests.act_as((select admin from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'an admin cannot delete sites');
select tests.act_as((select owner from actors));
select throws_ok($$delete from public.sites$$, '42501', null, 'the owner cannot delete sites');

select tests.reset_role();
select is((select count(*)::int from public.sites), (select n from sites_before_deletes), 'the refused deletes removed no site');

-- The geofence default and the constraints, as a manager.
select tests.act_as((select manager from actors));
select is((select geofence_m from public.sites where name = 'By manager'), 350,
  'a site added without a geofence gets its organization''s default');
insert into public.sites (org_id, name, geofence_m) select org_a, 'Tight fence', 25 from actors;
select is((select geofence_m from public.sites where name = 'Tight fence'), 25, 'a geofence given with the site is kept');

select throws_ok($$insert into public.sites (org_id, name, latitude, longitude) select org_a, 'North of north', 90.0001, 0 from actors$$,
  '23514', null, 'a latitude above 90 is refused');
select throws_ok($$insert into public.sites (org_id, name, latitude, longitude) select org_a, 'South of south', -90.0001, 0 from actors$$,
  '23514', null, 'a latitude below -90 is refused');
select throws_ok($$insert into public.sites (org_id, name, latitude, longitude) select org_a, 'Past the date line', 0, 180.0001 from actors$$,
  '23514', null, 'a longitude above 180 is refused');
select throws_ok($$insert into public.sites (org_id, name, latitude, longitude) select org_a, 'Before the date line', 0, -180.0001 from actors$$,
  '23514', null, 'a longitude below -180 is refused');
select lives_ok($$insert into public.sites (org_id, name, latitude, longitude) select org_a, 'Corner', -90, 180 from actors$$,
  'the extreme coordinates -90 and 180 are accepted');
select throws_ok($$insert into public.sites (org_id, name, latitude) select org_a, 'Half a pin', 51.5 from actors$$,
  '23514', null, 'a latitude without a longitude is refused');
select throws_ok($$insert into public.sites (org_id, name, longitude) select org_a, 'Other half', -0.12 from actors$$,
  '23514', null, 'a longitude without a latitude is refused');
select throws_ok($$insert into public.sites (org_id, name, geofence_m) select org_a, 'Fence too small', 9 from actors$$,
  '23514', null, 'a geofence under 10 m is refused');
select throws_ok($$insert into public.sites (org_id, name, geofence_m) select org_a, 'Fence too large', 5001 from actors$$,
  '23514', null, 'a geofence over 5000 m is refused');
select lives_ok($$insert into public.sites (org_id, name, geofence_m) select org_a, 'Smallest fence', 10 from actors union all
                  select org_a, 'Largest fence', 5000 from actors$$,
  'geofences of exactly 10 m and 5000 m are accepted');
select throws_ok($$insert into public.sites (org_id, name) select org_a, '' from actors$$,
  '23514', null, 'an empty site name is refused');
select throws_ok($$insert into public.sites (org_id, name) select org_a, ' Padded' from actors$$,
  '23514', null, 'a site name with leading whitespace is refused');
select throws_ok($$insert into public.sites (org_id, name) select org_a, repeat('n', 121) from actors$$,
  '23514', null, 'a site name over 120 characters is refused');
select lives_ok($$insert into public.sites (org_id, name) select org_a, repeat('n', 120) from actors$$,
  'a site name of exactly 120 characters is accepted');
select throws_ok($$insert into public.sites (org_id, name, timezone) select org_a, 'On Mars', 'Mars/Olympus_Mons' from actors$$,
  '23514', null, 'an unknown time zone is refused');
select throws_ok($$insert into public.sites (org_id, name, timezone) select org_a, 'Posix zone', 'XYZ5' from actors$$,
  '23514', null, 'a POSIX offset spec that names no zone is refused, as the api''s IANA list refuses it');
select lives_ok($$insert into public.sites (org_id, name, timezone) select org_a, 'In Berlin', 'Europe/Berlin' from actors$$,
  'a known time zone is accepted');
select is((select timezone from public.sites where name = 'By manager'), 'UTC', 'the time zone defaults to UTC');
select throws_ok($$insert into public.sites (org_id, name, external_ref) select org_a, 'Same ref', 'REF-1' from actors$$,
  '23505', null, 'an external reference already used in the organization is refused');
select tests.act_as((select b_owner from actors));
select lives_ok($$insert into public.sites (org_id, name, external_ref) select org_b, 'Same ref in B', 'REF-1' from actors$$,
  'another organization may use the same external reference');

select policies_are(
  'public', 'sites',
  array['Members can read their organization''s sites', 'Owners, admins and managers can add sites',
        'Owners, admins and managers can edit and archive sites'],
  'sites has exactly the select, insert and update policies'
);

select * from finish();
rollback;
