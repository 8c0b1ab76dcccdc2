-- Webhooks in SQL (issue 13 part 3): endpoints for owners and admins only (keys and other roles
-- neither read nor write them; the secret is no API role's to read), at most 10; the outbox
-- written by the change's own transaction (a rolled-back change leaves nothing), only for
-- endpoints that want the type; the worker's claim keeps one entity's order per endpoint and
-- skips what another worker holds; attempts, backoff and dead; redeliver and test events.
begin;
select plan(40);

create temp table actors on commit drop as
  select m.* from tests.create_org_matrix('170w') m;
alter table actors add column site uuid, add column endpoint uuid, add column only_sites uuid, add column k_manager uuid;
update actors set k_manager = tests.create_api_key(org_a, 'manager');
grant select on actors to anon, authenticated;

-- Endpoints: who may.
select tests.act_as((select admin from actors));
select lives_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://hooks.example.test/all', 'whsec_' || repeat('A', 32) from actors$$,
  'an admin adds an endpoint for every event');
select lives_ok($$insert into public.webhook_endpoints (org_id, url, event_types, secret) select org_a, 'https://hooks.example.test/sites', '{site.created}', 'whsec_' || repeat('B', 32) from actors$$,
  'and one for site.created only');
select throws_ok($$select secret from public.webhook_endpoints$$, '42501', null, 'the secret is not readable by an admin either');
select throws_ok($$insert into public.webhook_endpoints (org_id, url, event_types, secret) select org_a, 'https://x.example.test', '{site.exploded}', 'whsec_' || repeat('C', 32) from actors$$,
  '23514', null, 'an unknown event type is refused');
select throws_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'ftp://x.example.test', 'whsec_' || repeat('C', 32) from actors$$,
  '23514', null, 'a URL that is not http(s) is refused');
select throws_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://user:pw@x.example.test', 'whsec_' || repeat('C', 32) from actors$$,
  '23514', null, 'a URL with credentials is refused');
select tests.reset_role();
update actors set endpoint = (select id from public.webhook_endpoints where url like '%/all'),
                  only_sites = (select id from public.webhook_endpoints where url like '%/sites');

select tests.act_as((select manager from actors));
select is((select count(*)::int from public.webhook_endpoints), 0, 'a manager reads no endpoints');
select throws_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://m.example.test', 'whsec_' || repeat('D', 32) from actors$$,
  '42501', null, 'a manager cannot add one');
select tests.act_as_api_key((select k_manager from actors));
select is((select count(*)::int from public.webhook_endpoints), 0, 'a manager key reads no endpoints');
select throws_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://k.example.test', 'whsec_' || repeat('D', 32) from actors$$,
  '42501', null, 'a key cannot add one');
select is((select count(*)::int from public.webhook_deliveries), 0, 'a key reads no deliveries');
select tests.act_as((select b_owner from actors));
select is((select count(*)::int from public.webhook_endpoints), 0, 'the owner of B reads none of A''s endpoints');
select tests.reset_role();

-- The limit of 10.
insert into public.webhook_endpoints (org_id, url, secret)
  select org_a, 'https://hooks.example.test/' || n, 'whsec_' || repeat('E', 32) from actors, generate_series(3, 10) n;
select tests.act_as((select owner from actors));
select throws_ok($$insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://eleven.example.test', 'whsec_' || repeat('F', 32) from actors$$,
  'P0001', 'limit_exceeded', 'the 11th endpoint is refused');
select tests.reset_role();
delete from public.webhook_endpoints where url ~ '/([3-9]|10)$';
update public.webhook_endpoints set enabled = false where url like 'https://hooks.example.test/%' and id not in (select endpoint from actors union select only_sites from actors);

-- The outbox: written with the change, for the endpoints that want it.
select tests.act_as_api_key((select k_manager from actors));
insert into public.sites (org_id, name) select org_a, 'Hooked kitchen' from actors;
select tests.reset_role();
update actors set site = (select id from public.sites where name = 'Hooked kitchen');
select is((select count(*)::int from public.webhook_events where type = 'site.created' and entity_id = (select site from actors)), 1,
  'a site made by a key writes one site.created event');
select is((select count(*)::int from public.webhook_deliveries d join public.webhook_events e on e.id = d.event_id where e.type = 'site.created'), 2,
  'with a delivery to each endpoint that wants it');
select is((select payload -> 'data' ->> 'name' from public.webhook_events where type = 'site.created'), 'Hooked kitchen', 'the payload carries the site');
select tests.act_as((select manager from actors));
update public.sites set name = 'Hooked kitchen 2' where id = (select site from actors);
update public.sites set archived_at = now() where id = (select site from actors);
select tests.reset_role();
select results_eq($$select type from public.webhook_events where entity_id = (select site from actors) order by seq$$,
  array['site.created', 'site.updated', 'site.archived'], 'updates and archiving are events in order');
select is((select count(*)::int from public.webhook_deliveries where endpoint_id = (select only_sites from actors)), 1,
  'the site.created-only endpoint gets only that');

