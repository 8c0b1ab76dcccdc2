-- Realtime by site group (issue 27 part 2; the contract's "Realtime topics"), with the policies on
-- realtime.messages evaluated as Realtime does (the caller's role and claims, realtime.topic set):
-- `org:<org>` admits org-wide principals only; `org:<org>:group:<g>` a limited principal for every
-- group it sees (its groups and their descendants, not their parents); `org:<org>:shared` every
-- member and key of the organization; `inspection:<id>` only those who see the inspection's site,
-- ending the moment the site is moved out; presence on the group topics one may join, never on
-- the shared one. And the triggers: an event about something at a site also goes, unchanged, to
-- the topics of its site's group and each ancestor (a site moved: its old groups' and its new
-- ones'); one about something at no site (templates, members) to `org:<org>:shared`.
begin;
select plan(56);

create temp table actors on commit drop as select * from tests.create_site_group_world('248');
alter table actors add column l_harbour uuid, add column b_group uuid;
update actors set l_harbour = tests.create_limited_member(org_a, 'l-harbour-248@example.test', 'inspector', array[harbour]),
                  b_group = tests.create_site_group(org_b, 'B region');
grant select on actors to anon, authenticated;

-- Which extensions `who` (a user, or with is_key an API key) may receive on `topic`: probe rows as
-- the superuser, read as the caller (as tests/db/120-answers-live does).
create function pg_temp.receives(who uuid, topic text, is_key boolean default false) returns text language plpgsql as $$
declare
  seen text;
begin
  perform tests.reset_role();
  insert into realtime.messages (topic, extension) values (receives.topic, 'broadcast'), (receives.topic, 'presence');
  if is_key then perform tests.act_as_api_key(who); else perform tests.act_as(who); end if;
  perform set_config('realtime.topic', receives.topic, true);
  select coalesce(string_agg(m.extension, ',' order by m.extension), '') into seen
  from realtime.messages m where m.topic = receives.topic and m.event is null;
  perform tests.reset_role();
  delete from realtime.messages m where m.topic = receives.topic and m.event is null;
  return seen;
end;
$$;
-- Whether `who` may receive broadcasts on `topic`.
create function pg_temp.hears(who uuid, topic text, is_key boolean default false) returns boolean language sql as $$
  select pg_temp.receives(who, topic, is_key) like '%broadcast%';
$$;
-- Whether `who` may share presence on `topic`.
create function pg_temp.shares(who uuid, topic text) returns boolean language plpgsql as $$
begin
  perform tests.act_as(who);
  perform set_config('realtime.topic', shares.topic, true);
  begin
    insert into realtime.messages (topic, extension) values (shares.topic, 'presence');
  exception when insufficient_privilege then
    perform tests.reset_role();
    return false;
  end;
  perform tests.reset_role();
  delete from realtime.messages m where m.topic = shares.topic and m.event is null;
  return true;
end;
$$;
-- The topics an event about `entity_id` was sent to, A's id written `A` and a group's id by its name.
create function pg_temp.sent_to(event_name text, entity_id uuid) returns text language sql as $$
  select coalesce(string_agg(t.topic, ', ' order by t.topic), '')
  from realtime.messages m, actors a,
       lateral (select coalesce((select 'org:A:group:' || g.name from public.site_groups g where m.topic = 'org:' || g.org_id || ':group:' || g.id),
                                replace(m.topic, a.org_a::text, 'A'))) t (topic)
  where m.event = event_name and m.payload ->> 'id' = entity_id::text and m.topic like 'org:%';
$$;

-- Receiving on the organization's topic: org-wide principals only.
select is(pg_temp.receives(owner, 'org:' || org_a), 'broadcast,presence', 'the owner receives the organization topic') from actors;
select is(pg_temp.receives(admin, 'org:' || org_a), 'broadcast,presence', 'so does an admin') from actors;
select is(pg_temp.receives(manager, 'org:' || org_a), 'broadcast,presence', 'and an org-wide manager') from actors;
select is(pg_temp.receives(inspector, 'org:' || org_a), 'broadcast,presence', 'and an org-wide inspector') from actors;
select is(pg_temp.receives(viewer, 'org:' || org_a), 'broadcast,presence', 'and an org-wide viewer') from actors;
select ok(pg_temp.hears(k_wide, 'org:' || org_a, true), 'and an org-wide key hears it') from actors;
select is(pg_temp.receives(l_manager, 'org:' || org_a), '', 'a limited manager receives nothing on it') from actors;
select is(pg_temp.receives(l_inspector, 'org:' || org_a), '', 'nor does a limited inspector') from actors;
select is(pg_temp.receives(l_viewer, 'org:' || org_a), '', 'nor a limited viewer') from actors;
select is(pg_temp.receives(k_limited, 'org:' || org_a, true), '', 'nor a limited key') from actors;

-- The group topics: a limited principal's groups and their descendants.
select ok(pg_temp.hears(l_inspector, 'org:' || org_a || ':group:' || north), 'a limited inspector hears its group North') from actors;
select ok(pg_temp.hears(l_inspector, 'org:' || org_a || ':group:' || harbour), 'and Harbour, below it') from actors;
select ok(pg_temp.hears(l_inspector, 'org:' || org_a || ':group:' || pier), 'and Pier, below Harbour') from actors;
select ok(not pg_temp.hears(l_inspector, 'org:' || org_a || ':group:' || south), 'not South') from actors;
select ok(pg_temp.hears(l_manager, 'org:' || org_a || ':group:' || pier) and not pg_temp.hears(l_manager, 'org:' || org_a || ':group:' || south),
  'a limited manager hears Pier, not South') from actors;
select ok(pg_temp.hears(l_viewer, 'org:' || org_a || ':group:' || harbour) and not pg_temp.hears(l_viewer, 'org:' || org_a || ':group:' || south),
  'a limited viewer hears Harbour, not South') from actors;
select ok(pg_temp.hears(k_limited, 'org:' || org_a || ':group:' || north, true) and not pg_temp.hears(k_limited, 'org:' || org_a || ':group:' || south, true),
  'a limited key hears North, not South') from actors;
select ok(pg_temp.hears(l_harbour, 'org:' || org_a || ':group:' || pier) and not pg_temp.hears(l_harbour, 'org:' || org_a || ':group:' || north),
  'a member limited to Harbour hears Pier, not North above it (whose other sites are not its)') from actors;
select ok(not pg_temp.hears(l_inspector, 'org:' || org_a || ':group:' || b_group), 'nobody of A hears a group of B under A''s topic') from actors;
select ok(not pg_temp.hears(l_inspector, 'org:' || org_b || ':group:' || north), 'nor A''s group under B''s topic') from actors;
select ok(not pg_temp.hears(b_owner, 'org:' || org_a || ':group:' || north), 'the owner of B hears no group of A') from actors;
select ok(not pg_temp.hears(outsider, 'org:' || org_a || ':group:' || north), 'nor does an outsider') from actors;
select is(pg_temp.receives(l_inspector, 'org:' || org_a || ':group:' || gen_random_uuid()), '', 'a group that does not exist admits nobody') from actors;
select is(pg_temp.receives(l_inspector, 'org:' || org_a || ':group:not-a-uuid'), '', 'a made-up group topic is refused, not a cast error') from actors;
select is(pg_temp.receives(l_inspector, 'org:' || org_a || ':group:' || north || ':x'), '', 'a group topic with more after the id is refused') from actors;

select ok(pg_temp.hears(viewer, 'org:' || org_a || ':group:' || south), 'an org-wide viewer may join any group''s topic of A') from actors;

-- Presence: on the group topics one may join, never on the shared topic (docs/site-groups.md, "Realtime").
select ok(pg_temp.shares(l_inspector, 'org:' || org_a || ':group:' || north), 'a limited inspector shares presence on its group''s topic') from actors;
select ok(not pg_temp.shares(l_inspector, 'org:' || org_a || ':group:' || south), 'not on South''s') from actors;
select ok(not pg_temp.shares(l_inspector, 'org:' || org_a || ':shared') and not pg_temp.shares(inspector, 'org:' || org_a || ':shared'),
  'nobody shares presence on the shared topic') from actors;

-- The shared topic: every member and key of the organization.
select ok(pg_temp.hears(owner, 'org:' || org_a || ':shared'), 'the owner hears the shared topic') from actors;
select ok(pg_temp.hears(viewer, 'org:' || org_a || ':shared'), 'so does an org-wide viewer') from actors;
select ok(pg_temp.hears(l_inspector, 'org:' || org_a || ':shared'), 'and a limited inspector') from actors;
select ok(pg_temp.hears(l_viewer, 'org:' || org_a || ':shared'), 'and a limited viewer') from actors;
select ok(pg_temp.hears(k_limited, 'org:' || org_a || ':shared', true), 'and a limited key') from actors;
select ok(not pg_temp.hears(b_owner, 'org:' || org_a || ':shared') and not pg_temp.hears(outsider, 'org:' || org_a || ':shared'),
  'not the owner of B, nor an outsider') from actors;

-- An inspection's topic: while its site is theirs.
select is(pg_temp.receives(l_inspector, 'inspection:' || pier_insp), 'broadcast,presence', 'a limited inspector receives the topic of the inspection at Pier''s site') from actors;
select is(pg_temp.receives(l_inspector, 'inspection:' || south_insp), '', 'not that of the one at South''s') from actors;
select is(pg_temp.receives(l_viewer, 'inspection:' || loose_insp), '', 'a limited viewer not that of the one at the ungrouped site') from actors;
select is(pg_temp.receives(k_limited, 'inspection:' || south_insp, true), '', 'a limited key not that of the one at South''s') from actors;
select is(pg_temp.receives(viewer, 'inspection:' || south_insp), 'broadcast,presence', 'an org-wide viewer receives it') from actors;
select ok(pg_temp.shares(l_inspector, 'inspection:' || north_insp), 'a limited inspector shares presence on the inspection at North''s site') from actors;
select ok(not pg_temp.shares(l_inspector, 'inspection:' || south_insp), 'not on the one at South''s') from actors;
select ok(not pg_temp.shares(l_inspector, 'org:' || org_a), 'nor on the organization topic') from actors;
select ok(pg_temp.shares(inspector, 'org:' || org_a), 'where an org-wide inspector still does') from actors;
update public.sites set group_id = null where id = (select north_site from actors);
select is(pg_temp.receives(l_inspector, 'inspection:' || north_insp), '', 'with North''s site moved out, the limited inspector is refused its inspection''s topic at once') from actors;
select ok(not pg_temp.shares(l_inspector, 'inspection:' || north_insp), 'and presence on it') from actors;
update public.sites set group_id = (select north from actors) where id = (select north_site from actors);

-- The triggers: an event at Pier's site goes to the organization topic and to Pier's, Harbour's and
-- North's topics, with the same payload; at the ungrouped site to the organization's alone.
delete from realtime.messages;
update public.inspections set title = 'Pier check' where id = (select pier_insp from actors);
select is(pg_temp.sent_to('inspection_updated', (select pier_insp from actors)), 'org:A, org:A:group:Harbour, org:A:group:North, org:A:group:Pier',
  'a change to the inspection at Pier''s site is sent to the organization topic and to Pier''s, Harbour''s and North''s');
select is((select count(distinct payload)::int from realtime.messages where event = 'inspection_updated' and topic like 'org:%'), 1,
  'with one and the same payload');
update public.inspections set title = 'Loose check' where id = (select loose_insp from actors);
select is(pg_temp.sent_to('inspection_updated', (select loose_insp from actors)), 'org:A', 'one at the ungrouped site to the organization topic alone');
select tests.create_action(org_a, south_site, 'open', null, 'South leak') from actors;
select is(pg_temp.sent_to('action_created', (select id from public.actions where title = 'South leak')), 'org:A, org:A:group:South',
  'a new action at South''s site to the organization topic and South''s');
update public.sites set address = '1 Pier Road' where id = (select pier_site from actors);
select is(pg_temp.sent_to('site_updated', (select pier_site from actors)), 'org:A, org:A:group:Harbour, org:A:group:North, org:A:group:Pier',
  'a change to Pier''s site itself to its groups'' topics');
delete from realtime.messages;
update public.sites set group_id = (select south from actors) where id = (select pier_site from actors);
select is(pg_temp.sent_to('site_updated', (select pier_site from actors)),
  'org:A, org:A:group:Harbour, org:A:group:North, org:A:group:Pier, org:A:group:South',
  'a site moved from Pier to South is announced to its old groups'' topics and its new one''s (those who lose it learn so at once)');
select is((select count(distinct payload)::int from realtime.messages where event = 'site_updated'), 1, 'with one payload');
update public.templates set description = 'Changed' where id = (select template from actors);
select is(pg_temp.sent_to('template_updated', (select template from actors)), 'org:A, org:A:shared',
  'a change to a template to the organization topic and the shared one, no group''s');
select is((select count(*)::int from realtime.messages where topic like 'org:' || (select org_a from actors) || ':group:%' and event = 'template_updated'), 0,
  'no group topic hears of the template');
update public.memberships set role = 'viewer' where user_id = (select inspector from actors);
select is((select string_agg(m.topic, ', ' order by m.topic) from realtime.messages m where m.event = 'member_updated'),
  'org:' || (select org_a from actors) || ', org:' || (select org_a from actors) || ':shared', 'a member''s change to the organization topic and the shared one');

select * from finish();
rollback;
