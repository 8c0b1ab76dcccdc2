-- Inspection transitions: every status × every target × every role of organization A, each on a
-- fresh unassigned inspection placed in the source status. A move succeeds only when it is one of
-- docs/product.md §4's and the role may make it (§6); any other move fails in the database
-- (invalid_transition, or forbidden for a role that may not make an allowed move), and viewers
-- change nothing at all. The expected matrix is written out here, not read from the table.
begin;
select plan(13);

-- One optional item, so a submission never waits for answers here.
create temp table actors on commit drop as
  select m.*, p.* from tests.create_org_matrix('110t') m, tests.create_published_template(m.org_a,
    '[{"key":"note","kind":"text","label":"Note","help":null,"required":false,"weight":0}]') p;

-- A fresh unassigned inspection of A placed straight in `status`, past the triggers (replica mode).
create function tests.inspection_in(status public.inspection_status)
returns uuid
language sql
as $$
  select tests.create_inspection(org_a, site, template, inspection_in.status) from actors;
$$;

-- What happens when `actor` writes status = `target` on `inspection`: ok, no row (RLS hid it)
-- or the error the database raised.
create function tests.try_move(inspection uuid, actor uuid, target public.inspection_status)
returns text
language plpgsql
as $$
declare
  changed integer;
begin
  perform tests.act_as(actor);
  begin
    update public.inspections set status = target where id = inspection;
    get diagnostics changed = row_count;
  exception when others then
    perform tests.reset_role();
    return sqlerrm;
  end;
  perform tests.reset_role();
  return case when changed = 1 then 'ok' else 'no row' end;
end;
$$;

create temp table statuses on commit drop as
  select unnest(enum_range(null::public.inspection_status)) as status;

-- docs/product.md §4 and §6, written out: the only moves, and who may make each.
create temp table allowed on commit drop as
  select from_status::public.inspection_status, to_status::public.inspection_status, roles::text[]
  from (values
    ('scheduled', 'in_progress', '{owner,admin,manager,inspector}'),
    ('changes_requested', 'in_progress', '{owner,admin,manager,inspector}'),
    ('in_progress', 'submitted', '{owner,admin,manager,inspector}'),
    ('submitted', 'approved', '{owner,admin,manager}'),
    ('submitted', 'changes_requested', '{owner,admin,manager}'),
    ('scheduled', 'canceled', '{owner,admin,manager}'),
    ('in_progress', 'canceled', '{owner,admin,manager}')
  ) v(from_status, to_status, roles);

create temp table roles on commit drop as
  select 'owner' as role, owner as user_id from actors union all
  select 'admin', admin from actors union all
  select 'manager', manager from actors union all
  select 'inspector', inspector from actors union all
  select 'viewer', viewer from actors;

create temp table expected on commit drop as
  select r.role, f.status as from_status, t.status as to_status,
    case
      when r.role = 'viewer' then 'no row'
      when a.roles is null then 'invalid_transition'
      when r.role = any (a.roles) then 'ok'
      else 'forbidden'
    end as outcome
  from roles r cross join statuses f cross join statuses t
  left join allowed a on a.from_status = f.status and a.to_status = t.status
  where f.status <> t.status;

create temp table actual on commit drop as
  select r.role, f.status as from_status, t.status as to_status,
    tests.try_move(tests.inspection_in(f.status), r.user_id, t.status) as outcome
  from roles r cross join statuses f cross join statuses t
  where f.status <> t.status;

select is((select count(*)::int from actual), 150, 'the matrix covers 6 statuses × 5 targets × 5 roles');
select results_eq(
  $$select outcome, count(*)::int from actual group by outcome order by outcome$$,
  $$values ('forbidden', 4), ('invalid_transition', 92), ('no row', 30), ('ok', 24)$$,
  'of the 150 attempts 24 moves succeed, 4 are forbidden, 92 are not moves and viewers touch nothing'
);
select results_eq(
  $$select from_status, to_status, outcome from actual where role = 'owner' order by 1, 2$$,
  $$select from_status, to_status, outcome from expected where role = 'owner' order by 1, 2$$,
  'the owner makes every allowed move and no other'
);
select results_eq(
  $$select from_status, to_status, outcome from actual where role = 'admin' order by 1, 2$$,
  $$select from_status, to_status, outcome from expected where role = 'admin' order by 1, 2$$,
  'an admin makes every allowed move and no other'
);
select results_eq(
  $$select from_status, to_status, outcome from actual where role = 'manager' order by 1, 2$$,
  $$select from_status, to_status, outcome from expected where role = 'manager' order by 1, 2$$,
  'a manager makes every allowed move and no other'
);
select results_eq(
  $$select from_status, to_status, outcome from actual where role = 'inspector' order by 1, 2$$,
  $$select from_status, to_status, outcome from expected where role = 'inspector' order by 1, 2$$,
  'an inspector starts, continues and submits an unassigned inspection; reviewing and canceling are forbidden'
);
select results_eq(
  $$select from_status, to_status, outcome from actual where role = 'viewer' order by 1, 2$$,
  $$select from_status, to_status, outcome from expected where role = 'viewer' order by 1, 2$$,
  'a viewer moves nothing'
);
select is(
  (select count(*)::int from actual where from_status in ('approved', 'canceled') and outcome = 'ok'), 0,
  'approved and canceled are final for every role'
);
select is(
  (select count(*)::int from public.inspections i join actors a on i.org_id = a.org_a
   where i.status = 'in_progress' and i.started_by is null and i.started_at is null), 0,
  'every successful start was stamped with who and when'
);

-- Writing the current status again is not a move either.
select is(tests.try_move(tests.inspection_in('in_progress'), (select manager from actors), 'in_progress'),
  'invalid_transition', 'starting an inspection already in progress is refused');
select is(tests.try_move(tests.inspection_in('submitted'), (select inspector from actors), 'submitted'),
  'invalid_transition', 'submitting a submitted inspection again is refused');

-- Without a user (a worker, the service role) the table still decides.
select throws_ok(
  format('update public.inspections set status = %L where id = %L', 'approved', tests.inspection_in('scheduled')),
  'P0001', 'invalid_transition', 'even the superuser cannot skip from scheduled to approved'
);
select lives_ok(
  format('update public.inspections set status = %L where id = %L', 'in_progress', tests.inspection_in('scheduled')),
  'a system update may make an allowed move'
);

select * from finish();
rollback;
