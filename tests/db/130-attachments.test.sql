-- Attachments: who may add, confirm and remove photos (fillers; inspectors only on inspections
-- assigned to them or to nobody), when (in progress only), where (photo items of the pinned
-- version, the path of the row), how many (max_photos, counting confirmed and recent pending
-- ones), what confirming needs (the object in Storage as declared), the storage insert policy
-- that lets Storage sign an upload URL only for a pending photo of the caller, audit, broadcast,
-- MFA, and deleting an organization taking its photos along.
begin;
select plan(52);

-- In each organization a template with a roomy photo item, a photo item that takes two, and an
-- item that is no photo.
create temp table items on commit drop as select '[
  {"key": "photo", "kind": "photo", "label": "Photos", "help": null, "required": false, "weight": 0, "max_photos": 10},
  {"key": "pair", "kind": "photo", "label": "Two photos", "help": null, "required": false, "weight": 0, "max_photos": 2},
  {"key": "check", "kind": "pass_fail", "label": "Check", "help": null, "required": false, "weight": 1}
]'::jsonb as value;
create temp table actors on commit drop as
  select m.*, a.site as site_a, a.template as template_a, b.site as site_b, b.template as template_b
  from tests.create_org_matrix('130') m,
       tests.create_published_template(m.org_a, (select value from items)) a,
       tests.create_published_template(m.org_b, (select value from items)) b;
alter table actors
  add column inspector2 uuid, add column insp_open uuid, add column insp_other uuid, add column insp_sched uuid,
  add column insp_b uuid;
update actors set inspector2 = tests.create_user('inspector2-130@example.test', 'Inspector two 130');
select tests.add_member(org_a, inspector2, 'inspector') from actors;

-- Straight to in progress but one: the transitions have their own tests.
update actors set insp_open = tests.create_inspection(org_a, site_a, template_a),
                  insp_other = tests.create_inspection(org_a, site_a, template_a, assignee => inspector2),
                  insp_sched = tests.create_inspection(org_a, site_a, template_a, 'scheduled'),
                  insp_b = tests.create_inspection(org_b, site_b, template_b);
grant select on actors to anon, authenticated;

-- The path of a new photo of an inspection's item.
create temp view new_path as
  select a.*, i.id as inspection_id, i.org_id as inspection_org,
         i.org_id || '/' || i.id || '/photo/' || gen_random_uuid() || '.jpg' as photo_path,
         i.org_id || '/' || i.id || '/pair/' || gen_random_uuid() || '.jpg' as pair_path
  from actors a cross join public.inspections i;
grant select on new_path to anon, authenticated;

-- Insert: fillers only.
select tests.act_as_anon();
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  '42501', null, 'anon cannot add a photo');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  '42501', null, 'a non-member cannot add a photo');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  '42501', null, 'the owner of B cannot add a photo to A');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_b, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  '42501', null, 'the owner of B cannot file A''s inspection under B, and learns nothing about it');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  '42501', null, 'a viewer cannot add a photo');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'an inspector adds a photo to an unassigned inspection');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_other, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_other$$,
  '42501', null, 'an inspector cannot add a photo to an inspection assigned to someone else');
select tests.act_as((select inspector2 from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_other, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_other$$,
  'the assignee adds a photo to their inspection');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_other, 'photo', replace(photo_path, '.jpg', '.png'), 'image/png', 100 from new_path where inspection_id = insp_other$$,
  'a manager adds a PNG to an inspection assigned to someone else');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', replace(photo_path, '.jpg', '.webp'), 'image/webp', 100 from new_path where inspection_id = insp_open$$,
  'an admin adds a WebP');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', replace(photo_path, '.jpg', '.heic'), 'image/heic', 100 from new_path where inspection_id = insp_open$$,
  'the owner adds a HEIC');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, uploaded_by)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100, inspector from new_path where inspection_id = insp_open$$,
  '42501', null, 'uploaded_by is always the caller');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size, confirmed_at)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100, now() from new_path where inspection_id = insp_open$$,
  '42501', null, 'a photo cannot start confirmed');
select is((select count(*)::int from public.attachments where uploaded_by = (select owner from actors)), 1,
  'the owner''s photo is credited to the owner');

-- State, item, path and type.
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_sched, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_sched$$,
  'P0001', 'invalid_transition', 'no photo on a scheduled inspection');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'check', replace(photo_path, '/photo/', '/check/'), 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'validation_failed', 'no photo on an item that is not a photo item');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'nothing', replace(photo_path, '/photo/', '/nothing/'), 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'validation_failed', 'no photo on an item the pinned version lacks');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', replace(photo_path, '.jpg', '.png'), 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'validation_failed', 'the extension must be the type''s');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_other$$,
  'P0001', 'validation_failed', 'the path must be the row''s inspection');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', replace(photo_path, '.jpg', '/../x.jpg'), 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'validation_failed', 'the file name must be a plain uuid');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', replace(photo_path, '.jpg', '.gif'), 'image/gif', 100 from new_path where inspection_id = insp_open$$,
  '23514', null, 'only photo types');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 10485761 from new_path where inspection_id = insp_open$$,
  '23514', null, 'at most 10 MB');

-- The per-item limit: confirmed plus pending younger than two hours.
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'pair', pair_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$, 'the first of two');
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'pair', pair_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$, 'the second of two');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'pair', pair_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'limit_exceeded', 'not a third');
select tests.reset_role();
update public.attachments set created_at = now() - interval '3 hours'
where id = (select id from public.attachments where item_key = 'pair' order by created_at limit 1);
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'pair', pair_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'a pending photo older than two hours frees its place');

