-- Visibility rules (issue 17): the definition rules refuse a rule that tests a missing, later or
-- unsuitable item, or an option the item lacks, naming the field; the SQL evaluator hides items
-- and sections as docs/templates.md ("Logic") says; and an inspection counts only what shows:
-- score, failed count and hidden items follow the answers, a hidden required item does not block
-- submit, and a hidden failed item opens no action (one that opened before is marked).
begin;
select plan(55);

-- A definition of `sections`, and one section after the fixed first one (`site`).
create function pg_temp.site_items() returns jsonb language sql as $$
  select '[
    {"key":"kitchen","kind":"yes_no","label":"Is there a kitchen?","help":null,"required":true,"weight":1,"fail_on":null},
    {"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":2,"min":0,"max":5,"unit":"°C",
     "show_when":{"match":"all","conditions":[{"item":"kitchen","op":"equals","value":"yes"}]}},
    {"key":"probe","kind":"photo","label":"Photo of the thermometer","help":null,"required":true,"weight":0,"max_photos":1,
     "show_when":{"match":"all","conditions":[{"item":"temp","op":"failed"}]}},
    {"key":"grade","kind":"single_choice","label":"Grade","help":null,"required":false,"weight":1,"options":["A","B","C"],"failing_options":["C"]},
    {"key":"hazards","kind":"multi_choice","label":"Hazards","help":null,"required":false,"weight":1,
     "options":["Wet floor","Blocked exit","None"],"failing_options":["Wet floor","Blocked exit"]},
    {"key":"notes","kind":"text","label":"Notes","help":null,"required":false,"weight":0}
  ]'::jsonb;
$$;
create function pg_temp.with_section(section jsonb) returns jsonb language sql as $$
  select jsonb_build_object('sections', jsonb_build_array(
    jsonb_build_object('key', 'site', 'title', 'Site', 'items', pg_temp.site_items()), section));
$$;
create function pg_temp.with_rule(rule jsonb) returns jsonb language sql as $$
  select pg_temp.with_section(jsonb_build_object('key', 'more', 'title', 'More', 'items', jsonb_build_array(
    jsonb_build_object('key', 'x', 'kind', 'pass_fail', 'label', 'X', 'help', null, 'required', false, 'weight', 1, 'show_when', rule))));
$$;
create function pg_temp.problem_of_condition(condition jsonb) returns text language sql as $$
  select private.template_definition_problem(pg_temp.with_rule(jsonb_build_object('match', 'all', 'conditions', jsonb_build_array(condition))));
$$;

-- 1. Definitions ------------------------------------------------------------------------------

select is(private.template_definition_problem(pg_temp.with_section('{"key":"kitchen-checks","title":"Kitchen","items":[
    {"key":"fridge","kind":"pass_fail","label":"Fridge is clean","help":null,"required":true,"weight":1}],
    "show_when":{"match":"any","conditions":[{"item":"kitchen","op":"equals","value":"yes"},{"item":"grade","op":"one_of","values":["A","B"]}]}}')),
  null, 'a section shown when earlier answers call for it is valid');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"between","min":3,"max":5}'), null, 'between on a number is valid');
select is(pg_temp.problem_of_condition('{"item":"hazards","op":"none_of","values":["Wet floor"]}'), null, 'none of on a multiple choice is valid');
select is(pg_temp.problem_of_condition('{"item":"notes","op":"answered"}'), null, 'is answered on a text item is valid');
select is(private.template_definition_problem(pg_temp.with_rule('null')), null, 'a null rule means always shown');
select is(private.template_definition_problem(pg_temp.with_section('{"key":"more","title":"More","items":[]}')), null,
  'no show_when at all is valid too: versions from before rules have none');

