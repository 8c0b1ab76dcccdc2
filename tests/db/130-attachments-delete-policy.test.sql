-- Evidence files are deleted only as the api deletes them: the object of an attachment whose
-- inspection is in progress, by someone who fills that inspection. Viewers, other organizations,
-- files without an attachment (even for the owner), inspections assigned to someone else and
-- finished inspections all delete nothing.
begin;
select plan(10);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('130d') m, tests.create_published_template(m.org_a, '[
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 5}]') p;
alter table actors add column inspection uuid;
update actors set inspection = tests.create_inspection(org_a, site, template);
grant select on actors to authenticated;

-- Three attached photos and one file of the organization's folder that no attachment names.
select tests.act_as((select inspector from actors));
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
select org_a, inspection, 'photo', org_a || '/' || inspection || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
from actors, generate_series(1, 3);
select tests.reset_role();
create temp table files on commit drop as
  select row_number() over (order by object_path) as n, object_path as name from public.attachments
  union all
  select 4, org_a || '/' || inspection || '/photo/' || gen_random_uuid() || '.jpg' from actors;
grant select on files to authenticated;
insert into storage.objects (bucket_id, name) select 'evidence', name from files;

create function pg_temp.deleted(n int) returns int language sql as $$
  with gone as (delete from storage.objects where bucket_id = 'evidence' and name = (select name from files where files.n = deleted.n) returning 1)
  select count(*)::int from gone;
$$;
grant execute on function pg_temp.deleted(int) to authenticated;
-- As the Storage API does before its deletes (Storage's delete protection refuses others).
select set_config('storage.allow_delete_query', 'true', true);

select tests.act_as((select viewer from actors));
select is(pg_temp.deleted(1), 0, 'a viewer deletes no photo');
select tests.act_as((select b_owner from actors));
select is(pg_temp.deleted(1), 0, 'another organization''s owner deletes no photo');
select tests.act_as((select outsider from actors));
select is(pg_temp.deleted(1), 0, 'an outsider deletes no photo');
select tests.act_as((select owner from actors));
select is(pg_temp.deleted(4), 0, 'even the owner deletes no file that no attachment names');
select tests.act_as((select inspector from actors));
select is(pg_temp.deleted(1), 1, 'the inspector deletes a photo of the inspection in progress they fill');

select tests.reset_role();
update public.inspections set assignee_id = (select manager from actors) where id = (select inspection from actors);
select tests.act_as((select inspector from actors));
select is(pg_temp.deleted(2), 0, 'an inspector deletes nothing of an inspection assigned to someone else');
select tests.act_as((select manager from actors));
select is(pg_temp.deleted(2), 1, 'the manager it is assigned to does');

-- (Each deleted file took its photo's row along, 20261128130300: tests/db/132.)
select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set status = 'submitted' where id = (select inspection from actors);
set local session_replication_role = origin;
select tests.act_as((select manager from actors));
select is(pg_temp.deleted(3), 0, 'once submitted, not even a manager deletes its photos');
select tests.act_as((select owner from actors));
select is(pg_temp.deleted(3), 0, 'nor the owner');

select tests.reset_role();
select is((select count(*)::int from storage.objects where bucket_id = 'evidence' and name in (select name from files)), 2,
  'the unattached file and the submitted photo are still there');

select * from finish();
rollback;
