-- A version's item count is stored beside its definition (issue 15: the inspections list reads
-- it instead of walking each definition per row), equal to what private.template_item_count
-- says, and nobody can set it, the owner of the table included.
begin;
select plan(4);

create temp table actors on commit drop as select * from tests.create_org_matrix('105');
alter table actors add column t uuid;
with t as (
  insert into public.templates (org_id, name, definition)
  select org_a, 'Counted', '{"sections": [
    {"key": "a", "title": "A", "items": [
      {"key": "one", "kind": "pass_fail", "label": "One", "help": null, "required": false, "weight": 1},
      {"key": "two", "kind": "text", "label": "Two", "help": null, "required": false, "weight": 0}]},
    {"key": "b", "title": "B", "items": [
      {"key": "three", "kind": "yes_no", "label": "Three", "help": null, "required": false, "weight": 1, "fail_on": "no"}]}]}'::jsonb
  from actors returning id)
update actors set t = (select id from t);
insert into public.template_versions (template_id) select t from actors;

select is((select item_count from public.template_versions where template_id = (select t from actors)), 3,
  'a published version stores its item count (3 items in 2 sections)');
select is((select count(*)::int from public.template_versions where item_count is distinct from private.template_item_count(definition)), 0,
  'every version''s stored count is what template_item_count says');
select throws_ok($$update public.template_versions set item_count = 99 where template_id = (select t from actors)$$, '428C9', null,
  'nobody can set the stored count');
select is((select item_count from public.template_versions where template_id = (select t from actors)), 3, 'the count is unchanged');

select * from finish();
rollback;