select is(private.template_definition_problem(pg_temp.with_section('{"key":"more","title":"More","items":[
    {"key":"x","kind":"pass_fail","label":"X","help":null,"required":false,"weight":1}],
    "show_when":{"match":"all","conditions":[{"item":"x","op":"answered"}]}}')),
  'sections.1.show_when.conditions.0.item: Choose an item from an earlier section.', 'a section cannot test its own items');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(jsonb_build_object(
    'key', 'site', 'title', 'Site', 'items', jsonb_set(pg_temp.site_items(), '{0,show_when}',
      '{"match":"all","conditions":[{"item":"grade","op":"answered"}]}'))))),
  'sections.0.items.0.show_when.conditions.0.item: Choose an item that comes before this one.', 'an item cannot test a later item (no cycles)');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(jsonb_build_object(
    'key', 'site', 'title', 'Site', 'items', jsonb_set(pg_temp.site_items(), '{3,show_when}',
      '{"match":"all","conditions":[{"item":"grade","op":"answered"}]}'))))),
  'sections.0.items.3.show_when.conditions.0.item: Choose an item that comes before this one.', 'nor itself');
select is(pg_temp.problem_of_condition('{"item":"nowhere","op":"answered"}'),
  'sections.1.items.0.show_when.conditions.0.item: Choose an item of this template.', 'a missing item is named');
select is(pg_temp.problem_of_condition('{"item":"grade","op":"equals","value":"D"}'),
  'sections.1.items.0.show_when.conditions.0.value: Choose one of the item''s options.', 'an option the item lacks is named');
select is(pg_temp.problem_of_condition('{"item":"hazards","op":"one_of","values":["None","Fire"]}'),
  'sections.1.items.0.show_when.conditions.0.values.1: Choose one of the item''s options.', 'so is one in a list, by its place');
select is(pg_temp.problem_of_condition('{"item":"hazards","op":"one_of","values":["None","None"]}'),
  'sections.1.items.0.show_when.conditions.0.values.1: Remove the repeated option.', 'a repeated option');
select is(pg_temp.problem_of_condition('{"item":"kitchen","op":"equals","value":"maybe"}'),
  'sections.1.items.0.show_when.conditions.0.value: Choose yes or no.', 'a yes / no item answers yes or no');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"equals","value":"4"}'),
  'sections.1.items.0.show_when.conditions.0.value: Enter a number.', 'a number item compares with numbers');
select is(pg_temp.problem_of_condition('{"item":"kitchen","op":"less_than","value":3}'),
  'sections.1.items.0.show_when.conditions.0.op: Choose a condition that fits a yes / no item: equals, not_equals, answered, not_answered.',
  'a test that does not fit the kind is refused with the ones that do');
select is(pg_temp.problem_of_condition('{"item":"hazards","op":"equals","value":"None"}'),
  'sections.1.items.0.show_when.conditions.0.op: Choose a condition that fits a multiple choice item: one_of, none_of, failed, answered, not_answered.',
  'a multiple choice is tested with one of / none of');
select is(pg_temp.problem_of_condition('{"item":"kitchen","op":"failed"}'),
  'sections.1.items.0.show_when.conditions.0.op: This item is not scored, so it never fails; choose another condition.',
  'is failed needs a scored item');
select is(pg_temp.problem_of_condition('{"item":"probe","op":"answered"}'),
  'sections.1.items.0.show_when.conditions.0.item: Photo items can''t be used in a rule; choose another item.', 'photos are not tested');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"between","min":5,"max":3}'),
  'sections.1.items.0.show_when.conditions.0.max: Use a maximum at least as large as the minimum.', 'between needs min ≤ max');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"about","value":3}'),
  'sections.1.items.0.show_when.conditions.0.op: Choose a condition: equals, not_equals, one_of, none_of, less_than, greater_than, between, failed, answered, not_answered.',
  'an unknown test');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"answered","value":3}'),
  'sections.1.items.0.show_when.conditions.0.value: This field is not allowed.', 'a condition carries exactly its test''s fields');
select is(pg_temp.problem_of_condition('{"item":"temp","op":"less_than"}'),
  'sections.1.items.0.show_when.conditions.0.value: Enter a number.', 'and all of them');
