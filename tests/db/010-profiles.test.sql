-- Profiles: created by the trigger on auth.users, readable and renamable only by their owner,
-- never inserted or deleted through the API roles, and the name rules hold in the database.
begin;
select plan(29);

-- Two named actors; the temp table carries their ids across role switches.
create temp table actors on commit drop as
  select tests.create_user('ada-010@example.test') as ada,
         tests.create_user('bob-010@example.test') as bob;
grant select on actors to anon, authenticated;

select ok(
  (select relrowsecurity from pg_class where oid = 'public.profiles'::regclass),
  'row-level security is on for public.profiles'
);

-- The trigger.
select is(
  (select display_name from public.profiles where user_id = (select ada from actors)),
  'ada-010',
  'a new user gets a profile named after the local part of their email'
);

insert into auth.users (id, email, raw_user_meta_data)
values ('00000000-0000-4000-8000-000000010001', 'carol-010@example.test', '{"display_name": "  Carol Quinn  ", "name": "C"}'),
       ('00000000-0000-4000-8000-000000010002', 'dan-010@example.test', '{"name": "Dan Day"}'),
       ('00000000-0000-4000-8000-000000010003', 'erin-010@example.test', jsonb_build_object('display_name', repeat('e', 119) || ' tail'));

select is(
  (select display_name from public.profiles where user_id = '00000000-0000-4000-8000-000000010001'),
  'Carol Quinn',
  'display_name from sign-up metadata wins, trimmed'
);
select is(
  (select display_name from public.profiles where user_id = '00000000-0000-4000-8000-000000010002'),
  'Dan Day',
  'the metadata name is used when there is no display_name'
);
select is(
  (select display_name from public.profiles where user_id = '00000000-0000-4000-8000-000000010003'),
  repeat('e', 119),
  'a long metadata name is cut to 120 characters and trimmed at the cut'
);

select ok(
  not has_function_privilege('authenticated', 'private.create_profile_for_new_user()', 'execute')
    and not has_function_privilege('anon', 'private.create_profile_for_new_user()', 'execute'),
  'the security definer trigger function cannot be called by the API roles'
);

-- The check constraints, independent of the API's zod schema.
select throws_ok(
  $$update public.profiles set display_name = '' where user_id = (select ada from actors)$$,
  '23514', null, 'an empty display name is rejected by the database'
);
select throws_ok(
  $$update public.profiles set display_name = ' Ada' where user_id = (select ada from actors)$$,
  '23514', null, 'a display name with leading whitespace is rejected by the database'
);
select throws_ok(
  $$update public.profiles set display_name = repeat('x', 121) where user_id = (select ada from actors)$$,
  '23514', null, 'a display name over 120 characters is rejected by the database'
);
select lives_ok(
  $$update public.profiles set display_name = repeat('x', 120) where user_id = (select ada from actors)$$,
  'a display name of exactly 120 characters is accepted'
);

-- Age Ada's row without firing triggers, so the updated_at trigger has something to move.
set local session_replication_role = replica;
update public.profiles set display_name = 'Ada', updated_at = now() - interval '1 day' where user_id = (select ada from actors);
set local session_replication_role = origin;

-- As Ada.
select tests.act_as((select ada from actors));

select is(
  (select count(*)::int from public.profiles where user_id = (select ada from actors)),
  1,
  'a user reads their own profile'
);
select is(
  (select count(*)::int from public.profiles where user_id = (select bob from actors)),
  0,
  'a user cannot read another user''s profile'
);
select is(
  (select count(*)::int from public.profiles),
  1,
  'a user sees exactly one profile in total: their own'
);

with renamed as (
  update public.profiles set display_name = 'Ada Lovelace' where user_id = (select ada from actors) returning 1
)
select is(count(*)::int, 1, 'a user renames their own profile') from renamed;

select ok(
  (select updated_at > now() - interval '1 minute' from public.profiles where user_id = (select ada from actors)),
  'renaming moves updated_at'
);

with renamed as (
  update public.profiles set display_name = 'Hacked' where user_id = (select bob from actors) returning 1
)
select is(count(*)::int, 0, 'a user cannot rename another user''s profile (0 rows)') from renamed;

select throws_ok(
  $$update public.profiles set user_id = (select bob from actors) where user_id = (select ada from actors)$$,
  '42501', null, 'a user cannot change the user_id column'
);
select throws_ok(
  $$update public.profiles set created_at = now() - interval '1 year' where user_id = (select ada from actors)$$,
  '42501', null, 'a user cannot change the created_at column'
);
select throws_ok(
  $$insert into public.profiles (user_id, display_name) values ((select ada from actors), 'Second')$$,
  '42501', null, 'a user cannot insert a profile'
);
select throws_ok(
  $$delete from public.profiles where user_id = (select ada from actors)$$,
  '42501', null, 'a user cannot delete their profile'
);
select throws_ok(
  $$update public.profiles set display_name = '' where user_id = (select ada from actors)$$,
  '23514', null, 'a user cannot store an empty display name'
);

-- As an anonymous visitor.
select tests.act_as_anon();

select throws_ok(
  $$select count(*) from public.profiles$$,
  '42501', null, 'anon cannot read profiles'
);
select throws_ok(
  $$update public.profiles set display_name = 'Anon' where user_id = (select bob from actors)$$,
  '42501', null, 'anon cannot rename profiles'
);
select throws_ok(
  $$insert into public.profiles (user_id, display_name) values ((select bob from actors), 'Anon')$$,
  '42501', null, 'anon cannot insert profiles'
);

-- Back as the owner of the database: what actually happened to the rows.
select tests.reset_role();

select is(
  (select display_name from public.profiles where user_id = (select ada from actors)),
  'Ada Lovelace',
  'Ada''s own rename was stored'
);
select is(
  (select display_name from public.profiles where user_id = (select bob from actors)),
  'bob-010',
  'Bob''s profile is untouched by Ada and by anon'
);
select is(
  (select count(*)::int from public.profiles where user_id in (select ada from actors union all select bob from actors)),
  2,
  'no profile was inserted or deleted by the API roles'
);

delete from auth.users where id = (select bob from actors);
select is(
  (select count(*)::int from public.profiles where user_id = (select bob from actors)),
  0,
  'deleting the auth user deletes their profile'
);

select policies_are(
  'public', 'profiles',
  array['Users can read their own profile and those of fellow members', 'Users can update their own profile'],
  'profiles has exactly the select and update policies'
);

select * from finish();
rollback;
