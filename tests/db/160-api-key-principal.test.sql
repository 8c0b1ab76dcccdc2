-- API keys as principals (issue 13 part 1): each key role against each table and operation, both
-- sides, in an organization that requires MFA (a key has no second factor and is not held to it);
-- a key of another organization, a revoked, an expired and a forged key see and change nothing;
-- the "no user id means a trusted server" door is shut (a key is held to client rules); a key's
-- changes name it in the audit log; idempotency keys are per key; no key reads or manages keys or
-- webhooks, writes the audit log or deletes what is canceled or archived instead.
-- Every write below runs in a subtransaction that is rolled back (tests.outcome_as_key), so the
-- rows of the matrix do not depend on one another.
begin;
select plan(165);

create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('160k') m, tests.create_published_template(m.org_a,
    '[{"key":"temp","kind":"number","label":"Fridge temperature","help":null,"required":false,"weight":1,"min":0,"max":5,"unit":"°C"}]') p;
update public.organizations set require_mfa = true where id = (select org_a from actors);
alter table actors add column insp_free uuid, add column insp_run uuid, add column insp_theirs uuid, add column insp_done uuid,
  add column act uuid, add column k_manager uuid, add column k_inspector uuid, add column k_viewer uuid, add column k_other uuid,
  add column k_revoked uuid, add column k_expired uuid;
update actors set
  insp_free = tests.create_inspection(org_a, site, template, 'scheduled'),
  insp_run = tests.create_inspection(org_a, site, template, 'in_progress'),
  insp_theirs = tests.create_inspection(org_a, site, template, 'in_progress', inspector),
  insp_done = tests.create_inspection(org_a, site, template, 'submitted'),
  act = tests.create_action(org_a, site, 'open', inspector),
  k_manager = tests.create_api_key(org_a, 'manager', 'Manager key'),
  k_inspector = tests.create_api_key(org_a, 'inspector', 'Inspector key'),
  k_viewer = tests.create_api_key(org_a, 'viewer', 'Viewer key'),
  k_other = tests.create_api_key(org_b, 'manager', 'B key'),
  k_revoked = tests.create_api_key(org_a, 'manager', 'Revoked key'),
  k_expired = tests.create_api_key(org_a, 'manager', 'Expired key');
update public.api_keys set revoked_at = now() where id = (select k_revoked from actors);
insert into public.answers (inspection_id, item_key, value)
  select tests.create_inspection(org_a, site, template, 'in_progress', inspector, 'Answered by a person'), 'temp', '2' from actors;
insert into public.webhook_endpoints (org_id, url, secret) select org_a, 'https://hooks.example.test/in', 'whsec_' || repeat('W', 32) from actors;
-- Past the triggers (replica): a key that was made to expire and now has.
select set_config('session_replication_role', 'replica', true);
update public.api_keys set created_at = now() - interval '2 days', expires_at = now() - interval '1 day' where id = (select k_expired from actors);
select set_config('session_replication_role', 'origin', true);
grant select on actors to anon, authenticated;

-- Runs `query` (one integer) as the key and returns its answer.
create function pg_temp.count_as_key(key uuid, query text, claimed_role text default null) returns integer
language plpgsql as $$
declare n integer;
begin
  perform tests.act_as_api_key(key, claimed_role);
  execute query into n;
  perform tests.reset_role();
  return n;
end $$;

-- Runs `statement` as the key in a subtransaction that is always rolled back: 'rows N' when it
-- worked, else the SQLSTATE and message it failed with.
create function pg_temp.outcome_as_key(key uuid, statement text, claimed_role text default null) returns text
language plpgsql as $$
declare n integer; result text;
begin
  begin
    perform tests.act_as_api_key(key, claimed_role);
    execute statement;
    get diagnostics n = row_count;
    raise exception 'roll back' using detail = 'rows ' || n;
  exception when others then
    get stacked diagnostics result = pg_exception_detail;
    if sqlerrm <> 'roll back' then result := sqlstate || ' ' || sqlerrm; end if;
  end;
  perform tests.reset_role();
  return result;
end $$;

-- 'rows N' as it is; an error as its SQLSTATE, with the message for the product's own (P0001).
create function pg_temp.outcome_class(outcome text) returns text
language sql as $$
  select case when outcome like 'rows %' then outcome
              when outcome like 'P0001 %' then 'P0001 ' || split_part(outcome, ' ', 2)
              else split_part(outcome, ' ', 1) end
$$;

-- Reads: every key role reads its organization's data, never its keys or invitations.
select is(pg_temp.count_as_key(k.key, format('select count(*)::int from public.%I where %s = %L', t.tbl, t.col, a.org_a)) > 0,
          t.readable, format('%s %s key %s %s', case k.role when 'inspector' then 'an' else 'a' end, k.role, case when t.readable then 'reads' else 'reads no' end, t.tbl))
