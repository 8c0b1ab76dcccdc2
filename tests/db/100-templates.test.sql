-- Templates and their versions: every actor of the matrix against read, create, edit, publish
-- and archive (members read, owners, admins and managers build, nobody else changes anything);
-- the definition rules of private.template_definition_problem with accepted and refused
-- examples for every kind and every limit; versions numbered 1, 2, 3 by the database and never
-- changed by anyone, the superuser included; archived templates frozen; audit, broadcast, MFA.
begin;
select plan(177);

create temp table actors on commit drop as select * from tests.create_org_matrix('100');
alter table actors add column t_a uuid, add column t_b uuid, add column empty_a uuid, add column guarded uuid;

-- An item of `kind` with the base fields, plus the kind's settings.
create function pg_temp.item(key text, kind text, extras jsonb default '{}') returns jsonb language sql immutable as $$
  select jsonb_build_object('key', key, 'kind', kind, 'label', 'Label ' || key, 'help', null, 'required', false, 'weight', 1) || extras;
$$;
-- A definition of one section holding `items`.
create function pg_temp.one_section(items jsonb) returns jsonb language sql immutable as $$
  select jsonb_build_object('sections', jsonb_build_array(jsonb_build_object('key', 's', 'title', 'Section', 'items', items)));
$$;
-- The problem the database finds in a definition of one section with this one item.
create function pg_temp.item_problem(item jsonb) returns text language sql immutable as $$
  select private.template_definition_problem(pg_temp.one_section(jsonb_build_array(item)));
$$;

-- Every kind once, with its settings in use.
create temp table fixtures on commit drop as
select jsonb_build_object('sections', jsonb_build_array(
  jsonb_build_object('key', 'kitchen', 'title', 'Kitchen', 'items', jsonb_build_array(
    pg_temp.item('pf', 'pass_fail') || '{"required": true, "help": "Look under the counters."}',
    pg_temp.item('yn', 'yes_no', '{"fail_on": "no"}'),
    pg_temp.item('temp', 'number', '{"min": 0, "max": 5, "unit": "°C", "weight": 2.5}'),
    pg_temp.item('notes', 'text'))),
  jsonb_build_object('key', 'records', 'title', 'Records', 'items', jsonb_build_array(
    pg_temp.item('state', 'single_choice', '{"options": ["Good", "Fair", "Poor"], "failing_options": ["Poor"]}'),
    pg_temp.item('seen', 'multi_choice', '{"options": ["Logs", "Labels"], "failing_options": []}'),
    pg_temp.item('day', 'date'),
    pg_temp.item('photos', 'photo', '{"max_photos": 3}'),
    pg_temp.item('sig', 'signature', '{"weight": 0}'))))) as every_kind;

with t as (insert into public.templates (org_id, name, definition) select org_a, 'Audit A', (select every_kind from fixtures) from actors returning id)
update actors set t_a = (select id from t);
with t as (insert into public.templates (org_id, name, definition) select org_b, 'Audit B', (select every_kind from fixtures) from actors returning id)
update actors set t_b = (select id from t);
with t as (insert into public.templates (org_id, name) select org_a, 'Empty A' from actors returning id)
update actors set empty_a = (select id from t);
insert into public.template_versions (template_id) select t_b from actors;
grant select on actors, fixtures to anon, authenticated, service_role;

-- Read: members of the organization, templates and versions alike.
select tests.act_as_anon();
select throws_ok($$select count(*) from public.templates$$, '42501', null, 'anon cannot read templates');
select throws_ok($$select count(*) from public.template_versions$$, '42501', null, 'anon cannot read template versions');
select tests.act_as((select outsider from actors));
select is((select count(*)::int from public.templates), 0, 'a signed-in non-member sees no template');
select is((select count(*)::int from public.template_versions), 0, 'a signed-in non-member sees no template version');
select tests.act_as((select b_owner from actors));
select results_eq($$select id from public.templates$$, $$select t_b from actors$$, 'the owner of B sees B''s template only');
select is((select count(*)::int from public.template_versions where org_id <> (select org_b from actors)), 0, 'the owner of B sees no version of A');
select tests.act_as((select viewer from actors));
select results_eq($$select id from public.templates order by name$$, $$select unnest(array[t_a, empty_a]) from actors$$, 'a viewer reads A''s templates');
select tests.act_as((select inspector from actors));
select results_eq($$select id from public.templates order by name$$, $$select unnest(array[t_a, empty_a]) from actors$$, 'an inspector reads A''s templates');
select tests.act_as((select manager from actors));
select results_eq($$select id from public.templates order by name$$, $$select unnest(array[t_a, empty_a]) from actors$$, 'a manager reads A''s templates');
select tests.act_as((select admin from actors));
select results_eq($$select id from public.templates order by name$$, $$select unnest(array[t_a, empty_a]) from actors$$, 'an admin reads A''s templates');
select tests.act_as((select owner from actors));
select results_eq($$select id from public.templates order by name$$, $$select unnest(array[t_a, empty_a]) from actors$$, 'the owner reads A''s templates');