select is(private.template_definition_problem(pg_temp.with_rule('{"conditions":[{"item":"kitchen","op":"answered"}]}')),
  'sections.1.items.0.show_when.match: Add this field.', 'a rule says all or any');
select is(private.template_definition_problem(pg_temp.with_rule('{"match":"all","conditions":[]}')),
  'sections.1.items.0.show_when.conditions: Add at least one condition.', 'a rule has a condition');
select is(private.template_definition_problem(pg_temp.with_rule(jsonb_build_object('match', 'any', 'conditions',
    (select jsonb_agg('{"item":"kitchen","op":"answered"}'::jsonb) from generate_series(1, 11))))),
  'sections.1.items.0.show_when.conditions: Use at most 10 conditions in a rule.', 'and at most ten');
select is(private.template_definition_problem(pg_temp.with_rule('"kitchen = yes"')),
  'sections.1.items.0.show_when: Describe the rule as an object with match and conditions, or leave it out.', 'a rule is an object');

create temp table actors on commit drop as select * from tests.create_org_matrix('125');
grant select on actors to authenticated;
select tests.act_as((select manager from actors));
select is(tests.error_of($$insert into public.templates (org_id, name, definition)
    select org_a, 'Bad logic', pg_temp.with_rule('{"match":"all","conditions":[{"item":"grade","op":"equals","value":"D"}]}') from actors$$),
  'validation_failed {"field" : "definition.sections.1.items.0.show_when.conditions.0.value", "message" : "Choose one of the item''s options."}',
  'a manager saving a bad rule gets validation_failed on the field');
select tests.reset_role();
select is((select count(*)::int from public.templates where name = 'Bad logic'), 0, 'and nothing is stored');

-- 2. The evaluator ----------------------------------------------------------------------------

create function pg_temp.logic() returns jsonb language sql as $$
  select jsonb_build_object('sections', jsonb_build_array(
    jsonb_build_object('key', 'site', 'title', 'Site', 'items', pg_temp.site_items()),
    '{"key":"kitchen-checks","title":"Kitchen","items":[
      {"key":"fridge","kind":"pass_fail","label":"Fridge is clean","help":null,"required":true,"weight":3}],
      "show_when":{"match":"all","conditions":[{"item":"kitchen","op":"equals","value":"yes"}]}}'::jsonb,
    '{"key":"checks","title":"Checks","items":[
      {"key":"a","kind":"pass_fail","label":"A","help":null,"required":false,"weight":1,
       "show_when":{"match":"any","conditions":[{"item":"grade","op":"one_of","values":["A","B"]},{"item":"hazards","op":"one_of","values":["Wet floor"]}]}},
      {"key":"b","kind":"pass_fail","label":"B","help":null,"required":false,"weight":1,
       "show_when":{"match":"all","conditions":[{"item":"temp","op":"between","min":3,"max":5}]}},
      {"key":"c","kind":"pass_fail","label":"C","help":null,"required":false,"weight":1,
       "show_when":{"match":"all","conditions":[{"item":"kitchen","op":"not_equals","value":"yes"}]}},
      {"key":"d","kind":"pass_fail","label":"D","help":null,"required":false,"weight":1,
       "show_when":{"match":"all","conditions":[{"item":"hazards","op":"none_of","values":["Wet floor"]}]}},
      {"key":"e","kind":"pass_fail","label":"E","help":null,"required":false,"weight":1,
       "show_when":{"match":"all","conditions":[{"item":"kitchen","op":"not_answered"}]}},
      {"key":"f","kind":"pass_fail","label":"F","help":null,"required":false,"weight":1,
       "show_when":{"match":"all","conditions":[{"item":"temp","op":"greater_than","value":2},{"item":"grade","op":"failed"}]}}
    ]}'::jsonb));
$$;
create function pg_temp.hidden(answer_values jsonb) returns jsonb language sql as $$
  select private.template_visibility(pg_temp.logic(), answer_values);
$$;

