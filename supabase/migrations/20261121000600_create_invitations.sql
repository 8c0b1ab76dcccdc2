-- Invitations: how people join an organization. An owner or admin invites an email address with
-- a role; the invitee gets a link with a secret token (only its SHA-256 is stored), valid for
-- 7 days and accepted once, by the account with that email.
-- States (PRODUCT.md §4): pending → accepted | revoked | expired; expired is derived from time.

create table public.invitations (
  id uuid primary key default gen_random_uuid(),
  org_id uuid not null references public.organizations (id) on delete cascade,
  -- PRODUCT.md §5: stored lowercase; the api checks the full RFC syntax, this the essentials.
  email text not null
    constraint invitations_email_check check (
      email = lower(email) and char_length(email) <= 254 and email ~ '^[^@\s]+@[^@\s]+$'
    ),
  role public.org_role not null,
  -- Hex SHA-256 of the token: a leaked table does not leak working links.
  token_hash text not null
    constraint invitations_token_hash_check check (token_hash ~ '^[0-9a-f]{64}$'),
  expires_at timestamptz not null default now() + interval '7 days',
  accepted_at timestamptz,
  accepted_by uuid references auth.users (id) on delete set null,
  revoked_at timestamptz,
  invited_by uuid default auth.uid() references auth.users (id) on delete set null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint invitations_token_hash_key unique (token_hash),
  constraint invitations_accepted_or_revoked_check check (accepted_at is null or revoked_at is null)
);

comment on table public.invitations is 'Invitations to join an organization; the token itself is only ever in the email.';

-- One open invitation per address per organization; an expired one is retired by the trigger below.
create unique index invitations_org_id_email_key on public.invitations (org_id, email)
  where accepted_at is null and revoked_at is null;
-- Foreign keys (deleting a user).
create index invitations_accepted_by_idx on public.invitations (accepted_by);
create index invitations_invited_by_idx on public.invitations (invited_by);
-- The org_id policy column and the pending list are served by invitations_org_id_email_key and this.
create index invitations_org_id_created_at_idx on public.invitations (org_id, created_at desc, id desc);

create trigger invitations_set_updated_at
  before update on public.invitations
  for each row execute function private.set_updated_at();

create trigger invitations_write_audit_log
  after insert or update or delete on public.invitations
  for each row execute function private.write_audit_log('token_hash');

create trigger invitations_enforce_mfa
  before insert or update or delete on public.invitations
  for each row execute function private.enforce_organization_mfa();

-- The one definition of how a token is stored: hex SHA-256 of its UTF-8 bytes. The api hashes
-- new tokens with it too, so issuing and accepting can never disagree.
create or replace function private.hash_invitation_token(token text)
returns text
language sql
immutable
set search_path = ''
as $$
  select encode(sha256(convert_to(token, 'UTF8')), 'hex');
$$;

revoke all on function private.hash_invitation_token(text) from public, anon;
grant execute on function private.hash_invitation_token(text) to authenticated, service_role;

-- Revokes the expired open invitation of an address so a new one can take its place. security
-- definer because an admin may invite an address whose expired invitation was for an owner,
-- which the admin may not update; it only acts in organizations the caller manages.
create or replace function private.retire_expired_invitation(org uuid, address text)
returns void
language sql
security definer
set search_path = ''
as $$
  update public.invitations
  set revoked_at = now()
  where org_id = org and email = address
    and accepted_at is null and revoked_at is null and expires_at <= now()
    and org in (select private.org_ids_of_current_user('{owner,admin}'));
$$;

-- The invoker trigger below calls it as the caller; it acts only where the caller manages members.
revoke all on function private.retire_expired_invitation(uuid, text) from public, anon;
grant execute on function private.retire_expired_invitation(uuid, text) to authenticated;

-- Before a new invitation: an address that already belongs to a member is a duplicate, and an
-- expired open invitation for the same address is retired. Runs as the inviting owner or admin
-- (not security definer: a non-member must not learn who is a member from the error).
create or replace function private.prepare_invitation()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if exists (
    select 1
    from public.memberships m
    join public.profiles p on p.user_id = m.user_id
    where m.org_id = new.org_id and p.email = new.email
  ) then
    raise exception 'duplicate' using detail = '{"thing":"member","field":"email"}';
  end if;
  perform private.retire_expired_invitation(new.org_id, new.email);
  return new;
end;
$$;

revoke all on function private.prepare_invitation() from public, anon, authenticated;

create trigger invitations_prepare
  before insert on public.invitations
  for each row execute function private.prepare_invitation();

-- The one change a user may make to an invitation is revoking a pending one; accepting happens
-- in accept_invitation below. Anything else is refused, whoever asks.
create or replace function private.guard_invitation_change()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  status text := case
    when old.accepted_at is not null then 'accepted'
    when old.revoked_at is not null then 'revoked'
    when old.expires_at <= now() then 'expired'
    else 'pending'
  end;
