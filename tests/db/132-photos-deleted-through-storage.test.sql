-- A photo's file deleted through Storage (supabase-js `storage.from('evidence').remove()`, which
-- Storage runs as the caller: its delete of the storage.objects row, under RLS) takes the photo's
-- row with it in the same transaction, audited as that person (issue 24, 20261128130300): no
-- confirmed photo is left without its file. Both kinds: inspection photos and photos of a fix.
-- The refusals stay as they were (viewers, finished inspections, resolved actions), and so does
-- every rule of the row's own delete (MFA, the inspection's state). The service role, which the
-- api uses for an API key after deleting the row itself, removes the file only.
begin;
select plan(23);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('132') m, tests.create_published_template(m.org_a, '[
    {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 5}]') p;
alter table actors add column inspection uuid, add column action uuid;
update actors set inspection = tests.create_inspection(org_a, site, template),
                  action = tests.create_action(org_a, site, 'open', inspector);
grant select on actors to authenticated;

-- Photos as the api makes them: checked in by the inspector, uploaded (the object with its size
-- and type, as Storage writes it), and confirmed where `confirmed`.
create temp table photos (n int, kind text, id uuid, path text, confirmed boolean) on commit drop;
grant all on photos to authenticated, service_role;
select tests.act_as((select inspector from actors));
with checked_in as (
  insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, inspection, 'photo', org_a || '/' || inspection || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
  from actors, generate_series(1, 4)
  returning id, object_path
)
insert into photos select row_number() over (order by object_path), 'inspection', id, object_path, true from checked_in;
with checked_in as (
  insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size)
  select org_a, action, org_a || '/actions/' || action || '/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
  from actors, generate_series(1, 2)
  returning id, object_path
)
insert into photos select 10 + row_number() over (order by object_path), 'action', id, object_path, true from checked_in;
update photos set confirmed = false where n = 4;
select tests.reset_role();
insert into storage.objects (bucket_id, name, metadata) select 'evidence', path, '{"size": 10, "mimetype": "image/jpeg"}' from photos;
select tests.act_as((select inspector from actors));
update public.attachments set confirmed_at = now() where id in (select id from photos where kind = 'inspection' and confirmed);
update public.action_attachments set confirmed_at = now() where id in (select id from photos where kind = 'action');
select tests.reset_role();

-- Storage's delete of one object, as the current caller (Storage allows its delete query first).
create function pg_temp.storage_deleted(photo int) returns int language sql as $$
  select set_config('storage.allow_delete_query', 'true', true);
  with gone as (delete from storage.objects where bucket_id = 'evidence' and name = (select path from photos where n = photo) returning 1)
  select count(*)::int from gone;
$$;
grant execute on function pg_temp.storage_deleted(int) to authenticated, service_role;
-- What is left of a photo, seen as the test's own role whoever acts (security definer).
create function pg_temp.row_left(photo int) returns boolean language sql security definer as $$
  select exists (select 1 from public.attachments a join photos p on p.id = a.id where p.n = photo)
      or exists (select 1 from public.action_attachments a join photos p on p.id = a.id where p.n = photo);
$$;
create function pg_temp.object_left(photo int) returns boolean language sql security definer as $$
  select exists (select 1 from storage.objects o join photos p on p.path = o.name where p.n = photo and o.bucket_id = 'evidence');
$$;
create function pg_temp.deletions_audited(photo int) returns text language sql security definer as $$
  select coalesce(string_agg(l.actor_kind || ' ' || coalesce(u.email, '?'), ', '), 'none')
  from public.audit_log l join photos p on p.id = l.entity_id left join auth.users u on u.id = l.actor_user_id
  where p.n = photo and l.action = 'delete';
$$;
create function pg_temp.announced_deleted(photo int) returns boolean language sql security definer as $$
  select exists (select 1 from realtime.messages m join photos p on p.n = photo
                 where m.topic = 'inspection:' || (select inspection from actors) and m.event = 'attachment_changed'
                   and m.payload ->> 'action' = 'deleted' and m.payload ->> 'id' = p.id::text);
