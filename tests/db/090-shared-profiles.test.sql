-- Profiles shared within organizations: a user reads their own profile and those of everyone
-- they share an organization with, nobody else's; the email column mirrors auth.users in
-- lowercase and is not the user's to edit; leaving an organization ends the sharing.
begin;
select plan(14);

create temp table actors on commit drop as select * from tests.create_org_matrix('090');
grant select on actors to anon, authenticated;
-- The inspector of A is also a viewer of B: they bridge the two, which must not leak A to B.
select tests.add_member(org_b, inspector, 'viewer') from actors;

select is((select email from public.profiles where user_id = (select owner from actors)), 'owner-090@example.test',
  'a new profile carries the account''s email');
update auth.users set email = 'Owner-Renamed-090@Example.TEST' where id = (select owner from actors);
select is((select email from public.profiles where user_id = (select owner from actors)), 'owner-renamed-090@example.test',
  'changing the account''s email updates the profile, in lowercase');

select tests.act_as_anon();
select throws_ok($$select count(*) from public.profiles$$, '42501', null, 'anon cannot read profiles');

select tests.act_as((select outsider from actors));
select results_eq($$select user_id from public.profiles$$, $$select outsider from actors$$,
  'a user in no organization reads only their own profile');

select tests.act_as((select owner from actors));
select results_eq(
  $$select user_id from public.profiles order by user_id$$,
  $$select unnest(array[owner, admin, manager, inspector, viewer]) as u from actors order by u$$,
  'the owner of A reads the profiles of A''s five members, their own included, and no one else''s'
);
select results_eq(
  $$select display_name, email from public.profiles where user_id = (select viewer from actors)$$,
  $$values ('Viewer 090', 'viewer-090@example.test')$$,
  'a fellow member''s name and email are readable'
);
select tests.act_as((select viewer from actors));
select is((select count(*)::int from public.profiles), 5, 'a viewer of A reads the five profiles of A');
select throws_ok($$update public.profiles set email = 'spoofed-090@example.test' where user_id = auth.uid()$$,
  '42501', null, 'a user cannot edit the email on their profile');
with renamed as (update public.profiles set display_name = 'Hijacked' where user_id = (select owner from actors) returning 1)
select is(count(*)::int, 0, 'reading a fellow member''s profile does not allow renaming it (0 rows)') from renamed;

select tests.act_as((select inspector from actors));
select results_eq(
  $$select user_id from public.profiles order by user_id$$,
  $$select unnest(array[owner, admin, manager, inspector, viewer, b_owner]) as u from actors order by u$$,
  'a member of A and B reads the members of both'
);
select tests.act_as((select b_owner from actors));
select results_eq(
  $$select user_id from public.profiles order by user_id$$,
  $$select unnest(array[b_owner, inspector]) as u from actors order by u$$,
  'the owner of B reads B''s members only, not A''s through the shared member'
);

-- Leaving ends the sharing both ways.
select tests.act_as((select viewer from actors));
delete from public.memberships where user_id = auth.uid();
select results_eq($$select user_id from public.profiles$$, $$select viewer from actors$$,
  'after leaving, the former member reads only their own profile');
select tests.act_as((select owner from actors));
select is((select count(*)::int from public.profiles where user_id = (select viewer from actors)), 0,
  'after they leave, the owner no longer reads the former member''s profile');

select tests.reset_role();
select is((select display_name from public.profiles where user_id = (select owner from actors)), 'Owner 090',
  'the refused rename left the owner''s profile as it was');

select * from finish();
rollback;