select is(private.template_definition_problem(pg_temp.logic()), null, 'the logic fixture is a valid definition');
select is(pg_temp.hidden('{}'),
  '{"hidden_items": ["temp", "probe", "fridge", "a", "b", "c", "d", "f"], "hidden_sections": ["kitchen-checks"]}',
  'with no answers: every test but not answered needs an answer, so only e shows of the ruled items');
select is(pg_temp.hidden('{"kitchen":"yes","temp":7}'),
  '{"hidden_items": ["a", "b", "c", "d", "e", "f"], "hidden_sections": []}',
  'Yes shows the temperature, its failing answer the thermometer photo, and the kitchen section');
select is(pg_temp.hidden('{"kitchen":"no","temp":7}'),
  '{"hidden_items": ["temp", "probe", "fridge", "a", "b", "d", "e", "f"], "hidden_sections": ["kitchen-checks"]}',
  'No hides them again; the kept temperature counts as no answer, so the photo hides too (hiding cascades)');
select is(pg_temp.hidden('{"kitchen":"yes","temp":3}') -> 'hidden_items', '["probe", "a", "c", "d", "e", "f"]', 'between includes its minimum');
select is(pg_temp.hidden('{"kitchen":"yes","temp":5.5}') -> 'hidden_items', '["a", "b", "c", "d", "e", "f"]', 'and stops at its maximum');
select is(pg_temp.hidden('{"hazards":["Blocked exit","Wet floor"]}') -> 'hidden_items', '["temp", "probe", "fridge", "b", "c", "d", "f"]',
  'one of holds for a multiple choice holding any of the options (any: one condition is enough); none of does not');
select is(pg_temp.hidden('{"hazards":["None"]}') -> 'hidden_items', '["temp", "probe", "fridge", "a", "b", "c", "f"]',
  'none of holds when no chosen option is listed');
select is(pg_temp.hidden('{"kitchen":"yes","temp":4,"grade":"C"}') -> 'hidden_items', '["probe", "a", "c", "d", "e"]',
  'all: greater than and is failed both hold');
select is(pg_temp.hidden('{"kitchen":"yes","temp":1,"grade":"C"}') -> 'hidden_items', '["probe", "a", "b", "c", "d", "e", "f"]',
  'all: one failing condition hides');
