-- Accepting and previewing an invitation: private.accept_invitation(token) makes the signed-in
-- invitee a member (their email must match; accepting twice is fine; a member keeps their role),
-- and refuses unknown, expired, revoked or someone else's accepted invitations;
-- private.preview_invitation(token) shows what the accept page needs to anyone holding the token.
begin;
select plan(29);

create temp table actors on commit drop as select * from tests.create_org_matrix('045');
alter table actors add column invitee uuid, add column stranger uuid, add column late uuid, add column dropped uuid,
                   add column first_holder uuid, add column member_invitee uuid;
update actors set invitee = tests.create_user('invitee-045@example.test'),
                  stranger = tests.create_user('stranger-045@example.test'),
                  late = tests.create_user('late-045@example.test'),
                  dropped = tests.create_user('dropped-045@example.test'),
                  first_holder = tests.create_user('holder-045@example.test'),
                  member_invitee = tests.create_user('member-invitee-045@example.test');
select tests.create_invitation(org_a, 'invitee-045@example.test', 'inspector', 'token-invitee-045', owner) from actors;
select tests.create_invitation(org_a, 'late-045@example.test', 'viewer', 'token-late-045', owner, now() - interval '1 second') from actors;
select tests.create_invitation(org_a, 'dropped-045@example.test', 'viewer', 'token-dropped-045', owner) from actors;
update public.invitations set revoked_at = now() where email = 'dropped-045@example.test';
select tests.create_invitation(org_a, 'holder-045@example.test', 'viewer', 'token-holder-045', owner) from actors;
-- Invited while not yet a member, then made admin by another route before accepting.
select tests.create_invitation(org_a, 'member-invitee-045@example.test', 'viewer', 'token-member-045', owner) from actors;
select tests.add_member(org_a, member_invitee, 'admin') from actors;
grant select on actors to anon, authenticated;

-- Anonymous callers have neither function.
select tests.act_as_anon();
select throws_ok($$select private.accept_invitation('token-invitee-045')$$, '42501', null, 'anon cannot accept an invitation');
select throws_ok($$select * from private.preview_invitation('token-invitee-045')$$, '42501', null, 'anon cannot preview an invitation');

-- Preview: the token is the credential.
select tests.act_as((select stranger from actors));
select results_eq(
  $$select org_name, role, email, invited_by_name, expires_at, status from private.preview_invitation('token-invitee-045')$$,
  $$values ('Organization org-a-045', 'inspector'::public.org_role, 'invitee-045@example.test', 'Owner 045', now() + interval '7 days', 'pending')$$,
  'any signed-in holder of the token previews the organization, role, address, inviter, expiry and status'
);
select is_empty($$select * from private.preview_invitation('no-such-token-045')$$, 'an unknown token previews nothing');
select results_eq($$select status from private.preview_invitation('token-late-045')$$, $$values ('expired')$$,
  'the preview of an expired invitation says expired');
select results_eq($$select status from private.preview_invitation('token-dropped-045')$$, $$values ('revoked')$$,
  'the preview of a revoked invitation says revoked');

-- Refusals.
select throws_ok($$select private.accept_invitation('no-such-token-045')$$, 'P0001', 'not_found',
  'an unknown token is not found');
select throws_ok($$select private.accept_invitation('token-invitee-045')$$, 'P0001', 'forbidden',
  'a user whose email is not the invited address cannot accept');
select tests.act_as((select outsider from actors));
select throws_ok($$select private.accept_invitation('token-invitee-045')$$, 'P0001', 'forbidden',
  'a member of nothing cannot accept someone else''s invitation either');
select tests.act_as((select late from actors));
select throws_ok($$select private.accept_invitation('token-late-045')$$, 'P0001', 'invalid_transition',
  'an expired invitation cannot be accepted');
select tests.act_as((select dropped from actors));
select throws_ok($$select private.accept_invitation('token-dropped-045')$$, 'P0001', 'invalid_transition',
  'a revoked invitation cannot be accepted');

select tests.reset_role();
select is((select count(*)::int from public.memberships where user_id in (select stranger from actors union all select outsider from actors
                                                                         union all select late from actors union all select dropped from actors)), 0,
  'the refused acceptances made nobody a member');
select is((select count(*)::int from public.invitations where email in ('invitee-045@example.test', 'late-045@example.test') and accepted_at is not null), 0,
  'the refused acceptances accepted nothing');

-- Accepting.
select tests.act_as((select invitee from actors));
select is((select count(*)::int from public.organizations), 0, 'before accepting, the invitee sees no organization');
select is(private.accept_invitation('token-invitee-045'), (select org_a from actors), 'the invitee accepts and gets the organization''s id');
select results_eq($$select id from public.organizations$$, $$select org_a from actors$$, 'after accepting, the invitee reads the organization');
select is((select role from public.memberships where user_id = auth.uid()), 'inspector'::public.org_role,
  'the invitee is a member with the invited role');
select is(private.accept_invitation('token-invitee-045'), (select org_a from actors), 'accepting again returns the organization''s id');
select is((select count(*)::int from public.memberships where user_id = auth.uid()), 1, 'accepting twice makes one membership');
select results_eq($$select status from private.preview_invitation('token-invitee-045')$$, $$values ('accepted')$$,
  'the preview of an accepted invitation says accepted');

select tests.reset_role();
select results_eq(
  $$select accepted_by, accepted_at, revoked_at from public.invitations where email = 'invitee-045@example.test'$$,
  $$select invitee, now(), null::timestamptz from actors$$,
  'the invitation records who accepted it and when'
);
select results_eq(
  $$select entity, action, actor_kind, actor_user_id from public.audit_log
    where org_id = (select org_a from actors) and actor_user_id = (select invitee from actors) order by entity$$,
  $$select * from (values ('invitations', 'update', 'user', (select invitee from actors)),
                          ('memberships', 'insert', 'user', (select invitee from actors))) v$$,
  'accepting writes the membership and the invitation to the audit log, credited to the invitee'
);

-- A member keeps the role they have.
select tests.act_as((select member_invitee from actors));
select is(private.accept_invitation('token-member-045'), (select org_a from actors), 'a member accepts an invitation to their organization');
select is((select role from public.memberships where user_id = auth.uid()), 'admin'::public.org_role,
  'and keeps their role rather than taking the invited one');
select tests.reset_role();
select ok((select accepted_at is not null from public.invitations where email = 'member-invitee-045@example.test'),
  'that invitation is marked accepted');

-- Accepted by someone else: the first holder accepts, then gives up the address to a new account.
select tests.act_as((select first_holder from actors));
select is(private.accept_invitation('token-holder-045'), (select org_a from actors), 'the first holder of the address accepts');
select tests.reset_role();
update auth.users set email = 'moved-045@example.test' where id = (select first_holder from actors);
alter table actors add column second_holder uuid;
update actors set second_holder = tests.create_user('holder-045@example.test');
select tests.act_as((select second_holder from actors));
select throws_ok($$select private.accept_invitation('token-holder-045')$$, 'P0001', 'invalid_transition',
  'an invitation accepted by another account cannot be accepted again');
select tests.reset_role();
select is((select count(*)::int from public.memberships where user_id = (select second_holder from actors)), 0,
  'the second holder of the address did not become a member');

select ok(
  not has_function_privilege('anon', 'private.accept_invitation(text)', 'execute')
    and not has_function_privilege('anon', 'private.preview_invitation(text)', 'execute'),
  'anon has no execute privilege on either function'
);

select * from finish();
rollback;
