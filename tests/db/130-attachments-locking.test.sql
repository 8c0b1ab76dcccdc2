-- Adding, confirming and removing a photo lock the inspection row (for no key update) as saving
-- an answer does, so a submit or cancel waits for the photo change and then counts it: a required
-- photo cannot be removed while a submit checks it, and no photo lands on a submitted inspection.
-- Seen with pgrowlocks on the inspection's current row: before the change nothing holds it "For No
-- Key Update", after it the change does (a bare foreign-key check would hold only "For Key Share").
begin;
select plan(8);

create extension if not exists pgrowlocks with schema extensions;

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('130l') m, tests.create_published_template(m.org_a, '[
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": true, "weight": 0, "max_photos": 5}]') p;
alter table actors add column adding uuid, add column confirming uuid, add column removing uuid;
-- In progress past the triggers (replica mode), and so is a pending photo on two of them: no lock yet.
update actors set adding = tests.create_inspection(org_a, site, template, title => 'Adding'),
                  confirming = tests.create_inspection(org_a, site, template, title => 'Confirming'),
                  removing = tests.create_inspection(org_a, site, template, title => 'Removing');
set local session_replication_role = replica;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, uploaded_by)
select org_a, i.id, 'photo', org_a || '/' || i.id || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10, inspector
from actors, public.inspections i where i.id in (confirming, removing);
set local session_replication_role = origin;
insert into storage.objects (bucket_id, name, metadata)
select 'evidence', object_path, jsonb_build_object('size', byte_size, 'mimetype', content_type)
from public.attachments where inspection_id = (select confirming from actors);
grant select on actors to authenticated;

-- The lock modes held on an inspection's current row.
create function tests.inspection_row_locks(inspection uuid)
returns text[]
language sql
as $$
  select coalesce((select l.modes from extensions.pgrowlocks('public.inspections') l
                   where l.locked_row = (select i.ctid from public.inspections i where i.id = inspection)), '{}');
$$;

select ok(not 'For No Key Update' = any (tests.inspection_row_locks(adding)), 'before a photo is added, the inspection is not locked') from actors;
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, adding, 'photo', org_a || '/' || adding || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10 from actors$$,
  'the inspector adds a photo');
select tests.reset_role();
select ok('For No Key Update' = any (tests.inspection_row_locks(adding)), 'adding a photo locks the inspection') from actors;

select ok(not 'For No Key Update' = any (tests.inspection_row_locks(confirming)), 'before a photo is confirmed, the inspection is not locked') from actors;
select tests.act_as((select inspector from actors));
with changed as (update public.attachments set confirmed_at = now() where inspection_id = (select confirming from actors) returning 1)
select is(count(*)::int, 1, 'the inspector confirms the photo') from changed;
select tests.reset_role();
select ok('For No Key Update' = any (tests.inspection_row_locks(confirming)), 'confirming a photo locks the inspection') from actors;

select ok(not 'For No Key Update' = any (tests.inspection_row_locks(removing)), 'before a photo is removed, the inspection is not locked') from actors;
select tests.act_as((select inspector from actors));
with gone as (delete from public.attachments where inspection_id = (select removing from actors) returning 1)
select ok(count(*) = 1 and 'For No Key Update' = any (tests.inspection_row_locks((select removing from actors))),
  'removing a photo locks the inspection') from gone;

select * from finish();
rollback;
