-- Photos and Storage by site group (issue 27 part 2): the attachments table and storage.objects of
-- the evidence bucket (inspection photos and action photos) and of the exports bucket. A limited
-- inspector, manager, viewer and key read exactly the photos at their groups' sites (descendants
-- included), check in, confirm, upload and delete only there, both sides (`using`: 0 rows;
-- `with check`: the error); a limited principal reads only the exports it made itself; org-wide
-- members, owners and admins as before.
begin;
select plan(35);

create temp table actors on commit drop as select * from tests.create_site_group_world('244');
alter table actors add column north_action uuid, add column south_action uuid;
update actors set north_action = tests.create_action(org_a, north_site), south_action = tests.create_action(org_a, south_site);
grant select on actors to anon, authenticated;

-- A confirmed photo at each inspection and on each action, and its object; a pending photo of the
-- limited inspector at North's and at South's inspection (written past the checks, as 146 does).
create temp table photos (label text, parent uuid, kind text, path text, confirmed boolean, uploader uuid) on commit drop;
insert into photos
  select v.label, v.parent, 'inspection', a.org_a || '/' || v.parent || '/photo/' || gen_random_uuid() || '.jpg', v.confirmed, v.uploader
  from actors a, lateral (values ('north', a.north_insp, true, a.inspector), ('pier', a.pier_insp, true, a.inspector),
    ('south', a.south_insp, true, a.inspector), ('loose', a.loose_insp, true, a.inspector),
    ('north pending', a.north_insp, false, a.l_inspector), ('south pending', a.south_insp, false, a.l_inspector)) v (label, parent, confirmed, uploader)
  union all
  select v.label, v.parent, 'action', a.org_a || '/actions/' || v.parent || '/' || gen_random_uuid() || '.jpg', true, a.manager
  from actors a, lateral (values ('north action', a.north_action), ('south action', a.south_action)) v (label, parent);
grant select on photos to authenticated;
set local session_replication_role = replica;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, uploaded_by, confirmed_at)
  select (select org_a from actors), parent, 'photo', path, 'image/jpeg', 10, uploader, case when confirmed then now() end from photos where kind = 'inspection';
insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size, uploaded_by, confirmed_at)
  select (select org_a from actors), parent, path, 'image/jpeg', 10, uploader, now() from photos where kind = 'action';
set local session_replication_role = origin;
insert into storage.objects (bucket_id, name) select 'evidence', path from photos where confirmed;

-- Exports, each in its maker's folder (docs/site-groups.md: <org>/<user or key id>/<file>).
create temp table exports (label text, path text) on commit drop;
insert into exports
  select v.label, a.org_a || '/' || v.maker || '/' || gen_random_uuid() || '.csv'
  from actors a, lateral (values ('by owner', a.owner), ('by viewer', a.viewer), ('by limited inspector', a.l_inspector),
    ('by limited key', a.k_limited), ('by limited viewer', a.l_viewer)) v (label, maker);
grant select on exports to authenticated;
insert into storage.objects (bucket_id, name) select 'exports', path from exports;

create function pg_temp.attachments_read() returns text language sql as $$
  select coalesce(string_agg(p.label, ', ' order by p.label), '') from public.attachments a join photos p on p.path = a.object_path;
$$;
create function pg_temp.objects_read() returns text language sql as $$
  select coalesce(string_agg(p.label, ', ' order by p.label), '') from storage.objects o join photos p on p.path = o.name
  where o.bucket_id = 'evidence';
$$;
create function pg_temp.exports_read() returns text language sql as $$
  select coalesce(string_agg(e.label, ', ' order by e.label), '') from storage.objects o join exports e on e.path = o.name
  where o.bucket_id = 'exports';
$$;
-- What deleting a photo's object does, as the Storage API deletes (it sets allow_delete_query).
create function pg_temp.deleted(label text) returns text language sql as $$
  select set_config('storage.allow_delete_query', 'true', true);
  select tests.outcome(format('delete from storage.objects where bucket_id = %L and name = %L', 'evidence',
    (select p.path from photos p where p.label = deleted.label)));
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

