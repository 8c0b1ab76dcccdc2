-- Visibility rules in template definitions (issue 17; docs/templates.md, "Logic"): an item or a
-- whole section may carry `show_when`, a rule over earlier items' answers, and shows only when it
-- holds. This migration teaches the database's copy of the definition rules
-- (private.template_definition_problem) the rule's shape and its references, with the same paths
-- and messages as the zod schema (_shared/schemas/templates.ts): a rule may test only items that
-- come before it (so visibility has no cycles), and only with tests and answers that fit the
-- tested item. `show_when` is the one optional key of an item or section: versions published
-- before rules existed have none, and versions never change.

-- Whether answers to an item count towards the score: isScored in _shared/schemas/template-items.ts.
create or replace function private.template_item_is_scored(item jsonb)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case item ->> 'kind'
    when 'pass_fail' then true
    when 'yes_no' then jsonb_typeof(item -> 'fail_on') = 'string'
    when 'number' then jsonb_typeof(item -> 'min') = 'number' or jsonb_typeof(item -> 'max') = 'number'
    when 'single_choice' then jsonb_typeof(item -> 'failing_options') = 'array' and jsonb_array_length(item -> 'failing_options') > 0
    when 'multi_choice' then jsonb_typeof(item -> 'failing_options') = 'array' and jsonb_array_length(item -> 'failing_options') > 0
    else false
  end;
$$;

-- The tests a rule may put an item to (conditionOpsFor in _shared/schemas/visibility.ts): by kind,
-- "failed" only when the item is scored; none for photos, whose answers are attachments.
create or replace function private.condition_ops_for(item jsonb)
returns text[]
language sql
immutable
parallel safe
set search_path = ''
as $$
  select array(
    select op
    from unnest(case item ->> 'kind'
      when 'pass_fail' then '{equals,not_equals,one_of,none_of,failed,answered,not_answered}'::text[]
      when 'yes_no' then '{equals,not_equals,failed,answered,not_answered}'::text[]
      when 'number' then '{equals,not_equals,less_than,greater_than,between,failed,answered,not_answered}'::text[]
      when 'single_choice' then '{equals,not_equals,one_of,none_of,failed,answered,not_answered}'::text[]
      when 'multi_choice' then '{one_of,none_of,failed,answered,not_answered}'::text[]
      when 'text' then '{answered,not_answered}'::text[]
      when 'date' then '{answered,not_answered}'::text[]
      when 'signature' then '{answered,not_answered}'::text[]
      else '{}'::text[]
    end) with ordinality as o (op, position)
    where op <> 'failed' or private.template_item_is_scored(item)
    order by position
  );
$$;

-- Why `answer` can't be an answer of `item` in a condition (choice kinds and numbers), or null.
create or replace function private.condition_value_problem(item jsonb, answer jsonb)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select case item ->> 'kind'
    when 'number' then case when jsonb_typeof(answer) <> 'number' then 'Enter a number.' end
    when 'pass_fail' then case when answer not in ('"pass"', '"fail"', '"na"') then 'Choose pass, fail or na.' end
    when 'yes_no' then case when answer not in ('"yes"', '"no"') then 'Choose yes or no.' end
    else case when jsonb_typeof(answer) <> 'string' or not coalesce(item -> 'options', '[]') @> jsonb_build_array(answer)
      then 'Choose one of the item''s options.' end
  end;
$$;

-- What is wrong with a `show_when` rule: null when it is absent, null or valid, else
-- '<path below show_when>: <message>' (': <message>' for the rule itself). `items_by_key` and
-- `positions` hold every item of the definition and its place in definition order; `before` is
-- how many items come before the rule's owner, so only those may be tested. The rules and words
-- of visibilityRuleSchema and conditionProblem in _shared/schemas/templates.ts.
create or replace function private.visibility_rule_problem(rule jsonb, items_by_key jsonb, positions jsonb, before integer, for_section boolean)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  condition jsonb;
  n integer := 0;
  path text;
  op text;
  expected_keys text[];
  unknown_key text;
  item jsonb;
  ops text[];
  problem text;
  entry jsonb;
  k integer;
  seen jsonb;