$$;
grant execute on function pg_temp.row_left(int), pg_temp.object_left(int), pg_temp.deletions_audited(int),
  pg_temp.announced_deleted(int) to authenticated;

-- A confirmed inspection photo, in progress, by the inspector who fills it.
select tests.act_as((select inspector from actors));
select is(pg_temp.storage_deleted(1), 1, 'the inspector deletes a confirmed photo''s file through Storage');
select is(pg_temp.row_left(1), false, '... and its attachment row goes with it');
select is(pg_temp.deletions_audited(1), 'user inspector-132@example.test', '... audited once, as the inspector');
select ok(pg_temp.announced_deleted(1), '... and announced to the people filling the inspection');

-- A pending one (checked in and uploaded, not yet confirmed) is deletable as before, row included.
select is(pg_temp.storage_deleted(4), 1, 'a pending photo''s file is deletable too');
select is(pg_temp.row_left(4), false, '... and its row goes with it');
select is(pg_temp.deletions_audited(4), 'user inspector-132@example.test', '... audited');

-- Refused: nothing is deleted, the row stays, nothing is audited.
select tests.act_as((select viewer from actors));
select is(pg_temp.storage_deleted(2), 0, 'a viewer deletes no photo''s file');
select tests.act_as((select b_owner from actors));
select is(pg_temp.storage_deleted(2), 0, 'nor another organization''s owner');
select tests.reset_role();
select ok(pg_temp.row_left(2) and pg_temp.object_left(2) and pg_temp.deletions_audited(2) = 'none',
  'the photo is whole and nothing was audited');

-- The row's own rules hold in Storage's transaction: where MFA is required, an aal1 session is
-- refused, and the file stays with its row.
update public.organizations set require_mfa = true where id = (select org_a from actors);
select tests.act_as((select inspector from actors), 'aal1');
select throws_ok('select pg_temp.storage_deleted(2)', 'P0001', 'mfa_required',
  'where MFA is required, an aal1 session deletes no photo''s file');
select tests.reset_role();
select ok(pg_temp.row_left(2) and pg_temp.object_left(2), '... the photo is whole');
select tests.act_as((select inspector from actors), 'aal2');
select is(pg_temp.storage_deleted(2), 1, 'an aal2 session deletes it');
select is(pg_temp.row_left(2), false, '... with its row');
select tests.reset_role();
update public.organizations set require_mfa = false where id = (select org_a from actors);

-- The service role (the api for an API key, which deleted the row itself first) removes the file only.
select tests.set_request('service_role', '{"role": "service_role"}');
select is(pg_temp.storage_deleted(3), 1, 'the service role deletes a file');
select tests.reset_role();
select ok(pg_temp.row_left(3) and pg_temp.deletions_audited(3) = 'none', '... and leaves the row to the api');

-- A photo of a fix, while the action is open: the same.
select tests.act_as((select inspector from actors));
select is(pg_temp.storage_deleted(11), 1, 'the assigned inspector deletes a confirmed photo of a fix through Storage');
select is(pg_temp.row_left(11), false, '... and its row goes with it');
select is(pg_temp.deletions_audited(11), 'user inspector-132@example.test', '... audited as the inspector');
select tests.reset_role();
update public.actions set status = 'in_progress' where id = (select action from actors);
update public.actions set status = 'resolved', transition_note = 'Done.' where id = (select action from actors);
select tests.act_as((select inspector from actors));
select is(pg_temp.storage_deleted(12), 0, 'once the action is resolved, nobody deletes its photos'' files');
select tests.reset_role();
select ok(pg_temp.row_left(12) and pg_temp.object_left(12), '... the photo is whole');

-- Should a policy ever let someone delete a file whose row they may not delete, the delete fails
-- rather than leave the row behind.
create policy "tests: viewers delete evidence" on storage.objects for delete to authenticated using (bucket_id = 'evidence');
select tests.act_as((select viewer from actors));
select throws_ok('select pg_temp.storage_deleted(12)', '42501', 'The photo''s row cannot be removed with its file.',
  'a file whose row the caller may not remove is not deleted');
select tests.reset_role();
select ok(pg_temp.row_left(12) and pg_temp.object_left(12), '... the photo is whole');

select * from finish();
rollback;