-- Create: owners, admins and managers, as drafts only.
select tests.act_as_anon();
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'By anon' from actors$$, '42501', null, 'anon cannot create a template');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'By outsider' from actors$$, '42501', null, 'a non-member cannot create a template in A');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'By B' from actors$$, '42501', null, 'the owner of B cannot create a template in A');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'By viewer' from actors$$, '42501', null, 'a viewer cannot create a template');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'By inspector' from actors$$, '42501', null, 'an inspector cannot create a template');
select tests.act_as((select manager from actors));
select lives_ok($$insert into public.templates (org_id, name) select org_a, 'By manager' from actors$$, 'a manager creates a template');
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.templates (org_id, name) select org_a, 'By admin' from actors$$, 'an admin creates a template');
select tests.act_as((select owner from actors));
select lives_ok($$insert into public.templates (org_id, name, definition) select org_a, 'By owner', every_kind from actors, fixtures$$,
  'the owner creates a template with a definition');
select throws_ok($$insert into public.templates (org_id, name, status) select org_a, 'Born published', 'published' from actors$$,
  '42501', null, 'a template cannot be inserted published');
select throws_ok($$insert into public.templates (org_id, name, revision) select org_a, 'Revised', 7 from actors$$,
  '42501', null, 'the revision is not the caller''s to set');
select throws_ok($$insert into public.templates (org_id, name, created_by) select org_a, 'Credited', viewer from actors$$,
  '42501', null, 'a template cannot be credited to another user');
select throws_ok($$insert into public.templates (org_id, name) select org_b, 'Into B' from actors$$, '42501', null, 'the owner of A cannot create a template in B');
select is(tests.error_of($$insert into public.templates (org_id, name, definition) select org_a, 'Bad', '{"sections": [{"key": "s"}]}' from actors$$),
  'validation_failed {"field" : "definition.sections.0.title", "message" : "Add this field."}',
  'a bad definition is refused as a form error on its path');
select tests.reset_role();
select results_eq(
  $$select name, status::text, revision, latest_version, created_by from public.templates
    where org_id = (select org_a from actors) and name like 'By %' order by name$$,
  $$select * from (values ('By admin', 'draft', 1, null::int, (select admin from actors)),
                          ('By manager', 'draft', 1, null, (select manager from actors)),
                          ('By owner', 'draft', 1, null, (select owner from actors))) v(name, status, revision, latest_version, created_by)$$,
  'A has the three allowed templates, drafts at revision 1 credited to their author, and none of the refused ones');
select throws_ok($$insert into public.templates (org_id, name, status) select org_a, 'Superuser published', 'published' from actors$$,
  '23514', 'A template starts as a draft; publish it to make version 1.', 'not even the superuser inserts a published template');

-- Edit: owners, admins and managers; each change of the draft bumps the revision.
select tests.act_as_anon();
select throws_ok($$update public.templates set name = 'By anon' where id = (select t_a from actors)$$, '42501', null, 'anon cannot edit a template');
select tests.act_as((select outsider from actors));
select is_empty($$update public.templates set name = 'By outsider' where id = (select t_a from actors) returning 1$$, 'a non-member edits nothing');
select tests.act_as((select b_owner from actors));
select is_empty($$update public.templates set name = 'By B' where id = (select t_a from actors) returning 1$$, 'the owner of B edits nothing in A');
select tests.act_as((select viewer from actors));
select is_empty($$update public.templates set name = 'By viewer' where id = (select t_a from actors) returning 1$$, 'a viewer edits nothing');
select tests.act_as((select inspector from actors));
select is_empty($$update public.templates set name = 'By inspector' where id = (select t_a from actors) returning 1$$, 'an inspector edits nothing');
select tests.reset_role();
select results_eq($$select name, revision from public.templates where id = (select t_a from actors)$$, $$values ('Audit A', 1)$$,
  'the refused edits changed nothing');