-- Reading photo rows and objects.
select tests.act_as((select owner from actors));
select is(pg_temp.objects_read(), 'loose, north, north action, pier, south, south action', 'the owner reads every photo object');
select tests.act_as((select inspector from actors));
select is(pg_temp.attachments_read(), 'loose, north, north pending, pier, south, south pending', 'an org-wide inspector reads every inspection photo');
select is(pg_temp.objects_read(), 'loose, north, north action, pier, south, south action', 'and every photo object');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.objects_read(), 'loose, north, north action, pier, south, south action', 'and so does an org-wide key');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.attachments_read(), 'north, north pending, pier', 'a limited inspector reads the photos of the inspections at North''s and Pier''s sites only');
select is(pg_temp.objects_read(), 'north, north action, pier', 'and their objects, and the object of the action at North''s site, only');
select tests.act_as((select l_manager from actors));
select is(pg_temp.attachments_read() || ' / ' || pg_temp.objects_read(), 'north, north pending, pier / north, north action, pier', 'so does a limited manager');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.attachments_read() || ' / ' || pg_temp.objects_read(), 'north, north pending, pier / north, north action, pier', 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.attachments_read() || ' / ' || pg_temp.objects_read(), 'north, north pending, pier / north, north action, pier', 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.attachments_read() || ' / ' || pg_temp.objects_read(), ' / ', 'the owner of B reads none of A''s');

-- Checking in and confirming photos.
select tests.act_as((select l_inspector from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, pier_insp, 'photo', org_a || '/' || pier_insp || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  'a limited inspector checks in a photo at Pier''s site');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, south_insp, 'photo', org_a || '/' || south_insp || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  '42501', null, 'but not at South''s');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, loose_insp, 'photo', org_a || '/' || loose_insp || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  '42501', null, 'nor at the ungrouped site');
select is(tests.outcome($$update public.attachments set confirmed_at = now() where object_path = (select path from photos where label = 'south pending')$$), '0 rows', 'nor confirms its own pending photo at South''s site (0 rows)');
select tests.act_as_api_key((select k_limited from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, south_insp, 'photo', org_a || '/' || south_insp || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  '42501', null, 'a limited key checks in no photo at South''s site');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, south_insp, 'photo', org_a || '/' || south_insp || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  'an org-wide inspector checks one in at South''s site');

-- Uploading to Storage: the limited inspector's own pending paths, at its sites only.
select tests.act_as((select l_inspector from actors));
select lives_ok($$insert into storage.objects (bucket_id, name) select 'evidence', path from photos where label = 'north pending'$$,
  'the limited inspector uploads its pending photo at North''s site');
select throws_ok($$insert into storage.objects (bucket_id, name) select 'evidence', path from photos where label = 'south pending'$$,
  '42501', null, 'but not its pending photo at South''s');

-- Removing photos: rows and objects, at its sites only.
select is(tests.outcome($$delete from public.attachments where object_path = (select path from photos where label = 'south')$$), '0 rows', 'the limited inspector removes no photo row at South''s site (0 rows)');
select is(pg_temp.deleted('south'), '0 rows', 'nor deletes its object (0 rows)');
select is(pg_temp.deleted('loose'), '0 rows', 'nor the ungrouped site''s (0 rows)');
select is(pg_temp.deleted('pier'), '1 rows', 'but deletes the object of a photo at Pier''s site');
select tests.act_as((select l_manager from actors));
select is(pg_temp.deleted('south action'), '0 rows', 'a limited manager deletes no object of the action at South''s site (0 rows)');
select is(pg_temp.deleted('north action'), '1 rows', 'but deletes that of the action at North''s');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.deleted('south'), '0 rows', 'a limited key deletes no object at South''s site (0 rows)');
select tests.act_as((select inspector from actors));
select is(pg_temp.deleted('south'), '1 rows', 'an org-wide inspector deletes it');
select tests.reset_role();
select is((select string_agg(p.label, ', ' order by p.label) from storage.objects o join photos p on p.path = o.name),
  'loose, north, north pending, south action', 'only the allowed uploads and deletes happened');

-- Moving the site out of North: its photos are gone for the limited at once.
select tests.act_as((select owner from actors));
update public.sites set group_id = null where id = (select north_site from actors);
select tests.act_as((select l_viewer from actors));
select is(pg_temp.attachments_read() || ' / ' || pg_temp.objects_read(), ' / ', 'with North''s site moved out, the limited viewer reads none of its photos');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.deleted('north'), '0 rows', 'and the limited inspector deletes none of them (0 rows)');

-- Exports: the limited read only their own; the org-wide every export of the organization.
select tests.act_as((select owner from actors));
select is(pg_temp.exports_read(), 'by limited inspector, by limited key, by limited viewer, by owner, by viewer', 'the owner reads every export');
select tests.act_as((select viewer from actors));
select is(pg_temp.exports_read(), 'by limited inspector, by limited key, by limited viewer, by owner, by viewer', 'an org-wide viewer reads every export');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.exports_read(), 'by limited inspector', 'a limited inspector reads only the export it made');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.exports_read(), 'by limited viewer', 'and a limited viewer only its own');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.exports_read(), 'by limited key', 'and a limited key only its own');
select tests.act_as((select b_owner from actors));
select is(pg_temp.exports_read(), '', 'the owner of B reads none of A''s exports');

select * from finish();
rollback;
