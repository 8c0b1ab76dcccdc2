-- The require-MFA check runs before every row written to an organization's tables, and took a
-- third of an answer batch's SQL time (issue 15: 0.33 ms a row): it turned the whole row into
-- jsonb to read its org_id, answers' values and notes included. Every table it guards has an
-- org_id column except organizations, which has its own branch, and PL/pgSQL compiles a trigger
-- function per table, so the column is read directly (each field only in a statement that runs
-- for a table that has it). Same rule, same exemptions (leaving; API keys, as in
-- 20261125100200_api_key_principal_in_caller_helpers.sql).
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
    requires := coalesce(old.require_mfa, false) or coalesce(new.require_mfa, false);
  else
    -- Leaving an organization is exempt, so a member can always go. (Nested: PL/pgSQL resolves
    -- every field of an expression, and only memberships has user_id.)
    if tg_table_name = 'memberships' and tg_op = 'DELETE' then
      if old.user_id = (select auth.uid()) then
        return old;
      end if;
    end if;
    -- As the caller: a non-member sees no organization here and is refused by RLS right after.
    select o.require_mfa into requires
    from public.organizations o
    where o.id = case when tg_op = 'DELETE' then old.org_id else new.org_id end;
  end if;

  -- Asked last, only where MFA is required: most writes never need the key lookup.
  if coalesce(requires, false) and not exists (select 1 from private.current_api_key()) then
    raise exception 'mfa_required';
  end if;
  return coalesce(new, old);
end;
$$;