select tests.act_as((select manager from actors));
select results_eq($$update public.templates set name = 'Audit A2' where id = (select t_a from actors) returning revision$$, $$values (2)$$,
  'a manager renames a template: revision 2');
select tests.act_as((select admin from actors));
select results_eq($$update public.templates set description = 'Weekly' where id = (select t_a from actors) returning revision$$, $$values (3)$$,
  'an admin describes it: revision 3');
select tests.act_as((select owner from actors));
select results_eq($$update public.templates set name = 'Audit A' where id = (select t_a from actors) returning revision$$, $$values (4)$$,
  'the owner renames it back: revision 4');
select results_eq($$update public.templates set name = 'Audit A' where id = (select t_a from actors) returning revision$$, $$values (4)$$,
  'an update that changes nothing keeps the revision');
select throws_ok($$update public.templates set revision = 1 where id = (select t_a from actors)$$, '42501', null, 'the revision is not the caller''s to set');
select throws_ok($$update public.templates set latest_version = 1 where id = (select t_a from actors)$$, '42501', null, 'latest_version is not the caller''s to set');
select throws_ok($$update public.templates set org_id = org_b from actors where id = t_a$$, '42501', null, 'a template cannot move to another organization');
select throws_ok($$update public.templates set status = 'published' where id = (select t_a from actors)$$,
  '23514', null, 'a draft cannot be marked published without publishing a version');
select is(tests.error_of($$update public.templates set definition = '{"sections": [], "extra": 1}' where id = (select t_a from actors)$$),
  'validation_failed {"field" : "definition.extra", "message" : "This field is not allowed."}', 'an edit to a bad definition is refused on its path');

-- Publish: an insert naming the template; the database numbers it and copies the draft.
select tests.act_as_anon();
select throws_ok($$insert into public.template_versions (template_id) select t_a from actors$$, '42501', null, 'anon cannot publish');
select tests.act_as((select outsider from actors));
select throws_ok($$insert into public.template_versions (template_id) select t_a from actors$$, '42501', null, 'a non-member cannot publish');
select tests.act_as((select b_owner from actors));
select throws_ok($$insert into public.template_versions (template_id) select t_a from actors$$, '42501', null, 'the owner of B cannot publish A''s template');
select tests.act_as((select viewer from actors));
select throws_ok($$insert into public.template_versions (template_id) select t_a from actors$$, '42501', null, 'a viewer cannot publish');
select tests.act_as((select inspector from actors));
select throws_ok($$insert into public.template_versions (template_id) select t_a from actors$$, '42501', null, 'an inspector cannot publish');
select tests.reset_role();
select is((select count(*)::int from public.template_versions where template_id = (select t_a from actors)), 0, 'the refused publishes made no version');
select tests.act_as((select manager from actors));
select results_eq(
  $$insert into public.template_versions (template_id) select t_a from actors returning version, name, definition, published_by$$,
  $$select 1, 'Audit A', every_kind, manager from actors, fixtures$$,
  'a manager publishes version 1: the draft''s name and definition, credited to them');
select results_eq($$select status::text, latest_version from public.templates where id = (select t_a from actors)$$, $$values ('published', 1)$$,
  'the template is published and points at version 1');
select is_empty($$insert into public.template_versions (template_id) select t_a from actors returning 1$$,
  'publishing an unchanged draft inserts no version');
select throws_ok(
  $$insert into public.template_versions (template_id, version, org_id) select t_a, 9, org_a from actors$$,
  '42501', null, 'a caller cannot choose the version number');
select tests.act_as((select admin from actors));
update public.templates set definition = pg_temp.one_section(jsonb_build_array(pg_temp.item('pf', 'pass_fail'))) where id = (select t_a from actors);
select results_eq($$insert into public.template_versions (template_id) select t_a from actors returning version$$, $$values (2)$$,
  'an admin publishes the edited draft as version 2');
select tests.act_as((select owner from actors));
update public.templates set description = 'Monthly' where id = (select t_a from actors);
select results_eq($$insert into public.template_versions (template_id) select t_a from actors returning version, description$$, $$values (3, 'Monthly')$$,
  'the owner publishes a new description as version 3');
select results_eq($$select version, definition from public.template_versions where template_id = (select t_a from actors) order by version$$,
  $$select v, case when v = 1 then every_kind else pg_temp.one_section(jsonb_build_array(pg_temp.item('pf', 'pass_fail'))) end
    from fixtures, generate_series(1, 3) v$$,
  'versions 1, 2 and 3 exist without gaps, version 1 still the definition it was published with');
