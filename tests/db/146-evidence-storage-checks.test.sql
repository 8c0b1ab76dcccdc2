-- The storage checks of both photo kinds go through one helper (20261128170100,
-- private.photo_object_changeable): what it admits is exactly what the four policies it replaced
-- admitted. The old policies' conditions are written out below as they were
-- (20261121001550, 20261121001560, 20261124100600) and compared with the helper for every member
-- of a matrix of actors, parents in each state and photos in each state, for uploads and deletes;
-- then the policies themselves are used, both kinds, both sides. (130-*, 132 and 145 keep
-- testing the rules one by one.)
begin;
select plan(14);

create temp table actors on commit drop as
  select m.*, p.*, tests.create_user('inspector2-146@example.test', 'Second inspector') as inspector2
  from tests.create_org_matrix('146') m, tests.create_published_template(m.org_a, '[
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 10}]') p;
select tests.add_member((select org_a from actors), (select inspector2 from actors), 'inspector');
grant select on actors to authenticated;

-- Parents in each state: inspections assigned to the inspector (in progress, submitted), one
-- unassigned in progress; actions assigned to the inspector (open, in progress, resolved).
create temp table parents (kind text, name text, id uuid) on commit drop;
insert into parents
select 'inspection', 'in progress', tests.create_inspection(org_a, site, template, 'in_progress', inspector) from actors
union all select 'inspection', 'unassigned', tests.create_inspection(org_a, site, template, 'in_progress') from actors
union all select 'inspection', 'submitted', tests.create_inspection(org_a, site, template, 'submitted', inspector) from actors
union all select 'action', 'open', tests.create_action(org_a, site, 'open', inspector) from actors
union all select 'action', 'in progress', tests.create_action(org_a, site, 'in_progress', inspector) from actors
union all select 'action', 'resolved', tests.create_action(org_a, site, 'resolved', inspector) from actors;

-- Photos of each parent in each state, written past the triggers: pending and checked in by the
-- inspector just now or three hours ago, confirmed, and pending by the manager; and a path no
-- photo names.
create temp table paths on commit drop as
  select p.kind, p.name as parent, s.state, p.id as parent_id, a.org_a as org,
         case when p.kind = 'inspection' then a.org_a || '/' || p.id || '/photo/' else a.org_a || '/actions/' || p.id || '/' end
           || gen_random_uuid() || '.jpg' as path,
         case s.uploader when 'inspector' then a.inspector else a.manager end as uploader,
         now() - s.age as created_at, case when s.confirmed then now() end as confirmed_at
  from actors a, parents p, (values
    ('the inspector''s, pending', 'inspector', interval '1 minute', false),
    ('the inspector''s, pending for three hours', 'inspector', interval '3 hours', false),
    ('the inspector''s, confirmed', 'inspector', interval '1 minute', true),
    ('the manager''s, pending', 'manager', interval '1 minute', false)) s (state, uploader, age, confirmed);
grant select on paths to authenticated;
set local session_replication_role = replica;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, uploaded_by, created_at, confirmed_at)
select org, parent_id, 'photo', path, 'image/jpeg', 10, uploader, created_at, confirmed_at from paths where kind = 'inspection';
insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size, uploaded_by, created_at, confirmed_at)
select org, parent_id, path, 'image/jpeg', 10, uploader, created_at, confirmed_at from paths where kind = 'action';
set local session_replication_role = origin;
insert into paths (kind, path) select 'none', org_a || '/' || gen_random_uuid() || '/photo/x.jpg' from actors;

-- The four policies as they were: their conditions, as the caller.
create function pg_temp.old_upload(object_name text) returns boolean language sql stable as $$
  select exists (
    select 1 from public.attachments a join public.inspections i on i.id = a.inspection_id
    where a.object_path = object_name and a.uploaded_by = (select auth.uid()) and a.confirmed_at is null
      and a.created_at > now() - interval '2 hours' and i.status = 'in_progress' and private.can_fill_inspection(a.inspection_id)
  ) or exists (
    select 1 from public.action_attachments a join public.actions x on x.id = a.action_id
    where a.object_path = object_name and a.uploaded_by = (select auth.uid()) and a.confirmed_at is null
      and a.created_at > now() - interval '2 hours' and x.status in ('open', 'in_progress') and private.can_work_action(a.action_id)
  );
$$;
create function pg_temp.old_delete(object_name text) returns boolean language sql stable as $$
  select exists (
    select 1 from public.attachments a join public.inspections i on i.id = a.inspection_id
    where a.object_path = object_name and i.status = 'in_progress' and private.can_fill_inspection(a.inspection_id)
  ) or exists (
    select 1 from public.action_attachments a join public.actions x on x.id = a.action_id
    where a.object_path = object_name and x.status in ('open', 'in_progress') and private.can_work_action(a.action_id)
  );
