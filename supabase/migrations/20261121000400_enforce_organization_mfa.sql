-- "Require two-factor authentication" (PRODUCT.md §6): when an organization requires it, every
-- write by a user needs a session verified with a second factor (aal2). Checked here, from the
-- JWT the request carries, so no path around the api function bypasses it.

-- Raises mfa_required when a signed-in user writes an organization's rows from an aal1 session.
-- Not security definer on purpose: current_user is then the role the write was made as, so
-- writes made inside the product's security definer functions (creating an organization's
-- first owner, accepting an invitation) run as their owner and decide their own rules. Leaving
-- an organization must stay possible without a second factor too.
create or replace function private.enforce_organization_mfa()
returns trigger
language plpgsql
set search_path = ''
as $$
declare
  requires boolean;
begin
  if current_user <> 'authenticated' or coalesce(auth.jwt() ->> 'aal', 'aal1') = 'aal2' then
    return coalesce(new, old);
  end if;

  if tg_table_name = 'organizations' then
    -- Switching the requirement on also needs aal2: nobody locks a team out from a weaker session.
    requires := coalesce((to_jsonb(old) ->> 'require_mfa')::boolean, false)
             or coalesce((to_jsonb(new) ->> 'require_mfa')::boolean, false);
  else
    -- Through jsonb: one function serves tables without a user_id column.
    if tg_table_name = 'memberships' and tg_op = 'DELETE' and (to_jsonb(old) ->> 'user_id')::uuid = (select auth.uid()) then
      return old;
    end if;
    -- As the caller: a non-member sees no organization here and is refused by RLS right after.
    select o.require_mfa into requires
    from public.organizations o
    where o.id = (to_jsonb(coalesce(new, old)) ->> 'org_id')::uuid;
  end if;

  if coalesce(requires, false) then
    raise exception 'mfa_required';
  end if;
  return coalesce(new, old);
end;
$$;

comment on function private.enforce_organization_mfa() is
  'Before-row trigger: refuses aal1 writes by users to organizations that require MFA.';

-- Only triggers call it (firing a trigger checks no execute privilege).
revoke all on function private.enforce_organization_mfa() from public, anon, authenticated;

create trigger organizations_enforce_mfa
  before insert or update or delete on public.organizations
  for each row execute function private.enforce_organization_mfa();

create trigger memberships_enforce_mfa
  before insert or update or delete on public.memberships
  for each row execute function private.enforce_organization_mfa();
