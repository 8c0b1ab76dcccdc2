-- Which items of a template show for a set of answers (issue 17; docs/templates.md, "Logic"): the
-- database's evaluator of `show_when` rules, used by scoring, the failed count, submit's required
-- items and the actions a submit opens. evaluateVisibility in _shared/schemas/visibility.ts is
-- the same evaluator for the run page and the editor's preview; a property test
-- (tests/api/templates/visibility-property.test.ts) compares the two on generated definitions
-- and answers. The meaning, in both:
--   - sections and items in definition order; a section's rule, then each of its items' rules;
--   - an item of a hidden section is hidden whatever its own rule says;
--   - a hidden item's answer counts as no answer for the rules after it (hiding cascades);
--   - every test but not_answered needs an answer ("is not Yes" does not hold for an item nobody
--     answered); numbers compare as numbers, choices as exact texts.

-- Whether a condition holds for `value`, the answer of `item`, the item it tests (null when
-- unanswered or hidden). conditionHolds in _shared/schemas/visibility.ts.
create or replace function private.visibility_condition_holds(condition jsonb, item jsonb, value jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case
    when condition ->> 'op' = 'answered' then value is not null and jsonb_typeof(value) <> 'null'
    when condition ->> 'op' = 'not_answered' then value is null or jsonb_typeof(value) = 'null'
    when value is null or jsonb_typeof(value) = 'null' then false
    -- jsonb equality: texts exactly, numbers as numbers, a text never equals a number.
    when condition ->> 'op' = 'equals' then value = condition -> 'value'
    when condition ->> 'op' = 'not_equals' then value <> condition -> 'value'
    when condition ->> 'op' in ('one_of', 'none_of') then
      (condition ->> 'op' = 'one_of') = exists (
        select 1
        from jsonb_array_elements(case jsonb_typeof(value) when 'array' then value when 'string' then jsonb_build_array(value) else '[]' end) as chosen
        where jsonb_typeof(chosen) = 'string' and condition -> 'values' @> jsonb_build_array(chosen)
      )
    -- answer_failed takes a value valid for its item, as every stored answer is.
    when condition ->> 'op' = 'failed' then coalesce(private.answer_failed(item, value), false)
    when jsonb_typeof(value) <> 'number' then false
    when condition ->> 'op' = 'less_than' then (value #>> '{}')::numeric < (condition ->> 'value')::numeric
    when condition ->> 'op' = 'greater_than' then (value #>> '{}')::numeric > (condition ->> 'value')::numeric
    when condition ->> 'op' = 'between' then
      (value #>> '{}')::numeric between (condition ->> 'min')::numeric and (condition ->> 'max')::numeric
    else false
  end;
$$;

-- Whether a rule holds (no rule always does): all or any of its conditions, each testing the
-- answer in `answer_values` of the item it names unless that item is in `hidden`. PL/pgSQL, not
-- SQL: it runs once per ruled item, and a SQL function with a query is set up anew on each call.
create or replace function private.visibility_rule_holds(rule jsonb, items_by_key jsonb, answer_values jsonb, hidden text[])
returns boolean
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  any_holds boolean := rule ->> 'match' = 'any';
  condition jsonb;
  key text;
  holds boolean;
begin
  if rule is null or jsonb_typeof(rule) <> 'object' then
    return true;
  end if;
  for condition in select value from jsonb_array_elements(case when jsonb_typeof(rule -> 'conditions') = 'array' then rule -> 'conditions' else '[]' end) loop
    key := condition ->> 'item';
    holds := coalesce(private.visibility_condition_holds(
      condition, items_by_key -> key, case when key = any (hidden) then null else answer_values -> key end), false);
    if holds = any_holds then
      return holds;
    end if;
  end loop;
  return not any_holds;
end;
$$;

-- Whether a definition has any rule at all: most have none, and then everything shows.
create or replace function private.definition_has_visibility_rules(definition jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select jsonb_path_exists(definition, '$.sections[*] ? (@.show_when.type() == "object")')
      or jsonb_path_exists(definition, '$.sections[*].items[*] ? (@.show_when.type() == "object")');
$$;

-- The hidden sections and items of a (valid) definition for `answer_values` ({item key: value},
-- unanswered items absent or null): {"hidden_sections": [...], "hidden_items": [...]}, each in
-- definition order. evaluateVisibility in _shared/schemas/visibility.ts returns the same.
create or replace function private.template_visibility(definition jsonb, answer_values jsonb)
returns jsonb
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  items_by_key jsonb;
  section jsonb;
  item jsonb;
  section_shown boolean;
  hidden_sections text[] := '{}';
  hidden_items text[] := '{}';
begin
  if not private.definition_has_visibility_rules(definition) then
    return '{"hidden_sections": [], "hidden_items": []}';
  end if;
  answer_values := coalesce(answer_values, '{}');
  -- Every item by key (the first of a repeated key, as the definition rules read it).
  select coalesce(jsonb_object_agg(k, item_at), '{}') into items_by_key
  from (
    select distinct on (i.item ->> 'key') i.item ->> 'key' as k, i.item as item_at
    from jsonb_array_elements(definition -> 'sections') with ordinality as s (section, section_index),
         jsonb_array_elements(s.section -> 'items') with ordinality as i (item, item_index)
    order by i.item ->> 'key', s.section_index, i.item_index
  ) firsts;

  for section in select value from jsonb_array_elements(definition -> 'sections') loop
    -- Most sections and items have no rule: only those that do run one.
    section_shown := jsonb_typeof(section -> 'show_when') is distinct from 'object'
      or private.visibility_rule_holds(section -> 'show_when', items_by_key, answer_values, hidden_items);
    if not section_shown then
      hidden_sections := hidden_sections || (section ->> 'key');
    end if;
    for item in select value from jsonb_array_elements(section -> 'items') loop
      if not section_shown or (jsonb_typeof(item -> 'show_when') = 'object'
          and not private.visibility_rule_holds(item -> 'show_when', items_by_key, answer_values, hidden_items)) then
        hidden_items := hidden_items || (item ->> 'key');
      end if;
    end loop;
  end loop;
  return jsonb_build_object('hidden_sections', to_jsonb(hidden_sections), 'hidden_items', to_jsonb(hidden_items));
end;
$$;

comment on function private.template_visibility(jsonb, jsonb) is
  'The hidden sections and items of a template definition for {item key: answer value}: {hidden_sections, hidden_items}.';

-- The keys of the hidden items only, as the rules below read them.
create or replace function private.hidden_item_keys(definition jsonb, answer_values jsonb)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select coalesce(array(select jsonb_array_elements_text(private.template_visibility(definition, answer_values) -> 'hidden_items')), '{}');
$$;

-- The hidden items of an inspection now: its pinned version's rules over its saved answers.
-- security definer: the scoring, submit and actions triggers call it for whoever writes, and it
-- only reads what those triggers read already.
create or replace function private.inspection_hidden_item_keys(inspection uuid)
returns text[]
language sql
stable
security definer
set search_path = ''
as $$
  select case when private.definition_has_visibility_rules(v.definition) then
    private.hidden_item_keys(
      v.definition,
      (select coalesce(jsonb_object_agg(a.item_key, a.value), '{}') from public.answers a where a.inspection_id = i.id and a.value is not null)
    )
  else '{}'::text[] end
  from public.inspections i
  join public.template_versions v on v.id = i.template_version_id
  where i.id = inspection;
$$;

comment on function private.inspection_hidden_item_keys(uuid) is
  'Keys of the items an inspection''s pinned template hides for its saved answers, in definition order.';

revoke all on function private.visibility_condition_holds(jsonb, jsonb, jsonb), private.visibility_rule_holds(jsonb, jsonb, jsonb, text[]),
  private.definition_has_visibility_rules(jsonb), private.template_visibility(jsonb, jsonb), private.hidden_item_keys(jsonb, jsonb)
  from public, anon;
grant execute on function private.visibility_condition_holds(jsonb, jsonb, jsonb), private.visibility_rule_holds(jsonb, jsonb, jsonb, text[]),
  private.definition_has_visibility_rules(jsonb), private.template_visibility(jsonb, jsonb), private.hidden_item_keys(jsonb, jsonb)
  to authenticated, service_role;
-- Any inspection id, read past RLS: only for the triggers (as their owner) and server roles.
revoke all on function private.inspection_hidden_item_keys(uuid) from public, anon, authenticated;
grant execute on function private.inspection_hidden_item_keys(uuid) to service_role;