select results_eq($$select status::text, latest_version, revision from public.templates where id = (select t_a from actors)$$,
  $$values ('published', 3, 6)$$, 'the template points at version 3; publishing did not bump the revision');
select is(tests.error_of($$insert into public.template_versions (template_id) select empty_a from actors$$),
  'validation_failed {"field" : "definition", "message" : "Add at least one item before publishing."}', 'a template without items cannot be published');
select throws_ok($$update public.templates set status = 'draft' where id = (select t_a from actors)$$, 'P0001', 'invalid_transition',
  'a published template cannot go back to draft');
select is(tests.error_of($$update public.templates set status = 'draft' where id = (select t_a from actors)$$),
  'invalid_transition {"thing" : "template", "status" : "published", "verb" : "returned to draft"}', '... and says so about the template');
select tests.reset_role();
select throws_ok($$update public.templates set latest_version = 2 where id = (select t_a from actors)$$,
  '23514', 'latest_version must be the newest published version', 'not even the superuser points a template at an older version');

-- Versions are immutable for everyone.
select tests.act_as((select owner from actors));
select throws_ok($$update public.template_versions set name = 'Changed' where template_id = (select t_a from actors)$$, '42501', null,
  'the owner cannot change a version');
select throws_ok($$delete from public.template_versions where template_id = (select t_a from actors)$$, '42501', null, 'the owner cannot delete a version');
select tests.set_request('service_role', '{"role": "service_role"}');
select throws_ok($$update public.template_versions set definition = '{"sections": []}' where template_id = (select t_a from actors)$$,
  '42501', 'template versions are immutable', 'the service role cannot change a version');
select throws_ok($$delete from public.template_versions where template_id = (select t_a from actors)$$,
  '42501', 'template versions are immutable', 'the service role cannot delete a version');
select tests.reset_role();
select throws_ok($$update public.template_versions set version = 7 where template_id = (select t_a from actors) and version = 1$$,
  '42501', 'template versions are immutable', 'the superuser cannot renumber a version');
select throws_ok($$delete from public.template_versions where template_id = (select t_a from actors)$$,
  '42501', 'template versions are immutable', 'the superuser cannot delete a version');
select throws_ok($$truncate public.template_versions cascade$$, '42501', 'template versions are immutable', 'the superuser cannot truncate the versions');
select throws_ok($$delete from public.templates where id = (select t_a from actors)$$,
  '42501', 'template versions are immutable', 'deleting a published template would delete its versions, so it is refused');
select results_eq($$select version, name from public.template_versions where template_id = (select t_a from actors) order by version$$,
  $$values (1, 'Audit A'), (2, 'Audit A'), (3, 'Audit A')$$, 'the versions are as published');

-- Archive: owners, admins and managers; archived templates are frozen.
select tests.act_as((select inspector from actors));
select is_empty($$update public.templates set status = 'archived' where id = (select t_a from actors) returning 1$$, 'an inspector cannot archive');
select tests.act_as((select viewer from actors));
select is_empty($$update public.templates set status = 'archived' where id = (select t_a from actors) returning 1$$, 'a viewer cannot archive');
select tests.act_as((select b_owner from actors));
select is_empty($$update public.templates set status = 'archived' where id = (select t_a from actors) returning 1$$, 'the owner of B cannot archive A''s');
select tests.act_as((select manager from actors));
select results_eq($$update public.templates set status = 'archived' where id = (select t_a from actors) returning status::text, archived_at is not null$$,
  $$values ('archived', true)$$, 'a manager archives a published template; archived_at is set');
select results_eq($$update public.templates set status = 'archived' where name = 'By manager' returning status::text$$,
  $$values ('archived')$$, 'a manager archives the draft they created');
select tests.act_as((select admin from actors));
select results_eq($$update public.templates set status = 'archived' where id = (select empty_a from actors) returning status::text, latest_version$$,
  $$values ('archived', null::int)$$, 'an admin archives a draft nobody published');
select tests.act_as((select owner from actors));
select results_eq($$update public.templates set status = 'archived' where name = 'By owner' returning status::text$$,
  $$values ('archived')$$, 'the owner archives a template');
