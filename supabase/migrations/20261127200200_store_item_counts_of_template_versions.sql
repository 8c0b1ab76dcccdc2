-- Issue 15: the inspections list shows each inspection's progress against its version's item
-- count, which it computed per row by walking the version's definition (jsonb) — 51 walks per
-- page. A version's definition never changes once published, so its item count is stored beside
-- it, computed by the same function when the version is written.

alter table public.template_versions
  add column item_count integer generated always as (private.template_item_count(definition)) stored;

comment on column public.template_versions.item_count is
  'How many items the definition has (private.template_item_count), stored for the inspection lists.';

-- Versions stay immutable. A BEFORE trigger sees a generated column as null (Postgres computes it
-- after those triggers), so the guard leaves item_count out of its comparison; nobody can set a
-- generated column anyway.
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
     and to_jsonb(new) - 'published_by' - 'item_count' = to_jsonb(old) - 'published_by' - 'item_count' then
    return new;
  end if;
  raise exception 'template versions are immutable' using errcode = '42501';
end;
$$;