-- Select: members of the organization.
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.attachments), 0, 'the owner of B sees none of A''s photos');
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.attachments), 8, 'a viewer sees all of A''s photos');

-- The storage insert policy: only the caller's own pending path in bucket evidence.
create temp table pending on commit drop as
  select a.id, a.object_path from public.attachments a
  where a.uploaded_by = (select inspector from actors) and a.item_key = 'photo';
grant select on pending to authenticated;
select tests.act_as((select manager from actors));
select throws_ok($$insert into storage.objects (bucket_id, name, owner_id) select 'evidence', object_path, 'x' from pending$$,
  '42501', null, 'a manager cannot upload to the inspector''s pending path');
select throws_ok($$insert into storage.objects (bucket_id, name) select 'evidence', photo_path from new_path where inspection_id = insp_open$$,
  '42501', null, 'a manager cannot upload to a path nobody checked in');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into storage.objects (bucket_id, name) select 'exports', object_path from pending$$,
  '42501', null, 'the pending path opens bucket evidence only');
select lives_ok($$insert into storage.objects (bucket_id, name, metadata)
  select 'evidence', object_path, '{"size": 100, "mimetype": "image/jpeg"}' from pending$$,
  'the inspector uploads to their own pending path');

-- Confirm: as declared in Storage, once, by fillers, while in progress.
select tests.act_as((select viewer from actors));
with changed as (update public.attachments set confirmed_at = now() where id = (select id from pending) returning 1)
select is(count(*)::int, 0, 'a viewer cannot confirm a photo') from changed;
select tests.act_as((select inspector from actors));
select throws_ok($$update public.attachments set item_key = 'pair' where id = (select id from pending)$$,
  '42501', null, 'confirming is the only change');
with changed as (update public.attachments set confirmed_at = now() where uploaded_by = (select inspector2 from actors) returning 1)
select is(count(*)::int, 0, 'the inspector cannot confirm a photo on an inspection assigned to someone else') from changed;
select lives_ok($$update public.attachments set confirmed_at = '2000-01-01' where id = (select id from pending)$$,
  'the inspector confirms the uploaded photo');
select ok((select confirmed_at > now() - interval '1 minute' from public.attachments where id = (select id from pending)),
  'confirmed_at is the time of confirming, whatever was sent');
select throws_ok($$update public.attachments set confirmed_at = now() where id = (select id from pending)$$,
  'P0001', 'invalid_transition', 'a photo is confirmed once');
select tests.act_as((select manager from actors));
select throws_ok($$update public.attachments set confirmed_at = now()
  where id = (select id from public.attachments where item_key = 'photo' and content_type = 'image/webp')$$,
  'P0001', 'validation_failed', 'nothing uploaded, nothing to confirm');

-- Delete: fillers, while in progress.
select tests.act_as((select viewer from actors));
with gone as (delete from public.attachments returning 1)
select is(count(*)::int, 0, 'a viewer cannot remove photos') from gone;
select tests.act_as((select outsider from actors));
with gone as (delete from public.attachments returning 1)
select is(count(*)::int, 0, 'a non-member cannot remove photos') from gone;
select tests.act_as((select inspector from actors));
with gone as (delete from public.attachments where inspection_id = (select insp_other from actors) returning 1)
select is(count(*)::int, 0, 'an inspector cannot remove photos of an inspection assigned to someone else') from gone;
with gone as (delete from public.attachments where content_type = 'image/heic' returning 1)
select is(count(*)::int, 1, 'an inspector removes a photo of an unassigned inspection') from gone;

-- Once submitted, photos are frozen.
select tests.reset_role();
set local session_replication_role = replica;
update public.inspections set status = 'submitted' where id = (select insp_open from actors);
set local session_replication_role = origin;
select tests.act_as((select manager from actors));
select throws_ok($$delete from public.attachments where inspection_id = (select insp_open from actors)$$,
  'P0001', 'invalid_transition', 'no photo is removed from a submitted inspection');
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, insp_open, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_open$$,
  'P0001', 'invalid_transition', 'no photo is added to a submitted inspection');

-- MFA: an organization that requires it takes photos from aal2 sessions only.
select tests.reset_role();
update public.organizations set require_mfa = true where id = (select org_b from actors);
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_b, insp_b, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_b$$,
  'P0001', 'mfa_required', 'aal1 cannot add a photo where MFA is required');
select tests.act_as((select b_owner from actors), 'aal2');
select lives_ok($$insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_b, insp_b, 'photo', photo_path, 'image/jpeg', 100 from new_path where inspection_id = insp_b$$,
  'aal2 adds a photo where MFA is required');

-- Audit and broadcast.
select tests.reset_role();
select ok((select count(*) >= 10 from public.audit_log where entity = 'attachments' and org_id = (select org_a from actors)),
  'every change of a photo is in the audit log');
select is((select array_agg(distinct payload ->> 'action' order by payload ->> 'action') from realtime.messages
           where topic = 'inspection:' || (select insp_open from actors) and event = 'attachment_changed'),
  array['confirmed', 'created', 'deleted'], 'photo changes are broadcast on the inspection''s topic');
select ok((select bool_and(private) from realtime.messages where event = 'attachment_changed'), 'on private channels only');

-- Deleting an organization takes its photos along, whatever state its inspections are in.
set local session_replication_role = replica;
update public.inspections set status = 'submitted' where id = (select insp_b from actors);
set local session_replication_role = origin;
select lives_ok($$delete from public.organizations where id = (select org_b from actors)$$, 'an organization with photos can be deleted');
select is((select count(*)::int from public.attachments where org_id = (select org_b from actors)), 0, 'and its photos are gone');

select * from finish();
rollback;