select is(tests.error_of($$update public.templates set name = 'Revived' where id = (select t_a from actors)$$),
  'invalid_transition {"thing" : "template", "status" : "archived", "verb" : "edited"}', 'an archived template cannot be edited');
select is(tests.error_of($$update public.templates set status = 'published' where id = (select t_a from actors)$$),
  'invalid_transition {"thing" : "template", "status" : "archived", "verb" : "edited"}', 'an archived template cannot be unarchived');
select is(tests.error_of($$insert into public.template_versions (template_id) select t_a from actors$$),
  'invalid_transition {"thing" : "template", "status" : "archived", "verb" : "published"}', 'an archived template cannot be published');
select tests.reset_role();
select throws_ok($$update public.templates set name = 'Superuser revived' where id = (select t_a from actors)$$, 'P0001', 'invalid_transition',
  'not even the superuser edits an archived template');
select results_eq($$select name, status::text, latest_version, revision from public.templates where id = (select t_a from actors)$$,
  $$values ('Audit A', 'archived', 3, 6)$$, 'the archived template is as it was archived');

-- MFA: an organization that requires it takes template writes from aal2 sessions only.
update public.organizations set require_mfa = true where id = (select org_a from actors);
with t as (insert into public.templates (org_id, name, definition) select org_a, 'Guarded', every_kind from actors, fixtures returning id)
update actors set guarded = (select id from t);
select tests.act_as((select manager from actors), 'aal1');
select throws_ok($$insert into public.templates (org_id, name) select org_a, 'At aal1' from actors$$, 'P0001', 'mfa_required', 'a manager at aal1 cannot create a template');
select throws_ok($$update public.templates set name = 'At aal1' where id = (select guarded from actors)$$, 'P0001', 'mfa_required', 'a manager at aal1 cannot edit a template');
select throws_ok($$insert into public.template_versions (template_id) select guarded from actors$$, 'P0001', 'mfa_required', 'a manager at aal1 cannot publish');
select tests.act_as((select manager from actors), 'aal2');
select results_eq($$insert into public.template_versions (template_id) select guarded from actors returning version$$, $$values (1)$$, 'a manager at aal2 publishes');
select tests.reset_role();
update public.organizations set require_mfa = false where id = (select org_a from actors);

-- Audit and broadcast.
select results_eq(
  $$select action, actor_user_id from public.audit_log where entity = 'template_versions' and entity_id in
    (select id from public.template_versions where template_id = (select t_a from actors)) order by at, id$$,
  $$select 'insert', u from actors, unnest(array[manager, admin, owner]) u$$,
  'each publish is in the audit log with its publisher');
select ok((select count(*) from public.audit_log where entity = 'templates' and entity_id = (select t_a from actors) and action = 'update') >= 5,
  'the template''s edits, publishes and archive are in the audit log');
select ok(exists(select 1 from realtime.messages m where m.topic = 'org:' || (select org_a from actors) and m.event = 'template_created'
  and m.payload ->> 'id' = (select t_a::text from actors) and m.payload ->> 'status' = 'draft'),
  'creating a template broadcasts template_created with its status on the organization topic');
select ok(exists(select 1 from realtime.messages m where m.topic = 'org:' || (select org_a from actors) and m.event = 'template_updated'
  and m.payload ->> 'id' = (select t_a::text from actors) and m.payload ->> 'status' = 'archived'),
  'archiving broadcasts template_updated with the new status');

-- The definition rules: every kind accepted with its settings, each rule refused on its path.
select is(private.template_definition_problem((select every_kind from fixtures)), null, 'a definition with every kind is valid');
select is(private.template_definition_problem('{"sections": []}'), null, 'an empty draft is valid');
select is(private.template_definition_problem('[]'), ': Send the definition as an object with sections.', 'a definition is an object');
select is(private.template_definition_problem('{"sections": [], "title": "x"}'), 'title: This field is not allowed.', 'a definition has only sections');
select is(private.template_definition_problem('{"sections": {}}'), 'sections: List the sections.', 'sections are a list');
select is(private.template_definition_problem(jsonb_build_object('sections',
  (select jsonb_agg(jsonb_build_object('key', 's' || n, 'title', 'S', 'items', '[]'::jsonb)) from generate_series(1, 50) n))), null,
  '50 sections are allowed');
