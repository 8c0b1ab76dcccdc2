-- Idempotency keys: private to their sender. Every signed-in actor of the matrix stores the same
-- key text; each then reads, updates and deletes only their own row, whatever their role in any
-- organization, and anon can do nothing.
begin;
select plan(47);

create temp table actors on commit drop as select * from tests.create_org_matrix('070');
grant select on actors to anon, authenticated;

-- Insert: everyone stores their own key; the same key text is a different row per sender.
select tests.act_as_anon();
select throws_ok($$insert into public.idempotency_keys (principal_id, key, request_hash) select owner, 'key-070', 'hash' from actors$$,
  '42501', null, 'anon cannot store a key');
select tests.act_as((select outsider from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-outsider')$$, 'a non-member stores a key');
select tests.act_as((select b_owner from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-b-owner')$$, 'the owner of B stores a key');
select tests.act_as((select viewer from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-viewer')$$, 'a viewer stores a key');
select tests.act_as((select inspector from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-inspector')$$, 'an inspector stores a key');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-manager')$$, 'a manager stores a key');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-admin')$$, 'an admin stores a key');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-owner')$$, 'the owner stores a key');
select throws_ok($$insert into public.idempotency_keys (key, request_hash) values ('key-070', 'hash-again')$$,
  '23505', null, 'a sender cannot store the same key twice');
select throws_ok($$insert into public.idempotency_keys (principal_id, key, request_hash) select viewer, 'planted-070', 'hash' from actors$$,
  '42501', null, 'nobody stores a key in another sender''s name');
select throws_ok($$insert into public.idempotency_keys (key, request_hash, response_status) values ('prefilled-070', 'hash', 201)$$,
  '42501', null, 'a response cannot be stored with the key, only recorded after');
select throws_ok($$insert into public.idempotency_keys (key, request_hash, expires_at) values ('forever-070', 'hash', 'infinity')$$,
  '42501', null, 'the expiry is not the sender''s to choose');
select throws_ok($$insert into public.idempotency_keys (key, request_hash) values ('', 'hash')$$,
  '23514', null, 'an empty key is refused');
select throws_ok($$insert into public.idempotency_keys (key, request_hash) values (repeat('k', 256), 'hash')$$,
  '23514', null, 'a key over 255 characters is refused');
select lives_ok($$insert into public.idempotency_keys (key, request_hash) values (repeat('k', 255), 'hash')$$,
  'a key of exactly 255 characters is accepted');
delete from public.idempotency_keys where key = repeat('k', 255);

select tests.reset_role();
select results_eq(
  $$select principal_id, request_hash, expires_at from public.idempotency_keys where key = 'key-070' order by request_hash$$,
  $$select * from (values ((select admin from actors), 'hash-admin'), ((select b_owner from actors), 'hash-b-owner'),
                          ((select inspector from actors), 'hash-inspector'), ((select manager from actors), 'hash-manager'),
                          ((select outsider from actors), 'hash-outsider'), ((select owner from actors), 'hash-owner'),
                          ((select viewer from actors), 'hash-viewer')) v(principal_id, request_hash)
    cross join (select now() + interval '24 hours') e(expires_at) order by request_hash$$,
  'each sender''s key is stored under their own id, kept 24 hours, and the refused ones not at all'
);

-- Select: each sender reads exactly their own row.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.idempotency_keys$$, '42501', null, 'anon cannot read keys');
select tests.act_as((select outsider from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-outsider')$$, 'a non-member reads only their own key');
select tests.act_as((select b_owner from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-b-owner')$$, 'the owner of B reads only their own key');
select tests.act_as((select viewer from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-viewer')$$, 'a viewer reads only their own key');
select tests.act_as((select inspector from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-inspector')$$, 'an inspector reads only their own key');
select tests.act_as((select manager from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-manager')$$, 'a manager reads only their own key');
select tests.act_as((select admin from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-admin')$$, 'an admin reads only their own key');
select tests.act_as((select owner from actors));
select results_eq($$select request_hash from public.idempotency_keys$$, $$values ('hash-owner')$$, 'the owner reads only their own key');

-- Update: an unfiltered update records the response on the sender's own row only.
select tests.act_as_anon();
select throws_ok($$update public.idempotency_keys set response_status = 500$$, '42501', null, 'anon cannot record a response');
select tests.act_as((select outsider from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'a non-member''s unfiltered update changes only their own key') from changed;
select tests.act_as((select b_owner from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'the owner of B''s unfiltered update changes only their own key') from changed;
select tests.act_as((select viewer from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'a viewer''s unfiltered update changes only their own key') from changed;
select tests.act_as((select inspector from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'an inspector''s unfiltered update changes only their own key') from changed;
select tests.act_as((select manager from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'a manager''s unfiltered update changes only their own key') from changed;
select tests.act_as((select admin from actors));
with changed as (update public.idempotency_keys set response_status = 201 returning 1)
select is(count(*)::int, 1, 'an admin''s unfiltered update changes only their own key') from changed;
select tests.act_as((select owner from actors));
with changed as (update public.idempotency_keys set response_status = 201, response_body = '{"id": 1}' returning 1)
select is(count(*)::int, 1, 'the owner''s unfiltered update changes only their own key') from changed;
select throws_ok($$update public.idempotency_keys set request_hash = 'other'$$, '42501', null, 'the request hash cannot be changed');
select throws_ok($$update public.idempotency_keys set principal_id = (select viewer from actors)$$, '42501', null,
  'a key cannot be handed to another sender');
select throws_ok($$update public.idempotency_keys set expires_at = 'infinity'$$, '42501', null, 'the expiry cannot be extended');

select tests.reset_role();
select results_eq(
  $$select count(*)::int, min(response_status), max(response_status) from public.idempotency_keys where key = 'key-070'$$,
  $$values (7, 201, 201)$$,
  'every sender recorded a response on their own key, and no row was changed twice or missed'
);
select is((select response_body from public.idempotency_keys where principal_id = (select owner from actors)), '{"id": 1}'::jsonb,
  'the owner''s stored response body is theirs alone');

-- Delete: an unfiltered delete purges the sender's own row only.
select tests.act_as_anon();
select throws_ok($$delete from public.idempotency_keys$$, '42501', null, 'anon cannot purge keys');
select tests.act_as((select outsider from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'a non-member''s unfiltered delete purges only their own key') from gone;
select tests.act_as((select b_owner from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'the owner of B''s unfiltered delete purges only their own key') from gone;
select tests.act_as((select viewer from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'a viewer''s unfiltered delete purges only their own key') from gone;
select tests.act_as((select inspector from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'an inspector''s unfiltered delete purges only their own key') from gone;
select tests.act_as((select manager from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'a manager''s unfiltered delete purges only their own key') from gone;
select tests.act_as((select admin from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'an admin''s unfiltered delete purges only their own key') from gone;

select tests.reset_role();
select results_eq($$select principal_id from public.idempotency_keys where key = 'key-070'$$, $$select owner from actors$$,
  'after six senders purged, only the owner''s key is left');

select tests.act_as((select owner from actors));
with gone as (delete from public.idempotency_keys returning 1)
select is(count(*)::int, 1, 'the owner''s unfiltered delete purges their own key') from gone;

select policies_are(
  'public', 'idempotency_keys',
  array['Senders can read their own idempotency keys', 'Senders can store their own idempotency keys',
        'Senders can record the response of their own idempotency keys', 'Senders can purge their own idempotency keys'],
  'idempotency_keys has exactly the four policies, all on the sender'
);

select * from finish();
rollback;
