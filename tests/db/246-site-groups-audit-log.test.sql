-- The audit log by site group (issue 27 part 2): an entry about something at a site (the site,
-- its inspections, answers, photos, actions, action photos, schedules and their sites) is read by
-- a limited inspector, manager, viewer and key only while that site is in their groups or below;
-- entries about what is org-wide by nature (templates) stay readable; entries about a group they
-- do not see are not; moving the site out hides its entries at the next statement; org-wide
-- members, owners and admins read every entry as before.
begin;
select plan(14);

create temp table actors on commit drop as select * from tests.create_site_group_world('246');
alter table actors add column north_action uuid, add column south_action uuid, add column north_schedule uuid, add column south_schedule uuid;
update actors set north_action = tests.create_action(org_a, north_site), south_action = tests.create_action(org_a, south_site);
insert into public.answers (org_id, inspection_id, item_key, value)
  select org_a, i, 'floor', '"pass"' from actors, unnest(array[north_insp, south_insp]) i;
insert into public.attachments (org_id, inspection_id, item_key, object_path, content_type, byte_size)
  select org_a, i, 'photo', org_a || '/' || i || '/photo/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
  from actors, unnest(array[north_insp, south_insp]) i;
insert into public.action_attachments (org_id, action_id, object_path, content_type, byte_size)
  select org_a, a, org_a || '/actions/' || a || '/' || gen_random_uuid() || '.jpg', 'image/jpeg', 10
  from actors, unnest(array[north_action, south_action]) a;
-- Far in the future: the schedules make no inspections in this file.
insert into public.schedules (org_id, name, template_id, rrule, start_date, time_of_day, due_after)
  select org_a, v.name, template, 'FREQ=WEEKLY;BYDAY=MO', '2099-01-05', '08:00', 'P1D' from actors, (values ('North rounds'), ('South rounds')) v (name);
update actors set north_schedule = (select id from public.schedules where name = 'North rounds'),
                  south_schedule = (select id from public.schedules where name = 'South rounds');
insert into public.schedule_sites (schedule_id, site_id) select north_schedule, north_site from actors union all select south_schedule, south_site from actors;
update public.templates set description = 'Audited' where id = (select template from actors);
update public.site_groups set name = 'South region' where id = (select south from actors);
update public.site_groups set name = 'North region' where id = (select north from actors);
update public.sites set address = '1 Loose Lane' where id = (select loose_site from actors);
grant select on actors to anon, authenticated;

-- What the entries are about.
create temp table subjects on commit drop as
  select v.label, v.entity, v.entity_id from actors a, lateral (values
    ('North site', 'sites', a.north_site), ('South site', 'sites', a.south_site), ('loose site', 'sites', a.loose_site),
    ('North inspection', 'inspections', a.north_insp), ('South inspection', 'inspections', a.south_insp),
    ('North answer', 'answers', (select id from public.answers where inspection_id = a.north_insp)),
    ('South answer', 'answers', (select id from public.answers where inspection_id = a.south_insp)),
    ('North photo', 'attachments', (select id from public.attachments where inspection_id = a.north_insp)),
    ('South photo', 'attachments', (select id from public.attachments where inspection_id = a.south_insp)),
    ('North action', 'actions', a.north_action), ('South action', 'actions', a.south_action),
    ('North action photo', 'action_attachments', (select id from public.action_attachments where action_id = a.north_action)),
    ('South action photo', 'action_attachments', (select id from public.action_attachments where action_id = a.south_action)),
    ('North schedule', 'schedules', a.north_schedule), ('South schedule', 'schedules', a.south_schedule),
    ('North schedule sites', 'schedule_sites', a.north_schedule), ('South schedule sites', 'schedule_sites', a.south_schedule),
    ('North group', 'site_groups', a.north), ('South group', 'site_groups', a.south),
    ('template', 'templates', a.template)) v (label, entity, entity_id);
grant select on subjects to anon, authenticated;
select is((select count(*)::int from subjects s where not exists (select 1 from public.audit_log l where l.entity = s.entity and l.entity_id = s.entity_id)), 0,
  'every subject has entries in the audit log');

-- The subjects of which the caller reads at least one entry.
create function pg_temp.subjects_read() returns text language sql as $$
  select coalesce(string_agg(s.label, ', ' order by s.label), '') from subjects s
  where exists (select 1 from public.audit_log l where l.entity = s.entity and l.entity_id = s.entity_id);
$$;
grant execute on all functions in schema pg_temp to anon, authenticated;

create temp table everything on commit drop as select pg_temp.subjects_read() as labels;
grant select on everything to authenticated;
create temp table north_only (labels text) on commit drop;
insert into north_only values ('North action, North action photo, North answer, North group, North inspection, North photo, North schedule, North schedule sites, North site, template');
grant select on north_only to authenticated;

select tests.act_as((select owner from actors));
select is(pg_temp.subjects_read(), (select labels from everything), 'the owner reads entries about every subject');
select tests.act_as((select manager from actors));
select is(pg_temp.subjects_read(), (select labels from everything), 'so does an org-wide manager');
select tests.act_as((select viewer from actors));
select is(pg_temp.subjects_read(), (select labels from everything), 'and an org-wide viewer');
select tests.act_as_api_key((select k_wide from actors));
select is(pg_temp.subjects_read(), (select labels from everything), 'and an org-wide key');
select tests.act_as((select l_manager from actors));
select is(pg_temp.subjects_read(), (select labels from north_only),
  'a manager limited to North reads the entries about North''s site and what is at it, North''s group and the template; none about South''s or the ungrouped site, nor the South group');
select tests.act_as((select l_inspector from actors));
select is(pg_temp.subjects_read(), (select labels from north_only), 'so does a limited inspector');
select tests.act_as((select l_viewer from actors));
select is(pg_temp.subjects_read(), (select labels from north_only), 'and a limited viewer');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.subjects_read(), (select labels from north_only), 'and a limited key');
select tests.act_as((select b_owner from actors));
select is(pg_temp.subjects_read(), '', 'the owner of B reads no entry of A');

-- Moving North's site out hides every entry about it and what is at it, at the next statement.
select tests.act_as((select owner from actors));
update public.sites set group_id = (select south from actors) where id = (select north_site from actors);
select tests.act_as((select l_viewer from actors));
select is(pg_temp.subjects_read(), 'North group, template', 'with North''s site moved to South, the limited viewer reads only the entries about North''s group and the template');
select tests.act_as_api_key((select k_limited from actors));
select is(pg_temp.subjects_read(), 'North group, template', 'and so does the limited key');
select tests.act_as((select viewer from actors));
select is(pg_temp.subjects_read(), (select labels from everything), 'the org-wide viewer still reads every subject''s');
select is((select count(*)::int from public.audit_log l where l.entity = 'sites' and l.entity_id = (select north_site from actors) and l.action = 'update'
             and l.after ->> 'group_id' = (select south::text from actors)), 1, 'including the move itself');

select * from finish();
rollback;