select is(private.template_definition_problem(jsonb_build_object('sections',
  (select jsonb_agg(jsonb_build_object('key', 's' || n, 'title', 'S', 'items', '[]'::jsonb)) from generate_series(1, 51) n))),
  'sections: Use at most 50 sections.', '51 sections are refused');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(
  jsonb_build_object('key', 'a', 'title', 'A', 'items', (select jsonb_agg(pg_temp.item('a' || n, 'text')) from generate_series(1, 250) n)),
  jsonb_build_object('key', 'b', 'title', 'B', 'items', (select jsonb_agg(pg_temp.item('b' || n, 'text')) from generate_series(1, 250) n))))),
  null, '500 items across sections are allowed');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(
  jsonb_build_object('key', 'a', 'title', 'A', 'items', (select jsonb_agg(pg_temp.item('a' || n, 'text')) from generate_series(1, 250) n)),
  jsonb_build_object('key', 'b', 'title', 'B', 'items', (select jsonb_agg(pg_temp.item('b' || n, 'text')) from generate_series(1, 251) n))))),
  'sections: Use at most 500 items in a template (this one has 501).', '501 items across sections are refused');

-- Sections.
select is(private.template_definition_problem('{"sections": ["kitchen"]}'), 'sections.0: Describe the section as an object.', 'a section is an object');
select is(private.template_definition_problem('{"sections": [{"key": "s", "title": "S", "items": [], "open": true}]}'),
  'sections.0.open: This field is not allowed.', 'a section has only key, title and items');
select is(private.template_definition_problem('{"sections": [{"key": "Kitchen", "title": "S", "items": []}]}'),
  'sections.0.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.', 'a section key is lowercase');
select is(private.template_definition_problem('{"sections": [{"key": "s", "title": "S", "items": []}, {"key": "s", "title": "T", "items": []}]}'),
  'sections.1.key: Use a key no other section has.', 'section keys are unique');
select is(private.template_definition_problem('{"sections": [{"key": "s", "title": "", "items": []}]}'),
  'sections.0.title: Enter some text.', 'a section title is not empty');
select is(private.template_definition_problem('{"sections": [{"key": "s", "title": " Kitchen", "items": []}]}'),
  'sections.0.title: Remove the spaces at the start and end.', 'a section title is trimmed');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(jsonb_build_object('key', 's', 'title', repeat('t', 120), 'items', '[]'::jsonb)))),
  null, 'a section title of 120 characters is allowed');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(jsonb_build_object('key', 's', 'title', repeat('t', 121), 'items', '[]'::jsonb)))),
  'sections.0.title: Use at most 120 characters.', 'a section title of 121 characters is refused');
select is(private.template_definition_problem('{"sections": [{"key": "s", "title": "S"}]}'),
  'sections.0.items: List the section''s items.', 'a section lists its items');

-- Every item.
select is(pg_temp.item_problem('"pf"'), 'sections.0.items.0: Describe the item as an object.', 'an item is an object');
select is(pg_temp.item_problem(pg_temp.item('x', 'checkbox')),
  'sections.0.items.0.kind: Choose a kind: pass_fail, yes_no, number, text, single_choice, multi_choice, date, photo, signature.', 'an unknown kind is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'pass_fail') - 'help'), 'sections.0.items.0.help: Add this field.', 'every base field is present');
select is(pg_temp.item_problem(pg_temp.item('x-1_a', 'pass_fail')), null, 'keys may hold digits, - and _');
select is(pg_temp.item_problem(pg_temp.item('_x', 'pass_fail')),
  'sections.0.items.0.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.', 'a key starts with a letter or digit');
select is(pg_temp.item_problem(pg_temp.item(repeat('k', 64), 'pass_fail')), null, 'a key of 64 characters is allowed');
select is(pg_temp.item_problem(pg_temp.item(repeat('k', 65), 'pass_fail')),
  'sections.0.items.0.key: Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.', 'a key of 65 characters is refused');
select is(private.template_definition_problem(jsonb_build_object('sections', jsonb_build_array(
  jsonb_build_object('key', 'a', 'title', 'A', 'items', jsonb_build_array(pg_temp.item('same', 'text'))),
  jsonb_build_object('key', 'b', 'title', 'B', 'items', jsonb_build_array(pg_temp.item('same', 'date')))))),
  'sections.1.items.0.key: Use a key no other item has.', 'item keys are unique across sections');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || jsonb_build_object('label', repeat('l', 500))), null, 'a label of 500 characters is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || jsonb_build_object('label', repeat('l', 501))),
  'sections.0.items.0.label: Use at most 500 characters.', 'a label of 501 characters is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"label": "Clean? "}'),
  'sections.0.items.0.label: Remove the spaces at the start and end.', 'a label is trimmed');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || jsonb_build_object('help', repeat('h', 2000))), null, 'help of 2000 characters is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || jsonb_build_object('help', repeat('h', 2001))),
  'sections.0.items.0.help: Use at most 2000 characters.', 'help of 2001 characters is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"help": ""}'), 'sections.0.items.0.help: Enter some text.', 'empty help is null, not ""');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"required": "yes"}'), 'sections.0.items.0.required: Use true or false.', 'required is a boolean');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"weight": 0}'), null, 'a weight of 0 is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"weight": 100}'), null, 'a weight of 100 is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"weight": 100.5}'), 'sections.0.items.0.weight: Enter a weight from 0 to 100.', 'a weight above 100 is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"weight": -1}'), 'sections.0.items.0.weight: Enter a weight from 0 to 100.', 'a negative weight is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'text') || '{"weight": "1"}'), 'sections.0.items.0.weight: Enter a weight from 0 to 100.', 'a weight is a number');

