-- Issue 15: every read that shows a person's name joins profiles, whose policy asks
-- private.user_ids_sharing_an_org_with_current_user(). As a SQL function that cannot be inlined
-- (security definer) its body was planned again in every statement: ~0.5 ms of a 2 ms
-- inspections page at 200 members. As PL/pgSQL its plans are kept for the connection's life (as
-- 20261126100400 did for the other caller helpers), and it answers the common case first: a
-- signed-in user's fellow members, without asking about API keys. Same signature, same set of
-- ids (duplicates aside, which `in (…)` ignores); tests/db/090 and 160 hold it to that.
create or replace function private.user_ids_sharing_an_org_with_current_user()
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  uid uuid := auth.uid();
begin
  if uid is not null then
    return next uid;
    return query
      select other.user_id
      from public.memberships mine
      join public.memberships other on other.org_id = mine.org_id
      where mine.user_id = uid;
    return;
  end if;
  -- A key reads its organization's members (to assign inspections and actions to them).
  return query
    select m.user_id
    from public.memberships m
    where m.org_id in (select k.org_id from private.current_api_key() k);
end;
$$;