from actors a,
     (values ('manager', (select k_manager from actors)), ('inspector', (select k_inspector from actors)),
             ('viewer', (select k_viewer from actors))) k(role, key),
     (values ('organizations', 'id', true), ('memberships', 'org_id', true), ('sites', 'org_id', true),
             ('templates', 'org_id', true), ('inspections', 'org_id', true), ('actions', 'org_id', true),
             ('action_events', 'org_id', true), ('audit_log', 'org_id', true), ('template_versions', 'org_id', true),
             ('answers', 'org_id', true),
             ('api_keys', 'org_id', false), ('invitations', 'org_id', false), ('webhook_endpoints', 'org_id', false),
             ('webhook_events', 'org_id', false), ('idempotency_keys', 'principal_id', false)) t(tbl, col, readable);

select is(pg_temp.count_as_key((select k_viewer from actors),
          format('select count(*)::int from public.profiles where user_id = %L', (select owner from actors))), 1,
          'a key reads the profiles of its organization''s members (to assign work to them)');
select is(pg_temp.count_as_key((select k_viewer from actors), 'select count(*)::int from public.profiles where user_id = ' ||
          quote_literal((select outsider from actors))), 0, 'but no one else''s');

-- Writes, by key role: manager / inspector / viewer.
create temp table writes (what text, statement text, manager text, inspector text, viewer text) on commit drop;
insert into writes
select w.* from actors a, lateral (values
  ('creates a site', format($$insert into public.sites (org_id, name) values (%L, 'Key site')$$, a.org_a), 'rows 1', '42501', '42501'),
  ('renames a site', format($$update public.sites set name = 'Renamed' where id = %L$$, a.site), 'rows 1', 'rows 0', 'rows 0'),
  ('creates a template', format($$insert into public.templates (org_id, name) values (%L, 'Key template')$$, a.org_a), 'rows 1', '42501', '42501'),
  ('schedules an inspection', format($$insert into public.inspections (org_id, site_id, template_id) values (%L, %L, %L)$$, a.org_a, a.site, a.template),
    'rows 1', '42501', '42501'),
  ('starts an unassigned inspection', format($$update public.inspections set status = 'in_progress' where id = %L$$, a.insp_free), 'rows 1', 'rows 1', 'rows 0'),
  ('answers an unassigned inspection', format($$insert into public.answers (inspection_id, item_key, value) values (%L, 'temp', '3')$$, a.insp_run),
    'rows 1', 'rows 1', '42501'),
  ('answers an inspection assigned to a person', format($$insert into public.answers (inspection_id, item_key, value) values (%L, 'temp', '3')$$, a.insp_theirs),
    'rows 1', '42501', '42501'),
  ('approves a submitted inspection', format($$update public.inspections set status = 'approved' where id = %L$$, a.insp_done),
    'rows 1', 'P0001 forbidden', 'rows 0'),
  ('opens an action', format($$insert into public.actions (org_id, site_id, title, assignee_id) values (%L, %L, 'Key action', %L)$$, a.org_a, a.site, a.inspector),
    'rows 1', '42501', '42501'),
  ('moves an action assigned to a person', format($$update public.actions set status = 'in_progress' where id = %L$$, a.act), 'rows 1', 'rows 0', 'rows 0'),
  ('renames the organization', format($$update public.organizations set name = 'Taken over' where id = %L$$, a.org_a), 'rows 0', 'rows 0', 'rows 0'),
  ('changes a member''s role', format($$update public.memberships set role = 'viewer' where org_id = %L and user_id = %L$$, a.org_a, a.inspector),
    'rows 0', 'rows 0', 'rows 0'),
  ('removes a member', format($$delete from public.memberships where org_id = %L and user_id = %L$$, a.org_a, a.inspector), 'rows 0', 'rows 0', 'rows 0'),
  ('invites someone', format($$insert into public.invitations (org_id, email, role, token_hash) values (%L, 'new@example.test', 'viewer', sha256('t'::bytea))$$, a.org_a),
    '42501', '42501', '42501'),
  ('creates an API key', format($$insert into public.api_keys (org_id, name, prefix, secret_hash, role) values (%L, 'Mine', 'fck_abcdefgh', sha256('s'::bytea), 'viewer')$$, a.org_a),
    '42501', '42501', '42501'),
  ('revokes an API key', format($$update public.api_keys set revoked_at = now() where id = %L$$, a.k_viewer), 'rows 0', 'rows 0', 'rows 0'),
  ('edits a template', format($$update public.templates set name = 'Renamed audit' where id = %L$$, a.template), 'rows 1', 'rows 0', 'rows 0'),
  ('changes an answer of an inspection assigned to a person',
    $$update public.answers set value = '4' where inspection_id = (select id from public.inspections where title = 'Answered by a person')$$,
    'rows 1', 'rows 0', 'rows 0'),
  ('deletes a site', format($$delete from public.sites where id = %L$$, a.site), '42501', '42501', '42501'),
  ('deletes an inspection', format($$delete from public.inspections where id = %L$$, a.insp_free), '42501', '42501', '42501'),
  ('deletes an action', format($$delete from public.actions where id = %L$$, a.act), '42501', '42501', '42501'),
  ('deletes an API key', format($$delete from public.api_keys where id = %L$$, a.k_viewer), '42501', '42501', '42501'),
  ('adds a webhook endpoint', format($$insert into public.webhook_endpoints (org_id, url, secret) values (%L, 'https://x.example.test', 'whsec_' || repeat('X', 32))$$, a.org_a),
    '42501', '42501', '42501'),
  ('switches a webhook endpoint off', format($$update public.webhook_endpoints set enabled = false where org_id = %L$$, a.org_a), 'rows 0', 'rows 0', 'rows 0'),
  ('removes a webhook endpoint', format($$delete from public.webhook_endpoints where org_id = %L$$, a.org_a), 'rows 0', 'rows 0', 'rows 0'),
  ('writes the audit log', format($$insert into public.audit_log (org_id, actor_kind, action, entity) values (%L, 'api_key', 'insert', 'sites')$$, a.org_a),
    '42501', '42501', '42501')
) w;

