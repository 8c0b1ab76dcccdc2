-- Fixtures for the organization tests. They write as the superuser, so a test builds its world
-- without going through the policies it is about to test; call them before acting as anyone.

-- Creates an organization; its creator becomes its owner through the product's trigger.
create or replace function tests.create_org(slug text, owner_id uuid, require_mfa boolean default false)
returns uuid
language sql
as $$
  insert into public.organizations (slug, name, require_mfa, created_by)
  values (slug, 'Organization ' || slug, require_mfa, owner_id)
  returning id;
$$;

-- Adds a member directly, as accepting an invitation would.
create or replace function tests.add_member(org_id uuid, user_id uuid, member_role public.org_role)
returns uuid
language sql
as $$
  insert into public.memberships (org_id, user_id, role)
  values (org_id, user_id, member_role)
  returning id;
$$;

-- The hex SHA-256 that invitations store instead of the token.
create or replace function tests.token_hash(token text)
returns text
language sql
immutable
as $$
  select encode(sha256(convert_to(token, 'UTF8')), 'hex');
$$;

-- Creates an invitation for a known token; expires_at in the past makes an expired one.
create or replace function tests.create_invitation(org_id uuid, email text, invited_role public.org_role,
                                                   token text, invited_by uuid default null,
                                                   expires_at timestamptz default null)
returns uuid
language sql
as $$
  insert into public.invitations (org_id, email, role, token_hash, invited_by, expires_at)
  values (org_id, lower(email), invited_role, tests.token_hash(token), invited_by,
          coalesce(expires_at, now() + interval '7 days'))
  returning id;
$$;

-- The permission matrix's world: organization A with one member per role, organization B with
-- its owner only, and a signed-in user in neither. tag keeps emails and slugs unique per file.
create or replace function tests.create_org_matrix(tag text)
returns table (org_a uuid, org_b uuid, owner uuid, admin uuid, manager uuid, inspector uuid,
               viewer uuid, b_owner uuid, outsider uuid)
language plpgsql
as $$
declare
  owner_id uuid := tests.create_user('owner-' || tag || '@example.test', 'Owner ' || tag);
  admin_id uuid := tests.create_user('admin-' || tag || '@example.test', 'Admin ' || tag);
  manager_id uuid := tests.create_user('manager-' || tag || '@example.test', 'Manager ' || tag);
  inspector_id uuid := tests.create_user('inspector-' || tag || '@example.test', 'Inspector ' || tag);
  viewer_id uuid := tests.create_user('viewer-' || tag || '@example.test', 'Viewer ' || tag);
  b_owner_id uuid := tests.create_user('b-owner-' || tag || '@example.test', 'B owner ' || tag);
  outsider_id uuid := tests.create_user('outsider-' || tag || '@example.test', 'Outsider ' || tag);
  a_id uuid := tests.create_org('org-a-' || tag, owner_id);
  b_id uuid := tests.create_org('org-b-' || tag, b_owner_id);
begin
  perform tests.add_member(a_id, admin_id, 'admin');
  perform tests.add_member(a_id, manager_id, 'manager');
  perform tests.add_member(a_id, inspector_id, 'inspector');
  perform tests.add_member(a_id, viewer_id, 'viewer');
  return query select a_id, b_id, owner_id, admin_id, manager_id, inspector_id, viewer_id, b_owner_id, outsider_id;
end;
$$;

grant execute on all functions in schema tests to anon, authenticated, service_role;