select is(private.hidden_item_keys(pg_temp.logic(), '{"kitchen":"no"}'), '{temp,probe,fridge,a,b,d,e,f}', 'hidden_item_keys lists the hidden items');
select is(private.template_visibility((select jsonb_build_object('sections', jsonb_build_array(jsonb_build_object('key', 's', 'title', 'S', 'items', pg_temp.site_items() #- '{1,show_when}' #- '{2,show_when}')))), '{}'),
  '{"hidden_items": [], "hidden_sections": []}', 'a definition without rules hides nothing');

-- 3. Inspections ------------------------------------------------------------------------------

insert into public.sites (org_id, name) select org_a, 'Diner' from actors;
insert into public.templates (org_id, name, definition) select org_a, 'Diner audit', pg_temp.logic() from actors;
insert into public.template_versions (template_id) select id from public.templates where name = 'Diner audit';
alter table actors add column site uuid, add column template uuid, add column first uuid, add column second uuid;
update actors set site = (select id from public.sites s where s.name = 'Diner' and s.org_id = actors.org_a),
                  template = (select id from public.templates t where t.name = 'Diner audit' and t.org_id = actors.org_a);
update actors set first = tests.create_inspection(org_a, site, template, 'in_progress', inspector),
                  second = tests.create_inspection(org_a, site, template, 'in_progress', inspector);

create function pg_temp.answer(inspection uuid, answer_values jsonb) returns void language plpgsql as $$
begin
  perform tests.act_as((select inspector from actors));
  insert into public.answers (inspection_id, item_key, value)
  select inspection, a.key, a.value from jsonb_each(answer_values) a
  on conflict (inspection_id, item_key) do update set value = excluded.value;
  perform tests.reset_role();
end;
$$;
create function pg_temp.move(actor uuid, inspection uuid, target public.inspection_status) returns text language plpgsql as $$
declare
  problem text;
begin
  perform tests.act_as(actor);
  problem := tests.error_of(format('update public.inspections set status = %L where id = %L', target, inspection));
  perform tests.reset_role();
  return problem;
end;
$$;
create function pg_temp.totals(inspection uuid) returns text language sql as $$
  select format('score %s of %s, %s failed, hidden %s', score, max_score, failed_count, hidden_item_keys)
  from public.inspections where id = inspection;
$$;

select is(pg_temp.totals((select first from actors)), 'score 0 of 0, 0 failed, hidden {temp,probe,fridge,a,b,c,d,f}',
  'a new inspection already knows what its rules hide before any answer');
select pg_temp.answer((select first from actors), '{"kitchen":"no","temp":7,"fridge":"fail"}');
select is(pg_temp.totals((select first from actors)), 'score 0 of 0, 0 failed, hidden {temp,probe,fridge,a,b,d,e,f}',
  'answers to hidden items are accepted but not scored: no failed count, no weight');
select results_eq($$select item_key, failed, weight from public.answers where inspection_id = (select first from actors) order by item_key$$,
  $$values ('fridge', true, 3::numeric), ('kitchen', null, 0::numeric), ('temp', true, 2::numeric)$$,
  'the hidden answers are kept with their own failed and weight');
select pg_temp.answer((select first from actors), '{"kitchen":"yes"}');
select is(pg_temp.totals((select first from actors)), 'score 0 of 5, 2 failed, hidden {a,b,c,d,e,f}',
  'Yes shows them: the kept answers count again');
select is(pg_temp.move((select inspector from actors), (select first from actors), 'submitted'),
  'required_items_missing {"n" : 1, "missing" : ["probe"]}', 'a required item shown by a failing answer blocks submit');
select pg_temp.answer((select first from actors), '{"temp":3,"grade":"C"}');
select is(pg_temp.totals((select first from actors)), 'score 2 of 6, 2 failed, hidden {probe,a,c,d,e}',
  'a passing temperature hides the photo again; a failed grade shows f');
select is(pg_temp.move((select inspector from actors), (select first from actors), 'submitted'), null, 'and submit goes through');
select results_eq($$select item_key from public.actions where inspection_id = (select first from actors) order by item_key$$,
  $$values ('fridge'), ('grade')$$, 'one action per failed item that shows');

select pg_temp.answer((select second from actors), '{"kitchen":"no","temp":7,"fridge":"fail"}');
select is(pg_temp.move((select inspector from actors), (select second from actors), 'submitted'), null,
  'a required item of a hidden section does not block submit');
select is((select count(*)::int from public.actions where inspection_id = (select second from actors)), 0,
  'and hidden failed items open no action');

-- Sent back; the inspector answers No, which hides the fridge and its failing answer.
select pg_temp.move((select manager from actors), (select first from actors), 'changes_requested');
select pg_temp.move((select inspector from actors), (select first from actors), 'in_progress');
select pg_temp.answer((select first from actors), '{"kitchen":"no"}');
select is(pg_temp.totals((select first from actors)), 'score 0 of 1, 1 failed, hidden {temp,probe,fridge,a,b,d,e,f}',
  'hiding takes the kept failures out of the totals');
select is(pg_temp.move((select inspector from actors), (select first from actors), 'submitted'), null, 'submitted again');
select results_eq($$select item_key, item_passed_at is not null from public.actions where inspection_id = (select first from actors) order by item_key$$,
  $$values ('fridge', true), ('grade', false)$$, 'the action of the item hidden since is marked as no longer failing');
select is((select count(*)::int from public.audit_log where entity = 'inspections' and action = 'update'
           and entity_id = (select first from actors) and (after ? 'hidden_item_keys' or before ? 'hidden_item_keys')), 0,
  'which items are hidden is not an audit entry of its own');

select * from finish();
rollback;
