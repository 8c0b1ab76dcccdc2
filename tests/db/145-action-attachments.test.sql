-- Photos on actions (evidence of the fix): who checks one in (whoever works the action: its
-- assigned inspector, managers and above; not another inspector, a viewer or a stranger), only
-- while the action is open or in progress, at most 10, only at `<org>/actions/<action>/<uuid>.<ext>`;
-- confirming needs the object in Storage as declared; and the storage policies admit the upload of
-- a pending path and the delete of a workable action's photo to the same people only.
begin;
select plan(23);

create temp table actors on commit drop as
  select m.*, p.*, tests.create_user('inspector2-145@example.test', 'Second inspector') as inspector2
  from tests.create_org_matrix('145') m, tests.create_published_template(m.org_a,
    '[{"key":"note","kind":"text","label":"Note","help":null,"required":false,"weight":0}]') p;
select tests.add_member((select org_a from actors), (select inspector2 from actors), 'inspector');
alter table actors add column action uuid, add column resolved uuid;
update actors set action = tests.create_action(org_a, site, 'open', inspector),
                  resolved = tests.create_action(org_a, site, 'resolved', inspector);
grant select on actors to authenticated;

-- A photo row for `action` at a fresh path of its folder (or `path`), as the current caller.
create function tests.photo_of(action uuid, path text default null)
returns text
language plpgsql
as $$
declare
  org uuid := (select a.org_id from public.actions a where a.id = action);
  chosen text := coalesce(path, org || '/actions/' || action || '/' || gen_random_uuid() || '.jpg');
begin
  insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size)
  values (org, action, chosen, 'image/jpeg', 10);
  return chosen;
end;
$$;
grant execute on function tests.photo_of(uuid, text) to authenticated;
-- postgres.js / the API read this table as the caller; the fixture's rows are read as the superuser.
create temp table paths (who text, path text) on commit drop;
grant all on paths to authenticated;

select tests.act_as((select inspector from actors));
select lives_ok($$insert into paths select 'inspector', tests.photo_of((select action from actors))$$,
  'the assigned inspector checks in a photo of an open action');
select tests.act_as((select manager from actors));
select lives_ok($$insert into paths select 'manager', tests.photo_of((select action from actors))$$, 'a manager does too');
select tests.act_as((select inspector2 from actors));
select throws_ok($$select tests.photo_of((select action from actors))$$, '42501', null, 'another inspector cannot');
select tests.act_as((select viewer from actors));
select throws_ok($$select tests.photo_of((select action from actors))$$, '42501', null, 'a viewer cannot');
select tests.act_as((select b_owner from actors));
select throws_ok($$select tests.photo_of((select action from actors))$$, '42501', null, 'the owner of B cannot');
select tests.act_as((select inspector from actors));
select is(tests.error_of($$select tests.photo_of((select resolved from actors))$$),
  'invalid_transition {"thing" : "action", "status" : "resolved", "verb" : "changed"}',
  'once resolved, an action takes no more photos');
select is(tests.error_of($$select tests.photo_of((select action from actors), (select org_a from actors) || '/elsewhere/x.jpg')$$),
  'validation_failed {"field" : "object_path", "message" : "Use the path <org>/actions/<action>/<uuid>.<ext> of this photo."}',
  'a path outside the action''s folder is refused');
select is(tests.error_of($$select tests.photo_of((select action from actors),
    (select org_a || '/actions/' || action || '/' || gen_random_uuid() || '.png' from actors))$$),
  'validation_failed {"field" : "object_path", "message" : "Use the path <org>/actions/<action>/<uuid>.<ext> of this photo."}',
  'a file name whose extension is not the type''s is refused');
select lives_ok($$select tests.photo_of((select action from actors)) from generate_series(1, 8)$$, 'eight more make ten');
select is(tests.error_of($$select tests.photo_of((select action from actors))$$),
  'limit_exceeded {"n" : 10, "things" : "photos"}', 'the eleventh is refused: ten per action');

-- Confirming needs the object in Storage as declared.
select throws_ok($$update public.action_attachments set confirmed_at = now() where object_path = (select path from paths where who = 'inspector')$$,
  'P0001', 'validation_failed', 'a photo not uploaded cannot be confirmed');
select lives_ok($$insert into storage.objects (bucket_id, name) select 'evidence', path from paths where who = 'inspector'$$,
  'the inspector uploads to their pending path');
select tests.act_as((select manager from actors));
select throws_ok($$insert into storage.objects (bucket_id, name) select 'evidence', path from paths where who = 'inspector'$$,
  '42501', null, 'nobody else uploads to someone''s pending path');
select tests.reset_role();
update storage.objects set metadata = '{"size": 10, "mimetype": "image/jpeg"}' where name = (select path from paths where who = 'inspector');
select tests.act_as((select inspector from actors));
select lives_ok($$update public.action_attachments set confirmed_at = now() where object_path = (select path from paths where who = 'inspector')$$,
  'with the object there as declared, the inspector confirms it');
select throws_ok($$update public.action_attachments set confirmed_at = now() where object_path = (select path from paths where who = 'inspector')$$,
  'P0001', 'invalid_transition', 'a photo is confirmed once');

-- Deleting files: as Storage's API deletes (it allows the delete query first, as hosted Storage does).
create function pg_temp.deleted(object_name text) returns int language sql as $$
  select set_config('storage.allow_delete_query', 'true', true);
  with gone as (delete from storage.objects where bucket_id = 'evidence' and name = object_name returning 1)
  select count(*)::int from gone;
$$;
grant execute on function pg_temp.deleted(text) to authenticated;
select tests.act_as((select viewer from actors));
select is(pg_temp.deleted((select path from paths where who = 'inspector')), 0, 'a viewer deletes no action photo');
select tests.act_as((select inspector2 from actors));
select is(pg_temp.deleted((select path from paths where who = 'inspector')), 0, 'nor does an inspector the action is not assigned to');
select tests.act_as((select inspector from actors));
select is(pg_temp.deleted((select path from paths where who = 'inspector')), 1, 'its assigned inspector deletes it while the action is open');
select is((select count(*)::int from public.action_attachments where object_path = (select path from paths where who = 'inspector')), 0,
  'and its row goes with it (20261128130300)');

-- Once resolved, the evidence stays as the verifier sees it.
select tests.reset_role();
insert into storage.objects (bucket_id, name) select 'evidence', path from paths where who = 'manager';
select tests.act_as((select inspector from actors));
update public.actions set status = 'in_progress' where id = (select action from actors) and status = 'open';
update public.actions set status = 'resolved', transition_note = 'Done.' where id = (select action from actors);
select tests.act_as((select manager from actors));
select is(pg_temp.deleted((select path from paths where who = 'manager')), 0, 'nobody deletes the file of a resolved action''s photo');
select throws_ok($$delete from public.action_attachments where object_path = (select path from paths where who = 'manager')$$,
  'P0001', 'invalid_transition', 'nor its row');

-- Members read the photos; others none.
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.action_attachments), 9, 'a viewer reads the action''s nine photos left');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.action_attachments), 0, 'the owner of B reads none');

select * from finish();
rollback;
