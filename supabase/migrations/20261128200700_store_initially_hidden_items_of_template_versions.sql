-- Issue 26 part 10: making a schedule's occurrences inserts thousands of inspections of one
-- version, and each insert worked out which items the version's rules hide before any answer
-- (private.set_initially_hidden_items walks the definition's rules: about half the cost of an
-- inspection's insert for the demo's 41-item audit, measured with EXPLAIN ANALYZE; docs/schedules.md).
-- A version never changes, so that answer is stored beside it once, computed by the same function
-- when the version is written, as its item count is (migration 20261127200200).

alter table public.template_versions
  add column initially_hidden_item_keys text[] generated always as (private.hidden_item_keys(definition, '{}')) stored;

comment on column public.template_versions.initially_hidden_item_keys is
  'The items the definition''s rules hide before any answer (private.hidden_item_keys with no answers), stored for new inspections.';

create or replace function private.set_initially_hidden_items()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.hidden_item_keys := coalesce(
    (select v.initially_hidden_item_keys from public.template_versions v where v.id = new.template_version_id),
    '{}'
  );
  return new;
end;
$$;

-- Versions stay immutable; generated columns are null in BEFORE triggers and nobody can set them.
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
     and to_jsonb(new) - 'published_by' - 'item_count' - 'initially_hidden_item_keys'
       = to_jsonb(old) - 'published_by' - 'item_count' - 'initially_hidden_item_keys' then
    return new;
  end if;
  raise exception 'template versions are immutable' using errcode = '42501';
end;
$$;