-- pass_fail, text, date, signature: no settings of their own.
select is(pg_temp.item_problem(pg_temp.item('x', 'pass_fail')), null, 'pass_fail is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'pass_fail', '{"fail_on": "no"}')), 'sections.0.items.0.fail_on: This field is not allowed.', 'pass_fail takes no fail_on');
select is(pg_temp.item_problem(pg_temp.item('x', 'text')), null, 'text is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'text', '{"max_length": 10}')), 'sections.0.items.0.max_length: This field is not allowed.', 'text takes no other setting');
select is(pg_temp.item_problem(pg_temp.item('x', 'date')), null, 'date is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'date', '{"min": 1}')), 'sections.0.items.0.min: This field is not allowed.', 'date takes no range');
select is(pg_temp.item_problem(pg_temp.item('x', 'signature')), null, 'signature is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'signature', '{"max_photos": 1}')), 'sections.0.items.0.max_photos: This field is not allowed.', 'signature takes no photo count');

-- yes_no.
select is(pg_temp.item_problem(pg_temp.item('x', 'yes_no', '{"fail_on": null}')), null, 'yes_no failing on neither is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'yes_no', '{"fail_on": "yes"}')), null, 'yes_no failing on yes is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'yes_no', '{"fail_on": "maybe"}')), 'sections.0.items.0.fail_on: Choose yes, no or neither.', 'fail_on is yes, no or null');
select is(pg_temp.item_problem(pg_temp.item('x', 'yes_no')), 'sections.0.items.0.fail_on: Add this field.', 'yes_no has fail_on');

-- number.
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": null, "max": null, "unit": null}')), null, 'a number without range or unit is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": 5, "max": 5, "unit": "kg"}')), null, 'min equal to max is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": -2.5, "max": null, "unit": null}')), null, 'a lower bound alone is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": 6, "max": 5, "unit": null}')),
  'sections.0.items.0.max: Use a maximum at least as large as the minimum.', 'min above max is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": "1", "max": null, "unit": null}')),
  'sections.0.items.0.min: Enter a number, or leave it empty.', 'min is a number');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": null, "max": true, "unit": null}')),
  'sections.0.items.0.max: Enter a number, or leave it empty.', 'max is a number');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', jsonb_build_object('min', null, 'max', null, 'unit', repeat('u', 20)))), null, 'a unit of 20 characters is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', jsonb_build_object('min', null, 'max', null, 'unit', repeat('u', 21)))),
  'sections.0.items.0.unit: Use at most 20 characters.', 'a unit of 21 characters is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": null, "max": null, "unit": ""}')), 'sections.0.items.0.unit: Enter some text.', 'an empty unit is null');
select is(pg_temp.item_problem(pg_temp.item('x', 'number', '{"min": null, "max": null}')), 'sections.0.items.0.unit: Add this field.', 'a number has a unit field');

