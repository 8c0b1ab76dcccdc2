-- Action transitions: every status × every target × every actor of organization A, each on a
-- fresh action assigned to the inspector, each attempt with a note. A move succeeds only when it
-- is one of docs/product.md §4's (plus cancel, docs/actions.md) and the actor may make it (§6): owners,
-- admins and managers every move; the assigned inspector starts and resolves; another inspector
-- and viewers change nothing. Every other attempt fails in the database. The expected matrix is
-- written out here, not read from the table.
begin;
select plan(19);

create temp table actors on commit drop as
  select m.*, p.*, tests.create_user('inspector2-140t@example.test', 'Second inspector') as inspector2
  from tests.create_org_matrix('140t') m, tests.create_published_template(m.org_a,
    '[{"key":"note","kind":"text","label":"Note","help":null,"required":false,"weight":0}]') p;
select tests.add_member((select org_a from actors), (select inspector2 from actors), 'inspector');
grant select on actors to authenticated;

create function tests.action_in(status public.action_status)
returns uuid
language sql
as $$
  select tests.create_action(org_a, site, action_in.status, inspector) from actors;
$$;

-- What happens when `actor` writes status = `target` (with a note) on `action`: ok, no row (RLS
-- hid it) or the error the database raised.
create function tests.try_action_move(action uuid, actor uuid, target public.action_status, note text default 'Because.')
returns text
language plpgsql
as $$
declare
  changed integer;
begin
  perform tests.act_as(actor);
  begin
    update public.actions set status = target, transition_note = note where id = action;
    get diagnostics changed = row_count;
  exception when others then
    perform tests.reset_role();
    return sqlerrm;
  end;
  perform tests.reset_role();
  return case when changed = 1 then 'ok' else 'no row' end;
end;
$$;

create temp table statuses on commit drop as select unnest(enum_range(null::public.action_status)) as status;

-- docs/product.md §4 and §6 with the cancel decided in docs/actions.md, written out.
create temp table allowed on commit drop as
  select from_status::public.action_status, to_status::public.action_status, roles::text[]
  from (values
    ('open', 'in_progress', '{owner,admin,manager,inspector}'),
    ('in_progress', 'resolved', '{owner,admin,manager,inspector}'),
    ('resolved', 'verified', '{owner,admin,manager}'),
    ('resolved', 'open', '{owner,admin,manager}'),
    ('open', 'canceled', '{owner,admin,manager}'),
    ('in_progress', 'canceled', '{owner,admin,manager}'),
    ('resolved', 'canceled', '{owner,admin,manager}')
  ) v(from_status, to_status, roles);

create temp table actor_roles on commit drop as
  select 'owner' as actor, 'owner' as role, owner as user_id from actors union all
  select 'admin', 'admin', admin from actors union all
  select 'manager', 'manager', manager from actors union all
  select 'inspector', 'inspector', inspector from actors union all
  select 'other inspector', 'inspector', inspector2 from actors union all
  select 'viewer', 'viewer', viewer from actors;

create temp table expected on commit drop as
  select r.actor, f.status as from_status, t.status as to_status,
    case
      -- RLS shows viewers and inspectors no action they may update.
      when r.actor in ('viewer', 'other inspector') then 'no row'
      -- A role that never makes a move to this target is refused as such, in any state.
      when not exists (select 1 from allowed x where x.to_status = t.status and r.role = any (x.roles)) then 'forbidden'
      when a.roles is null then 'invalid_transition'
      when r.role = any (a.roles) then 'ok'
      else 'forbidden'
    end as outcome
  from actor_roles r cross join statuses f cross join statuses t
  left join allowed a on a.from_status = f.status and a.to_status = t.status
  where f.status <> t.status;

create temp table actual on commit drop as
  select r.actor, f.status as from_status, t.status as to_status,
    tests.try_action_move(tests.action_in(f.status), r.user_id, t.status) as outcome
  from actor_roles r cross join statuses f cross join statuses t
  where f.status <> t.status;