begin
  if rule is null or jsonb_typeof(rule) = 'null' then
    return null;
  end if;
  if jsonb_typeof(rule) <> 'object' then
    return ': Describe the rule as an object with match and conditions, or leave it out.';
  end if;
  select x into unknown_key from jsonb_object_keys(rule) x where x not in ('match', 'conditions') limit 1;
  if unknown_key is not null then
    return unknown_key || ': This field is not allowed.';
  end if;
  if not rule ? 'match' then
    return 'match: Add this field.';
  end if;
  if rule -> 'match' not in ('"all"', '"any"') then
    return 'match: Choose all or any.';
  end if;
  if jsonb_typeof(rule -> 'conditions') is distinct from 'array' then
    return 'conditions: List the conditions.';
  end if;
  if jsonb_array_length(rule -> 'conditions') = 0 then
    return 'conditions: Add at least one condition.';
  end if;
  if jsonb_array_length(rule -> 'conditions') > 10 then
    return 'conditions: Use at most 10 conditions in a rule.';
  end if;

  for condition in select value from jsonb_array_elements(rule -> 'conditions') loop
    path := 'conditions.' || n;
    if jsonb_typeof(condition) <> 'object' then
      return path || ': Describe the condition as an object.';
    end if;
    op := case when jsonb_typeof(condition -> 'op') = 'string' then condition ->> 'op' end;
    expected_keys := case
      when op in ('equals', 'not_equals', 'less_than', 'greater_than') then '{item,op,value}'::text[]
      when op in ('one_of', 'none_of') then '{item,op,values}'::text[]
      when op = 'between' then '{item,op,min,max}'::text[]
      when op in ('failed', 'answered', 'not_answered') then '{item,op}'::text[]
    end;
    if expected_keys is null then
      return path || '.op: Choose a condition: equals, not_equals, one_of, none_of, less_than, greater_than, between, failed, answered, not_answered.';
    end if;
    select x into unknown_key from jsonb_object_keys(condition) x where x <> all (expected_keys) limit 1;
    if unknown_key is not null then
      return path || '.' || unknown_key || ': This field is not allowed.';
    end if;
    -- A missing field reads as the wrong type, with the schema's words for it.
    if jsonb_typeof(condition -> 'item') is distinct from 'string' then
      return path || '.item: Choose an item.';
    end if;
    if op in ('equals', 'not_equals') and coalesce(jsonb_typeof(condition -> 'value'), 'null') not in ('number', 'string') then
      return path || '.value: Enter the answer to compare with.';
    end if;
    if op in ('less_than', 'greater_than') and jsonb_typeof(condition -> 'value') is distinct from 'number' then
      return path || '.value: Enter a number.';
    end if;
    if op = 'between' and jsonb_typeof(condition -> 'min') is distinct from 'number' then
      return path || '.min: Enter the lowest number.';
    end if;
    if op = 'between' and jsonb_typeof(condition -> 'max') is distinct from 'number' then
      return path || '.max: Enter the highest number.';
    end if;
    if op in ('one_of', 'none_of') then
      if jsonb_typeof(condition -> 'values') is distinct from 'array' or jsonb_array_length(condition -> 'values') = 0 then
        return path || '.values: Choose at least one option.';
      end if;
      if jsonb_array_length(condition -> 'values') > 50 then
        return path || '.values: Choose at most 50 options.';
      end if;
      k := 0;
      for entry in select value from jsonb_array_elements(condition -> 'values') loop
        if jsonb_typeof(entry) <> 'string' or btrim(entry #>> '{}') = '' then
          return path || '.values.' || k || ': Choose one of the item''s options.';
        end if;
        k := k + 1;
      end loop;
    end if;

    -- The item it tests: one of this template, before the rule's owner, that can be tested so.
    if not positions ? (condition ->> 'item') then
      return path || '.item: Choose an item of this template.';
    end if;
    if (positions ->> (condition ->> 'item'))::integer >= before then
      return path || '.item: ' || case when for_section then 'Choose an item from an earlier section.' else 'Choose an item that comes before this one.' end;
    end if;
    item := items_by_key -> (condition ->> 'item');
    if item ->> 'kind' = 'photo' then
      return path || '.item: Photo items can''t be used in a rule; choose another item.';
    end if;
    if op = 'failed' and not private.template_item_is_scored(item) then
      return path || '.op: This item is not scored, so it never fails; choose another condition.';
    end if;
    ops := private.condition_ops_for(item);
    if not op = any (ops) then
      return path || '.op: Choose a condition that fits ' || case item ->> 'kind'
        when 'pass_fail' then 'a pass / fail' when 'yes_no' then 'a yes / no' when 'number' then 'a number'
        when 'text' then 'a text' when 'single_choice' then 'a single choice' when 'multi_choice' then 'a multiple choice'
        when 'date' then 'a date' when 'signature' then 'a signature' else 'this'
      end || ' item: ' || array_to_string(ops, ', ') || '.';
    end if;
    if op in ('equals', 'not_equals') then
      problem := private.condition_value_problem(item, condition -> 'value');
      if problem is not null then
        return path || '.value: ' || problem;
      end if;
    elsif op in ('one_of', 'none_of') then
      k := 0;
      seen := '[]';
      for entry in select value from jsonb_array_elements(condition -> 'values') loop
        problem := private.condition_value_problem(item, entry);
        if problem is not null then
          return path || '.values.' || k || ': ' || problem;
        end if;
        if seen @> jsonb_build_array(entry) then
          return path || '.values.' || k || ': Remove the repeated option.';
        end if;
        seen := seen || jsonb_build_array(entry);
        k := k + 1;
      end loop;
    elsif op = 'between' and (condition ->> 'min')::numeric > (condition ->> 'max')::numeric then
      return path || '.max: Use a maximum at least as large as the minimum.';
    end if;
    n := n + 1;
  end loop;
  return null;
end;
$$;

comment on function private.visibility_rule_problem(jsonb, jsonb, jsonb, integer, boolean) is
  'Null when a show_when rule is absent or valid for its place, else ''<path below show_when>: <message>''.';

-- Check constraints run their functions with the writer's privileges.
revoke all on function private.template_item_is_scored(jsonb), private.condition_ops_for(jsonb),
  private.condition_value_problem(jsonb, jsonb), private.visibility_rule_problem(jsonb, jsonb, jsonb, integer, boolean)
  from public, anon;
grant execute on function private.template_item_is_scored(jsonb), private.condition_ops_for(jsonb),
  private.condition_value_problem(jsonb, jsonb), private.visibility_rule_problem(jsonb, jsonb, jsonb, integer, boolean)
  to authenticated, service_role;

-- The definition rules of 20261121001100 with `show_when` on sections and items.
create or replace function private.template_definition_problem(definition jsonb)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  key_pattern constant text := '^[a-z0-9][a-z0-9_-]{0,63}$';
  base_keys constant text[] := array['key', 'kind', 'label', 'help', 'required', 'weight'];
  section jsonb;
  item jsonb;
  s integer := 0;
  i integer;
  path text;
  problem text;
  section_keys text[] := '{}';
  item_keys text[] := '{}';
  kind_keys text[];
  expected_keys text[];
  unknown_key text;
  missing_key text;
  options text[];
  failing text[];
  entry jsonb;
  n integer;
  -- For the rules: every item by key and its place in definition order (first occurrence), and
  -- how many items come before the current section or item. Built once, not per item.
  items_by_key jsonb;
  positions jsonb;
  flat_index integer := 0;
begin
  if jsonb_typeof(definition) is distinct from 'object' then
    return ': Send the definition as an object with sections.';
  end if;
  select k into unknown_key from jsonb_object_keys(definition) k where k <> 'sections' limit 1;
  if unknown_key is not null then
    return unknown_key || ': This field is not allowed.';
  end if;
  if jsonb_typeof(definition -> 'sections') is distinct from 'array' then
    return 'sections: List the sections.';
  end if;
  if jsonb_array_length(definition -> 'sections') > 50 then
    return 'sections: Use at most 50 sections.';
  end if;
  if private.template_item_count(definition) > 500 then
    return 'sections: Use at most 500 items in a template (this one has ' || private.template_item_count(definition) || ').';
  end if;

  select coalesce(jsonb_object_agg(k, item_at), '{}'), coalesce(jsonb_object_agg(k, position), '{}')
  into items_by_key, positions
  from (
    select distinct on (x.item ->> 'key') x.item ->> 'key' as k, x.item as item_at, x.position
    from (
      select i.item, row_number() over (order by s.section_index, i.item_index) - 1 as position
      from jsonb_array_elements(definition -> 'sections') with ordinality as s (section, section_index),
           jsonb_array_elements(case when jsonb_typeof(s.section -> 'items') = 'array' then s.section -> 'items' else '[]' end)
             with ordinality as i (item, item_index)
    ) x
    where jsonb_typeof(x.item -> 'key') = 'string'
    order by x.item ->> 'key', x.position
  ) firsts;

  for section in select value from jsonb_array_elements(definition -> 'sections') loop
    path := 'sections.' || s;
    if jsonb_typeof(section) <> 'object' then
      return path || ': Describe the section as an object.';
    end if;
    select k into unknown_key from jsonb_object_keys(section) k where k not in ('key', 'title', 'items', 'show_when') limit 1;
    if unknown_key is not null then
      return path || '.' || unknown_key || ': This field is not allowed.';
    end if;
    if jsonb_typeof(section -> 'key') is distinct from 'string' or (section ->> 'key') !~ key_pattern then
      return path || '.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.';
    end if;
    if (section ->> 'key') = any (section_keys) then
      return path || '.key: Use a key no other section has.';
    end if;
    section_keys := section_keys || (section ->> 'key');
    problem := private.template_text_problem(section -> 'title', 120);
    if problem is not null then
      return path || '.title: ' || problem;
    end if;
    if jsonb_typeof(section -> 'items') is distinct from 'array' then
      return path || '.items: List the section''s items.';
    end if;
    -- A section's rule tests items of earlier sections only (its own would hide themselves).
    problem := private.visibility_rule_problem(section -> 'show_when', items_by_key, positions, flat_index, true);
    if problem is not null then
      return path || '.show_when' || case when left(problem, 1) = ':' then problem else '.' || problem end;
    end if;

    i := 0;
    for item in select value from jsonb_array_elements(section -> 'items') loop
      path := 'sections.' || s || '.items.' || i;
      if jsonb_typeof(item) <> 'object' then
        return path || ': Describe the item as an object.';
      end if;
      -- null for an unknown kind (checked before joining it to the base keys, which would hide it).
      kind_keys := case item ->> 'kind'
        when 'pass_fail' then '{}'::text[]
        when 'yes_no' then array['fail_on']
        when 'number' then array['min', 'max', 'unit']
        when 'text' then '{}'::text[]
        when 'single_choice' then array['options', 'failing_options']
        when 'multi_choice' then array['options', 'failing_options']
        when 'date' then '{}'::text[]
        when 'photo' then array['max_photos']
        when 'signature' then '{}'::text[]
      end;
      if jsonb_typeof(item -> 'kind') is distinct from 'string' or kind_keys is null then
        return path || '.kind: Choose a kind: pass_fail, yes_no, number, text, single_choice, multi_choice, date, photo, signature.';
      end if;
      expected_keys := base_keys || kind_keys;
      -- Exactly the kind's keys: readers never meet a setting of another kind or a missing one.
      -- show_when is the one optional key: versions published before rules existed have none.
      select k into unknown_key from jsonb_object_keys(item) k where k <> all (expected_keys || 'show_when'::text) limit 1;
      if unknown_key is not null then
        return path || '.' || unknown_key || ': This field is not allowed.';
      end if;
      select k into missing_key from unnest(expected_keys) k where not item ? k limit 1;
      if missing_key is not null then
        return path || '.' || missing_key || ': Add this field.';
      end if;

      if jsonb_typeof(item -> 'key') <> 'string' or (item ->> 'key') !~ key_pattern then
        return path || '.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.';
      end if;
      if (item ->> 'key') = any (item_keys) then
        return path || '.key: Use a key no other item has.';
      end if;
      item_keys := item_keys || (item ->> 'key');
      problem := private.template_text_problem(item -> 'label', 500);
      if problem is not null then
        return path || '.label: ' || problem;
      end if;
      problem := private.template_text_problem(item -> 'help', 2000, true);
      if problem is not null then
        return path || '.help: ' || problem;
      end if;
      if jsonb_typeof(item -> 'required') <> 'boolean' then
        return path || '.required: Use true or false.';
      end if;
      if jsonb_typeof(item -> 'weight') <> 'number' or (item ->> 'weight')::numeric not between 0 and 100 then
        return path || '.weight: Enter a weight from 0 to 100.';
      end if;

      case item ->> 'kind'
      when 'yes_no' then
        if jsonb_typeof(item -> 'fail_on') <> 'null' and (item -> 'fail_on') not in ('"yes"', '"no"') then
          return path || '.fail_on: Choose yes, no or neither.';
        end if;
      when 'number' then
        if jsonb_typeof(item -> 'min') not in ('number', 'null') then
          return path || '.min: Enter a number, or leave it empty.';
        end if;
        if jsonb_typeof(item -> 'max') not in ('number', 'null') then
          return path || '.max: Enter a number, or leave it empty.';
        end if;
        if (item ->> 'min')::numeric > (item ->> 'max')::numeric then
          return path || '.max: Use a maximum at least as large as the minimum.';
        end if;
        problem := private.template_text_problem(item -> 'unit', 20, true);
        if problem is not null then
          return path || '.unit: ' || problem;
        end if;
      when 'single_choice', 'multi_choice' then
        if jsonb_typeof(item -> 'options') <> 'array' or jsonb_array_length(item -> 'options') = 0 then
          return path || '.options: Add at least one option.';
        end if;
        if jsonb_array_length(item -> 'options') > 50 then
          return path || '.options: Use at most 50 options.';
        end if;
        options := '{}';
        n := 0;
        for entry in select value from jsonb_array_elements(item -> 'options') loop
          problem := private.template_text_problem(entry, 120);
          if problem is not null then
            return path || '.options.' || n || ': ' || problem;
          end if;
          if (entry #>> '{}') = any (options) then
            return path || '.options.' || n || ': Remove the repeated option.';
          end if;
          options := options || (entry #>> '{}');
          n := n + 1;
        end loop;
        if jsonb_typeof(item -> 'failing_options') <> 'array' then
          return path || '.failing_options: List the failing options.';
        end if;
        failing := '{}';
        n := 0;
        for entry in select value from jsonb_array_elements(item -> 'failing_options') loop
          if jsonb_typeof(entry) <> 'string' or not (entry #>> '{}') = any (options) then
            return path || '.failing_options.' || n || ': Choose failing options from the item''s options.';
          end if;
          if (entry #>> '{}') = any (failing) then
            return path || '.failing_options.' || n || ': Remove the repeated failing option.';
          end if;
          failing := failing || (entry #>> '{}');
          n := n + 1;
        end loop;
      when 'photo' then
        if jsonb_typeof(item -> 'max_photos') <> 'number'
           or (item ->> 'max_photos')::numeric <> trunc((item ->> 'max_photos')::numeric)
           or (item ->> 'max_photos')::numeric not between 1 and 10 then
          return path || '.max_photos: Enter a whole number of photos from 1 to 10.';
        end if;
      else
        null;
      end case;
      -- An item's rule tests items before it (in its section or an earlier one): no cycles.
      problem := private.visibility_rule_problem(item -> 'show_when', items_by_key, positions, flat_index, false);
      if problem is not null then
        return path || '.show_when' || case when left(problem, 1) = ':' then problem else '.' || problem end;
      end if;
      flat_index := flat_index + 1;
      i := i + 1;
    end loop;
    s := s + 1;
  end loop;
  return null;
end;
$$;

comment on function private.template_definition_problem(jsonb) is
  'Null when a template definition is valid (visibility rules included), else ''<path>: <message>'' for its first problem.';