select is(pg_temp.outcome_class(pg_temp.outcome_as_key(k.key, w.statement)),
          case k.role when 'manager' then w.manager when 'inspector' then w.inspector else w.viewer end,
          format('%s %s key %s: %s', case k.role when 'inspector' then 'an' else 'a' end, k.role, w.what, case k.role when 'manager' then w.manager when 'inspector' then w.inspector else w.viewer end))
from writes w,
     (values ('manager', (select k_manager from actors)), ('inspector', (select k_inspector from actors)),
             ('viewer', (select k_viewer from actors))) k(role, key);

-- Keys that are not (or no longer) this organization's see and change nothing of it.
select is(pg_temp.count_as_key(k.key, format('select count(*)::int from public.%I where org_id = %L', t.tbl, (select org_a from actors))), 0,
          format('%s reads no %s of the organization', k.who, t.tbl))
from (values ('a key of another organization', (select k_other from actors)), ('a revoked key', (select k_revoked from actors)),
             ('an expired key', (select k_expired from actors))) k(who, key),
     (values ('sites'), ('inspections'), ('memberships'), ('audit_log')) t(tbl);
select is(split_part(pg_temp.outcome_as_key(k.key, format($$insert into public.sites (org_id, name) values (%L, 'Intruder')$$, (select org_a from actors))), ' ', 1),
          '42501', format('%s cannot create a site in the organization', k.who))
from (values ('a key of another organization', (select k_other from actors)), ('a revoked key', (select k_revoked from actors)),
             ('an expired key', (select k_expired from actors))) k(who, key);
select is(pg_temp.outcome_as_key((select k_other from actors), format($$update public.inspections set status = 'in_progress' where id = %L$$, (select insp_free from actors))),
          'rows 0', 'a key of another organization cannot start its inspection');
select is(split_part(pg_temp.outcome_as_key((select k_other from actors),
          format($$insert into public.answers (inspection_id, item_key, value) values (%L, 'temp', '3')$$, (select insp_run from actors))), ' ', 1),
          '42501', 'nor answer one (the lock is not taken for it either)');
select is(rtrim(tests.error_of(format($$select tests.act_as_api_key(%L); insert into public.inspections (org_id, site_id, template_id) values (%L, %L, %L)$$,
          (select k_inspector from actors), (select org_b from actors), (select site from actors), (select template from actors)))),
          'new row violates row-level security policy for table "inspections"',
          'an inspector key scheduling in another organization learns nothing about the site it names (the checks run for clients without a user)');
select tests.reset_role();

-- Forged claims: a key's claims are checked against the key, and a user's token is never a key's.
select is(pg_temp.count_as_key((select k_viewer from actors), format('select count(*)::int from public.sites where org_id = %L', (select org_a from actors)), 'manager'),
          0, 'a viewer key claiming to be a manager key is no key at all');
select is(split_part(pg_temp.outcome_as_key((select k_viewer from actors), format($$insert into public.sites (org_id, name) values (%L, 'Forged')$$, (select org_a from actors)), 'manager'), ' ', 1),
          '42501', 'and cannot write as a manager');
select tests.reset_role();
select tests.set_request('authenticated', jsonb_build_object('role', 'authenticated', 'sub', (select outsider from actors),
  'api_key_id', (select k_manager from actors), 'api_key_org_id', (select org_a from actors), 'api_key_role', 'manager'));