begin
  if new.revoked_at is not null and old.revoked_at is null then
    if status <> 'pending' and not (status = 'expired' and new.accepted_at is null) then
      raise exception 'invalid_transition'
        using detail = json_build_object('thing', 'invitation', 'status', status, 'verb', 'revoked')::text;
    end if;
  elsif new.accepted_at is not null and old.accepted_at is null then
    if status <> 'pending' then
      raise exception 'invalid_transition'
        using detail = json_build_object('thing', 'invitation', 'status', status, 'verb', 'accepted')::text;
    end if;
  elsif new.revoked_at is distinct from old.revoked_at or new.accepted_at is distinct from old.accepted_at then
    raise exception 'invalid_transition'
      using detail = json_build_object('thing', 'invitation', 'status', status, 'verb', 'changed')::text;
  end if;
  return new;
end;
$$;

revoke all on function private.guard_invitation_change() from public, anon, authenticated;

create trigger invitations_guard_change
  before update on public.invitations
  for each row execute function private.guard_invitation_change();

-- Accepts an invitation for the signed-in caller and returns the organization's id.
-- security definer because the invitee is not a member yet: they can neither read the
-- invitation nor insert their membership. It checks everything a policy would.
create or replace function private.accept_invitation(token text)
returns uuid
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  caller_email text;
  invitation public.invitations;
begin
  if caller is null then
    raise exception 'unauthenticated';
  end if;
  select * into invitation
  from public.invitations
  where token_hash = private.hash_invitation_token(token)
  for update;
  if not found then
    raise exception 'not_found' using detail = '{"thing":"invitation"}';
  end if;

  select lower(u.email) into caller_email from auth.users u where u.id = caller;
  if caller_email is distinct from invitation.email then
    raise exception 'forbidden'
      using detail = '{"detail":"This invitation was sent to another email address. Sign in with that address to accept it."}';
  end if;

  if invitation.accepted_at is not null and invitation.accepted_by = caller then
    -- Accepting twice (a double click, a retried request) is not an error.
    return invitation.org_id;
  end if;
  if invitation.accepted_at is not null or invitation.revoked_at is not null or invitation.expires_at <= now() then
    raise exception 'invalid_transition'
      using detail = json_build_object(
        'thing', 'invitation',
        'status', case when invitation.accepted_at is not null then 'accepted'
                       when invitation.revoked_at is not null then 'revoked'
                       else 'expired' end,
        'verb', 'accepted')::text;
  end if;

  -- Someone who is already a member keeps the role they have.
  insert into public.memberships (org_id, user_id, role)
  values (invitation.org_id, caller, invitation.role)
  on conflict (org_id, user_id) do nothing;

  update public.invitations set accepted_at = now(), accepted_by = caller where id = invitation.id;
  return invitation.org_id;
end;
$$;

comment on function private.accept_invitation(text) is
  'Makes the signed-in caller a member with the invitation''s role; the email must match; idempotent.';

revoke all on function private.accept_invitation(text) from public, anon;
grant execute on function private.accept_invitation(text) to authenticated;

-- What the accept page shows before the invitee decides. security definer for the same reason
-- as accept_invitation; the token is the credential, and only this much is revealed.
create or replace function private.preview_invitation(token text)
returns table (org_name text, role public.org_role, email text, invited_by_name text, expires_at timestamptz, status text)
language sql
stable
security definer
set search_path = ''
as $$
  select o.name,
         i.role,
         i.email,
         p.display_name,
         i.expires_at,
         case when i.accepted_at is not null then 'accepted'
              when i.revoked_at is not null then 'revoked'
              when i.expires_at <= now() then 'expired'
              else 'pending' end
  from public.invitations i
  join public.organizations o on o.id = i.org_id
  left join public.profiles p on p.user_id = i.invited_by
  where i.token_hash = private.hash_invitation_token(token);
$$;

revoke all on function private.preview_invitation(text) from public, anon;
grant execute on function private.preview_invitation(text) to authenticated;

alter table public.invitations enable row level security;

-- Invitations carry outsiders' addresses: only the people who manage members see them.
create policy "Owners and admins can read their organization's invitations"
  on public.invitations
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Owners and admins can invite, admins not as owner"
  on public.invitations
  for insert
  to authenticated
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
    and invited_by = (select auth.uid())
  );

create policy "Owners and admins can revoke invitations, admins not owner ones"
  on public.invitations
  for update
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
  )
  with check (
    org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    and (role <> 'owner' or org_id in (select private.org_ids_of_current_user('{owner}')))
  );

-- No delete policy: revoking keeps the record; invitations go when their organization does.

revoke all on table public.invitations from anon, authenticated;
grant select (id, org_id, email, role, expires_at, accepted_at, accepted_by, revoked_at, invited_by, created_at, updated_at)
  on table public.invitations to authenticated;
-- expires_at is not the caller's to choose: every invitation lives 7 days (PRODUCT.md §9).
grant insert (id, org_id, email, role, token_hash, invited_by) on table public.invitations to authenticated;
grant update (revoked_at) on table public.invitations to authenticated;
grant all on table public.invitations to service_role;