select is((select count(*)::int from actual), 120, 'the matrix covers 5 statuses × 4 targets × 6 actors');
select results_eq(
  $$select outcome, count(*)::int from actual group by outcome order by outcome$$,
  $$values ('forbidden', 12), ('invalid_transition', 45), ('no row', 40), ('ok', 23)$$,
  'of the 120 attempts 23 moves succeed, 12 are forbidden, 45 are not moves and 40 touch no row'
);
select results_eq(
  $$select actor, from_status, to_status, outcome from actual order by 1, 2, 3$$,
  $$select actor, from_status, to_status, outcome from expected order by 1, 2, 3$$,
  'every actor makes exactly the moves docs/product.md allows them, and fails every other the same way'
);
select is(
  (select count(*)::int from actual where from_status in ('verified', 'canceled') and outcome = 'ok'), 0,
  'verified and canceled are final for every role'
);
select results_eq(
  $$select from_status, to_status from actual where actor = 'inspector' and outcome = 'ok' order by 1, 2$$,
  $$values ('open'::public.action_status, 'in_progress'::public.action_status), ('in_progress', 'resolved')$$,
  'the assigned inspector starts and resolves, nothing else'
);

-- Notes: a resolve and a reopen need one; a note comes only with a move.
create temp table one on commit drop as select tests.action_in('in_progress') as id, tests.action_in('verified') as verified;
grant select on one to authenticated;
select is(tests.try_action_move((select id from one), (select inspector from actors), 'resolved', null),
  'validation_failed', 'resolving without a note is refused');
select is((select tests.error_of($$
  select tests.act_as((select inspector from actors));
  update public.actions set status = 'resolved' where id = (select id from one)$$)),
  'validation_failed {"field" : "note", "message" : "Say what was done to fix it."}',
  'and the refusal asks for what was done, on the note');
select tests.reset_role();
select is(tests.try_action_move((select id from one), (select inspector from actors), 'resolved', 'Sealed the pipe joint.'),
  'ok', 'with a note the assigned inspector resolves it');
select results_eq(
  $$select status, resolution_note, resolved_by, resolved_at is not null, transition_note from public.actions where id = (select id from one)$$,
  $$select 'resolved'::public.action_status, 'Sealed the pipe joint.', inspector, true, null::text from actors$$,
  'resolving stores the note as the resolution, stamps who and when, and keeps no transition note at rest'
);
select is(tests.try_action_move((select id from one), (select manager from actors), 'open', null),
  'validation_failed', 'reopening without a note is refused');
select is(tests.try_action_move((select id from one), (select manager from actors), 'open', 'The pipe still drips.'),
  'ok', 'with a note a manager reopens it');
select results_eq(
  $$select status, resolution_note, resolved_by from public.actions where id = (select id from one)$$,
  $$values ('open'::public.action_status, null::text, null::uuid)$$,
  'reopening clears the resolution; its history stays in the events'
);
select results_eq(
  $$select kind, from_status, to_status, note, actor_user_id from public.action_events
    where action_id = (select id from one) and kind = 'status_changed' order by id$$,
  $$select * from (values
      ('status_changed', 'open'::public.action_status, 'in_progress'::public.action_status, null::text, null::uuid),
      ('status_changed', 'in_progress', 'resolved', 'Sealed the pipe joint.', (select inspector from actors)),
      ('status_changed', 'resolved', 'open', 'The pipe still drips.', (select manager from actors))) v$$,
  'each move is one event with from, to, note and who (the fixture''s own move credited to nobody)'
);
select tests.act_as((select manager from actors));
select throws_ok($$update public.actions set title = 'Retitled', transition_note = 'Why not' where id = (select id from one)$$,
  'P0001', 'validation_failed', 'a note without a move is refused');
select throws_ok($$update public.actions set status = 'open' where id = (select id from one)$$,
  'P0001', 'invalid_transition', 'writing the status it already has is refused too');

-- Details: managers edit while the action is not finished; inspectors never; frozen when final.
select lives_ok($$update public.actions set title = 'Replace the pipe joint', priority = 'high' where id = (select id from one)$$,
  'a manager edits an open action');
select tests.act_as((select inspector from actors));
select throws_ok($$update public.actions set title = 'Mine now' where id = (select id from one)$$,
  'P0001', 'forbidden', 'the assigned inspector may not edit its details');
select tests.act_as((select manager from actors));
select throws_ok($$update public.actions set due_at = now() + interval '1 year' where id = (select verified from one)$$,
  'P0001', 'invalid_transition', 'a verified action''s details are frozen');
select tests.reset_role();
select throws_ok($$update public.actions set site_id = site_id, item_key = 'note', inspection_id = null where id = (select id from one)$$,
  'P0001', 'forbidden', 'where an action belongs is fixed, even for a server write');

select * from finish();
rollback;