-- single_choice and multi_choice.
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', '{"options": ["Good", "Poor"], "failing_options": ["Poor"]}')), null, 'single_choice is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', '{"options": ["A", "B"], "failing_options": []}')), null, 'multi_choice without failing options is accepted');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', '{"options": [], "failing_options": []}')),
  'sections.0.items.0.options: Add at least one option.', 'a choice has at least one option');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', '{"options": "A", "failing_options": []}')),
  'sections.0.items.0.options: Add at least one option.', 'options are a list');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', jsonb_build_object('options', (select jsonb_agg('o' || n) from generate_series(1, 50) n), 'failing_options', '[]'::jsonb))),
  null, '50 options are allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', jsonb_build_object('options', (select jsonb_agg('o' || n) from generate_series(1, 51) n), 'failing_options', '[]'::jsonb))),
  'sections.0.items.0.options: Use at most 50 options.', '51 options are refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', '{"options": ["A", "A"], "failing_options": []}')),
  'sections.0.items.0.options.1: Remove the repeated option.', 'options are unique');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', jsonb_build_object('options', jsonb_build_array(repeat('o', 121)), 'failing_options', '[]'::jsonb))),
  'sections.0.items.0.options.0: Use at most 120 characters.', 'an option of 121 characters is refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', '{"options": [1], "failing_options": []}')),
  'sections.0.items.0.options.0: Use text.', 'an option is text');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', '{"options": ["A", "B"], "failing_options": ["C"]}')),
  'sections.0.items.0.failing_options.0: Choose failing options from the item''s options.', 'failing options are among the options');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', '{"options": ["A", "B"], "failing_options": ["B", "B"]}')),
  'sections.0.items.0.failing_options.1: Remove the repeated failing option.', 'failing options are unique');
select is(pg_temp.item_problem(pg_temp.item('x', 'multi_choice', '{"options": ["A"], "failing_options": "A"}')),
  'sections.0.items.0.failing_options: List the failing options.', 'failing options are a list');
select is(pg_temp.item_problem(pg_temp.item('x', 'single_choice', '{"options": ["A"]}')),
  'sections.0.items.0.failing_options: Add this field.', 'a choice has failing_options');

-- photo.
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": 1}')), null, 'one photo is allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": 10}')), null, 'ten photos are allowed');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": 0}')), 'sections.0.items.0.max_photos: Enter a whole number of photos from 1 to 10.', 'zero photos are refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": 11}')), 'sections.0.items.0.max_photos: Enter a whole number of photos from 1 to 10.', 'eleven photos are refused');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": 2.5}')), 'sections.0.items.0.max_photos: Enter a whole number of photos from 1 to 10.', 'a photo count is whole');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"max_photos": "3"}')), 'sections.0.items.0.max_photos: Enter a whole number of photos from 1 to 10.', 'a photo count is a number');
select is(pg_temp.item_problem(pg_temp.item('x', 'photo', '{"options": ["A"], "max_photos": 1}')), 'sections.0.items.0.options: This field is not allowed.', 'a photo item takes no options');

-- The constraints hold even with every trigger switched off (replica mode).
set local session_replication_role = replica;
select throws_ok($$update public.templates set definition = '{"sections": [{"key": "S"}]}' where id = (select t_b from actors)$$,
  '23514', null, 'templates_definition_check refuses a bad definition without the triggers');
select throws_ok(
  $$insert into public.template_versions (org_id, template_id, version, name, definition) select org_b, t_b, 9, 'X', '{"sections": [{"key": "S"}]}' from actors$$,
  '23514', null, 'template_versions_definition_check refuses a bad definition without the triggers');
select throws_ok(
  $$insert into public.template_versions (org_id, template_id, version, name, definition) select org_b, t_b, 9, 'X', '{"sections": []}' from actors$$,
  '23514', null, 'template_versions_definition_check refuses a version without items');
set local session_replication_role = origin;

-- Deleting a user keeps what they made (published_by and created_by become null); deleting the
-- organization takes its templates and versions with it.
select lives_ok($$delete from auth.users where id = (select manager from actors)$$, 'a user who published and archived can be deleted');
select results_eq($$select version, name, published_by from public.template_versions where template_id = (select t_a from actors) order by version$$,
  $$values (1, 'Audit A', null::uuid), (2, 'Audit A', (select admin from actors)), (3, 'Audit A', (select owner from actors))$$,
  'deleting the user who published version 1 only cleared its published_by');
select results_eq($$select status::text, created_by from public.templates where name = 'By manager'$$, $$values ('archived', null::uuid)$$,
  'their archived template stays archived, credited to nobody');
select lives_ok($$delete from public.organizations where id = (select org_a from actors)$$, 'an organization with published templates can be deleted');
select is((select count(*)::int from public.template_versions v where v.org_id = (select org_a from actors)), 0, '... and its versions went with it');
select is((select count(*)::int from public.templates t where t.org_id = (select org_a from actors)), 0, '... and its templates');

select * from finish();
rollback;
