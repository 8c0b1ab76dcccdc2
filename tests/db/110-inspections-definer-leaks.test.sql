-- Security definer code of inspections tells nobody about another organization's rows.
-- private.missing_required_items reads answers and attachments past RLS for any inspection id, so
-- the API roles may not call it themselves (an outsider would learn another organization's item
-- keys and progress); the submit transition, which calls it as the trigger's owner, still names
-- the missing items to the member submitting. Scheduling without an organization is refused
-- before the consistency checks, which would otherwise describe another organization's site.
begin;
select plan(9);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('110g') m, tests.create_published_template(m.org_a, '[
    {"key":"floor","kind":"pass_fail","label":"Floor clean","help":null,"required":true,"weight":1}]') p;
alter table actors add column b_archived_site uuid, add column inspection uuid;
update actors set inspection = tests.create_inspection(org_a, site, template);
with created as (insert into public.sites (org_id, name, archived_at) select org_b, 'Closed depot B', now() from actors returning id)
update actors set b_archived_site = (select id from created);
grant select on actors to anon, authenticated, service_role;

-- Scheduling: B's archived site, named by A's manager.
select tests.act_as((select manager from actors));
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select null, b_archived_site, template from actors$$,
  '42501', null, 'without an organization the insert is refused before anything about B''s site is checked');
select throws_ok($$insert into public.inspections (org_id, site_id, template_id) select org_a, b_archived_site, template from actors$$,
  'P0001', 'validation_failed', 'in their own organization the checks run');
create temp table schedule_error (detail jsonb) on commit drop;
grant all on schedule_error to authenticated;
do $$
begin
  insert into public.inspections (org_id, site_id, template_id) select org_a, b_archived_site, template from actors;
exception when others then
  declare detail_text text;
  begin
    get stacked diagnostics detail_text = pg_exception_detail;
    insert into schedule_error values (detail_text::jsonb);
  end;
end;
$$;
select is((select detail ->> 'message' from schedule_error), 'Choose a site of this organization.',
  'and say only that the site is not theirs, not that it is archived');

select tests.act_as((select b_owner from actors));
select throws_ok($$select private.missing_required_items(inspection, version_id) from actors$$,
  '42501', null, 'the owner of B cannot read which items of A''s inspection are missing');
select tests.act_as((select inspector from actors));
select throws_ok($$select private.missing_required_items(inspection, version_id) from actors$$,
  '42501', null, 'a member cannot call it directly either');
select tests.act_as_anon();
select throws_ok($$select private.missing_required_items(inspection, version_id) from actors$$,
  '42501', null, 'anon cannot call it');

select tests.set_request('service_role', '{"role":"service_role"}');
select is((select private.missing_required_items(inspection, version_id) from actors), array['floor'],
  'the service role may call it');

-- The other side: submitting still checks the required items, as the trigger's owner.
select tests.act_as((select inspector from actors));
select throws_ok($$update public.inspections set status = 'submitted' where id = (select inspection from actors)$$,
  'P0001', 'required_items_missing', 'a member submitting is still told that required items are missing');
select tests.reset_role();
insert into public.answers (org_id, inspection_id, item_key, value) select org_a, inspection, 'floor', '"pass"' from actors;
select tests.act_as((select inspector from actors));
with changed as (update public.inspections set status = 'submitted' where id = (select inspection from actors) returning 1)
select is(count(*)::int, 1, 'and submits once they are answered') from changed;

select * from finish();
rollback;
