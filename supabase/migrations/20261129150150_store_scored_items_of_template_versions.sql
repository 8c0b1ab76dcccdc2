-- Analytics (issue 28; docs/analytics.md) counts the answers of the items that can fail — a
-- version's scored items — for every inspection submitted, in the submit's transaction, and for
-- every version an analytics request covers. Working them out walks the definition and asks of
-- each item whether it is scored (about 3 ms for a 100-item template, measured with psql's
-- \timing); a version never changes, so the answer is stored beside it once, computed when the
-- version is written, as its item count and its initially hidden items are (migrations
-- 20261127200200 and 20261128200700).

-- The items of a template definition that can fail (private.template_item_is_scored), in order.
create or replace function private.scored_item_keys(definition jsonb)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array_agg(i.item ->> 'key' order by s.position, i.position), '{}')
  from jsonb_array_elements(coalesce(definition -> 'sections', '[]')) with ordinality as s (section, position),
       jsonb_array_elements(coalesce(s.section -> 'items', '[]')) with ordinality as i (item, position)
  where private.template_item_is_scored(i.item);
$$;

comment on function private.scored_item_keys(jsonb) is
  'Keys of the items of a template definition that can fail (scored items), in definition order: the items whose answers analytics counts.';

revoke all on function private.scored_item_keys(jsonb) from public, anon;
grant execute on function private.scored_item_keys(jsonb) to authenticated, service_role;

alter table public.template_versions
  add column scored_item_keys text[] generated always as (private.scored_item_keys(definition)) stored;

comment on column public.template_versions.scored_item_keys is
  'The items of the definition that can fail (private.scored_item_keys), stored for analytics: the items whose answers it counts.';

-- Versions stay immutable; generated columns are null in BEFORE triggers and nobody can set them
-- (a user's deletion clears published_by, and the comparison must not see the new column differ).
create or replace function private.refuse_template_version_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.organizations o where o.id = old.org_id) then
    return old;
  end if;
  -- Deleting the user who published it sets published_by null; nothing else may change.
  if tg_op = 'UPDATE' and new.published_by is null
     and to_jsonb(new) - 'published_by' - 'item_count' - 'initially_hidden_item_keys' - 'scored_item_keys'
       = to_jsonb(old) - 'published_by' - 'item_count' - 'initially_hidden_item_keys' - 'scored_item_keys' then
    return new;
  end if;
  raise exception 'template versions are immutable' using errcode = '42501';
end;
$$;