savepoint before_rollback;
insert into public.sites (org_id, name) select org_a, 'Never committed' from actors;
rollback to savepoint before_rollback;
select is((select count(*)::int from public.webhook_events where payload -> 'data' ->> 'name' = 'Never committed'), 0,
  'a rolled-back change leaves no event');
select is((select count(*)::int from public.webhook_events where org_id = (select org_b from actors)), 0, 'an organization without endpoints writes none');
insert into public.sites (org_id, name) select org_b, 'Quiet site' from actors;
select is((select count(*)::int from public.webhook_events where org_id = (select org_b from actors)), 0, 'not even on a change');

-- The claim: one entity's deliveries to one endpoint in order; a claimed delivery is not claimed twice.
select is((select count(*)::int from private.claim_webhook_deliveries(10) c where c.endpoint_id = (select endpoint from actors)), 1,
  'of three events of one site, only the first is claimed for the endpoint');
select is((select count(*)::int from private.claim_webhook_deliveries(10)), 0, 'and nothing is claimed twice while the lease runs');
select is((select event_type from private.claim_webhook_deliveries(10)), null, 'still nothing');
select is(private.record_webhook_attempt((select d.id from public.webhook_deliveries d join public.webhook_events e on e.id = d.event_id
  where d.endpoint_id = (select endpoint from actors) and e.type = 'site.created'), 200, 12, 'ok', null), 'succeeded', 'a 2xx delivers it');
select is((select event_type from private.claim_webhook_deliveries(10) where endpoint_id = (select endpoint from actors)), 'site.updated',
  'then the next event of the site is claimed');

-- Failures: backoff, then dead on the 8th.
create temp table failing on commit drop as
  select d.id from public.webhook_deliveries d join public.webhook_events e on e.id = d.event_id
  where d.endpoint_id = (select endpoint from actors) and e.type = 'site.updated';
grant select on failing to authenticated;
select is(private.record_webhook_attempt((select id from failing), 500, 30, 'oops', null), 'pending', 'a 500 leaves it pending');
select ok((select next_attempt_at between now() + interval '9 seconds' and now() + interval '11 seconds' from public.webhook_deliveries where id = (select id from failing)),
  'to be tried again in about 10 s');
select is((select count(*)::int from private.claim_webhook_deliveries(10) where endpoint_id = (select endpoint from actors)), 0,
  'and the later event of that site waits behind it');
select is((select count(*)::int from public.webhook_attempts where delivery_id = (select id from failing)), 1, 'the attempt is logged');
select is((select response_body from public.webhook_attempts where delivery_id = (select id from failing)), 'oops', 'with the answer');
select is((select private.record_webhook_attempt((select id from failing), null, 10000, null, 'timed out')
           from generate_series(2, 7) offset 5), 'pending', 'the 7th failure still waits (48 h)');
select is(private.record_webhook_attempt((select id from failing), 503, 5, null, null), 'dead', 'the 8th makes it dead');

-- Redeliver and test events: owners and admins.
select tests.act_as((select admin from actors), 'aal2');
select isnt(private.redeliver_webhook((select id from failing)), null, 'an admin redelivers a dead delivery as a new one');
select isnt(private.send_test_webhook((select endpoint from actors)), null, 'and sends a test event');
select tests.act_as((select manager from actors));
select throws_ok(format('select private.redeliver_webhook(%L)', (select id from failing)), 'P0001', 'forbidden', 'a manager cannot redeliver');
select tests.act_as((select b_owner from actors));
select throws_ok(format('select private.send_test_webhook(%L)', (select endpoint from actors)), 'P0001', 'not_found', 'another organization''s owner finds no endpoint');
select tests.reset_role();

-- Inspections, actions and templates: each lifecycle step is an event.
create temp table world on commit drop as
  select p.* from actors a, tests.create_published_template(a.org_a,
    '[{"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":"°C"}]') p;
alter table world add column inspection uuid, add column action uuid;
update world set inspection = tests.create_inspection((select org_a from actors), site, template, 'scheduled');
update public.inspections set status = 'in_progress' where id = (select inspection from world);
update public.inspections set status = 'submitted' where id = (select inspection from world);
update public.inspections set status = 'approved' where id = (select inspection from world);
update world set action = tests.create_action((select org_a from actors), site, 'verified');
select results_eq($$select type from public.webhook_events where entity_id = (select template from world) order by seq$$,
  array['template.created', 'template.published'], 'a template made and published');
select results_eq($$select type from public.webhook_events where entity_id = (select inspection from world) order by seq$$,
  array['inspection.created', 'inspection.started', 'inspection.submitted', 'inspection.approved'], 'an inspection through its lifecycle');
select results_eq($$select type from public.webhook_events where entity_id = (select action from world) order by seq$$,
  array['action.created', 'action.in_progress', 'action.resolved', 'action.verified'], 'an action through to verified');

select * from finish();
rollback;
