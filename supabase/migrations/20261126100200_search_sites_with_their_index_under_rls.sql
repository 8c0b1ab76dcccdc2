-- `q=` search on sites used no index under RLS: `ilike` is not leakproof, so Postgres must apply
-- the sites policy before it and cannot drive the scan from the trigram index (sites_search_idx).
-- At 100k sites a search took ~240 ms, the same SQL as the service role with the explicit
-- organization filter well under a millisecond (npm run bench -- reads).
--
-- This function finds one page of matching site ids the way the service role would: it runs as
-- its owner (no RLS), so the planner may use the trigram index or the (org_id, name, id) index,
-- whichever the pattern favours (EXECUTE plans with the actual values). It answers only for an
-- organization the caller belongs to, checked first. The API then reads those rows under the
-- caller's RLS with every filter again, so the policy stays the guard (supabase/functions/api/sites.ts).
create or replace function private.site_search_page(
  org uuid,
  pattern text,
  archived text,
  after_name text,
  after_id uuid,
  page_size integer
)
returns setof uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not exists (select 1 from private.org_ids_of_current_user() o where o = org) then
    return;
  end if;
  return query execute format(
    $q$
      select s.id from public.sites s
      where s.org_id = $1
        and (s.name || ' ' || coalesce(s.address, '') || ' ' || coalesce(s.external_ref, '')) ilike $2
        and %s
        and ($3::text is null or (s.name, s.id) > ($3, $4))
      order by s.name, s.id
      limit $5
    $q$,
    case archived when 'all' then 'true' when 'true' then 's.archived_at is not null' else 's.archived_at is null' end
  ) using org, pattern, after_name, after_id, least(greatest(page_size, 1), 201);
end;
$$;

comment on function private.site_search_page(uuid, text, text, text, uuid, integer) is
  'One page of ids of the organization''s sites matching an ilike pattern, for a member only; planned with the trigram index (RLS would forbid it). The caller re-reads the rows under RLS.';

revoke all on function private.site_search_page(uuid, text, text, text, uuid, integer) from public, anon;
grant execute on function private.site_search_page(uuid, text, text, text, uuid, integer) to authenticated, service_role;
