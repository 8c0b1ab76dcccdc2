-- The storage insert policy admits the caller's pending photo only while its inspection is in
-- progress: once submitted (or canceled), a pending path checked in earlier no longer takes an
-- upload from the caller, so a finished inspection's evidence stays as it was.
begin;
select plan(4);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('130u') m, tests.create_published_template(m.org_a, '[
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 5}]') p;
alter table actors add column inspection uuid;
update actors set inspection = tests.create_inspection(org_a, site, template);
grant select on actors to authenticated;

-- Two photos checked in by the inspector while the inspection is in progress.
select tests.act_as((select inspector from actors));
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
select org_a, inspection, 'photo', org_a || '/' || inspection || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
from actors, generate_series(1, 2);
create temp table pending on commit drop as
  select row_number() over (order by object_path) as n, object_path from public.attachments;
select is((select count(*)::int from pending), 2, 'two pending photos are checked in');

select lives_ok($$insert into storage.objects (bucket_id, name) select 'evidence', object_path from pending where n = 1$$,
  'while the inspection is in progress the inspector uploads to a pending path');

select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set status = 'submitted' where id = (select inspection from actors);
set local session_replication_role = origin;
select tests.act_as((select inspector from actors));
select throws_ok($$insert into storage.objects (bucket_id, name) select 'evidence', object_path from pending where n = 2$$,
  '42501', null, 'once the inspection is submitted, its pending path takes no upload');

select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set status = 'canceled' where id = (select inspection from actors);
set local session_replication_role = origin;
select tests.act_as((select inspector from actors));
select throws_ok($$insert into storage.objects (bucket_id, name) select 'evidence', object_path from pending where n = 2$$,
  '42501', null, 'nor once it is canceled');

select * from finish();
rollback;