$$;
grant execute on function pg_temp.old_upload(text), pg_temp.old_delete(text) to authenticated;

create temp table verdicts (actor text, kind text, path text, op text, before boolean, now boolean) on commit drop;
grant insert on verdicts to authenticated;
do $$
declare
  actor record;
begin
  for actor in
    select v.name, v.id from actors a, lateral (values ('owner', a.owner), ('admin', a.admin), ('manager', a.manager),
      ('inspector', a.inspector), ('another inspector', a.inspector2), ('viewer', a.viewer), ('owner of B', a.b_owner),
      ('outsider', a.outsider)) v (name, id)
  loop
    perform tests.act_as(actor.id);
    insert into verdicts
    select actor.name, p.kind, p.path, 'upload', pg_temp.old_upload(p.path), private.photo_object_changeable(p.path, true) from paths p
    union all
    select actor.name, p.kind, p.path, 'delete', pg_temp.old_delete(p.path), private.photo_object_changeable(p.path, false) from paths p;
  end loop;
  perform tests.reset_role();
end;
$$;

select is((select count(*)::int from verdicts), 8 * 2 * (6 * 4 + 1), 'every actor, photo and operation is judged');
select is_empty($$select actor, kind, op, path, before, now from verdicts where before is distinct from now$$,
  'the helper admits exactly what the old policies admitted');
-- Both sides of each. Uploads: only to a pending photo of one's own, checked in within two hours,
-- of a parent one may change now: the inspector's and the manager's of the two inspections in
-- progress, and of the open and the in-progress action (four of each kind).
select is((select count(*)::int from verdicts where kind = 'inspection' and op = 'upload' and now), 4,
  'inspection photos: four uploads admitted, the rest refused');
select is((select count(*)::int from verdicts where kind = 'action' and op = 'upload' and now), 4,
  'action photos: four uploads admitted, the rest refused');
select ok((select count(*) filter (where now) > 0 and count(*) filter (where not now) > 0 from verdicts where kind = 'inspection' and op = 'delete'),
  'inspection photo deletes: admitted and refused');
select ok((select count(*) filter (where now) > 0 and count(*) filter (where not now) > 0 from verdicts where kind = 'action' and op = 'delete'),
  'action photo deletes: admitted and refused');
select is((select count(*)::int from verdicts where kind = 'action' and op = 'delete' and now and actor in ('viewer', 'another inspector', 'owner of B', 'outsider')), 0,
  'nobody who may not work the action deletes its photos');
select is((select count(*)::int from verdicts where kind = 'none' and now), 0, 'a path no photo names is never admitted');

-- The policies themselves, through Storage's table, for both kinds.
create function pg_temp.photo_path(kind text, parent text) returns text language sql stable as $$
  select p.path from paths p where p.kind = photo_path.kind and p.parent = photo_path.parent and p.state = 'the inspector''s, pending';
$$;
grant execute on function pg_temp.photo_path(text, text) to authenticated;
create function pg_temp.deleted(object_name text) returns int language sql as $$
  select set_config('storage.allow_delete_query', 'true', true);
  with gone as (delete from storage.objects where bucket_id = 'evidence' and name = object_name returning 1)
  select count(*)::int from gone;
$$;
grant execute on function pg_temp.deleted(text) to authenticated;

select tests.act_as((select viewer from actors));
select throws_ok($$insert into storage.objects (bucket_id, name) values ('evidence', pg_temp.photo_path('inspection', 'in progress'))$$,
  '42501', null, 'a viewer cannot upload an inspection photo');
select throws_ok($$insert into storage.objects (bucket_id, name) values ('evidence', pg_temp.photo_path('action', 'open'))$$,
  '42501', null, 'nor an action photo');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into storage.objects (bucket_id, name) values ('evidence', pg_temp.photo_path('inspection', 'in progress'))$$,
  'the inspector uploads the inspection photo they checked in');
select lives_ok($$insert into storage.objects (bucket_id, name) values ('evidence', pg_temp.photo_path('action', 'open'))$$,
  'and the action photo they checked in');
select tests.act_as((select viewer from actors));
select is(pg_temp.deleted(pg_temp.photo_path('inspection', 'in progress')) + pg_temp.deleted(pg_temp.photo_path('action', 'open')), 0,
  'a viewer deletes neither file');
select tests.act_as((select inspector from actors));
select is(pg_temp.deleted(pg_temp.photo_path('inspection', 'in progress')) + pg_temp.deleted(pg_temp.photo_path('action', 'open')), 2,
  'the inspector deletes both while their parents may change');

select * from finish();
rollback;