select is((select count(*)::int from public.sites), 0, 'a user''s token naming a key does not act as that key');
select tests.reset_role();

-- A key's writes: in an organization requiring MFA, stamped by nobody, logged as the key's.
select tests.act_as_api_key((select k_manager from actors));
insert into public.sites (org_id, name) select org_a, 'Made by a key' from actors;
insert into public.answers (inspection_id, item_key, value) select insp_run, 'temp', '4' from actors;
select tests.reset_role();
select is((select answered_by from public.answers where inspection_id = (select insp_run from actors)), null,
  'a key''s answer is answered by nobody');
select ok((select answered_at > now() - interval '1 minute' from public.answers where inspection_id = (select insp_run from actors)),
  'and answered now');
select is((select actor_kind || ' ' || actor_api_key_id from public.audit_log where entity = 'sites' and after ->> 'name' = 'Made by a key'),
  'api_key ' || (select k_manager from actors), 'the audit log names the key as the actor');
select is((select created_by from public.sites where name = 'Made by a key'), null, 'a key''s site is created by no user');

-- Idempotency keys are the key's own.
select tests.act_as_api_key((select k_manager from actors));
insert into public.idempotency_keys (key, request_hash) values ('retry-1', 'h');
select is((select principal_id from public.idempotency_keys where key = 'retry-1'), (select k_manager from actors),
  'a key''s idempotency key is stored under the key');
select tests.act_as_api_key((select k_inspector from actors));
select is((select count(*)::int from public.idempotency_keys where key = 'retry-1'), 0, 'another key does not see it');
select tests.act_as((select manager from actors));
select is((select count(*)::int from public.idempotency_keys where key = 'retry-1'), 0, 'nor does a member');
select tests.reset_role();

-- private.authenticate_api_key: by the hash of the secret, with the key's state; used once a minute.
insert into public.api_keys (org_id, name, prefix, secret_hash, role)
  select org_a, 'Known secret', 'fck_knownsec', sha256('fck_known-secret'::bytea), 'viewer' from actors;
select is((select count(*)::int from private.authenticate_api_key(sha256('fck_unknown'::bytea))), 0, 'an unknown secret finds no key');
select is((select state || ' ' || role from private.authenticate_api_key(sha256('fck_known-secret'::bytea))), 'active viewer',
  'a known secret finds its key, active, with its role');
select isnt((select last_used_at from public.api_keys where name = 'Known secret'), null, 'and marks it used');
update public.api_keys set last_used_at = now() - interval '30 seconds' where name = 'Known secret';
select private.authenticate_api_key(sha256('fck_known-secret'::bytea));
select ok((select last_used_at < now() - interval '20 seconds' from public.api_keys where name = 'Known secret'),
  'a second use within the minute writes nothing');
select is((select count(*)::int from public.audit_log where entity = 'api_keys' and action = 'update'
           and entity_id = (select id from public.api_keys where name = 'Known secret')), 0, 'and a use is no audit entry');
select is((select state from private.authenticate_api_key(sha256(convert_to('fck_x', 'utf8'))) union all select 'none' limit 1), 'none',
  'nothing for a secret never made');
select is((select state from private.authenticate_api_key((select secret_hash from public.api_keys where id = (select k_revoked from actors)))),
  'revoked', 'a revoked key says so');
select is((select state from private.authenticate_api_key((select secret_hash from public.api_keys where id = (select k_expired from actors)))),
  'expired', 'an expired key says so');

-- Revoking: once, stamped by the revoker; nothing else about a key changes.
select tests.act_as((select admin from actors), 'aal2');
update public.api_keys set revoked_at = '2000-01-01' where id = (select k_viewer from actors);
select tests.reset_role();
select ok((select revoked_at > now() - interval '1 minute' and revoked_by = (select admin from actors) from public.api_keys where id = (select k_viewer from actors)),
  'an admin revokes a key: now, by them, whatever time they send');
select tests.act_as((select admin from actors), 'aal2');
select throws_ok(format($$update public.api_keys set revoked_at = now(), name = 'Renamed' where id = %L$$, (select k_inspector from actors)),
  '42501', null, 'a key''s name is not changed (no column privilege)');
select tests.act_as((select admin from actors), 'aal1');
select throws_ok(format($$update public.api_keys set revoked_at = now() where id = %L$$, (select k_inspector from actors)),
  'P0001', 'mfa_required', 'an aal1 session cannot revoke a key where MFA is required');
select tests.reset_role();
select tests.act_as((select manager from actors), 'aal2');
select is((select count(*)::int from public.api_keys), 0, 'a manager reads no keys');

select * from finish();
rollback;
