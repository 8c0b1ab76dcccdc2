-- private.stop_if_changed, with which an answer batch's write stops when what it was checked
-- against changed since it was read (api/answers.ts, issue 15): FC409 when told so, nothing
-- otherwise; a signed-in caller may use it, anon may not.
begin;
select plan(4);

set local role authenticated;
select throws_ok($$select private.stop_if_changed(true)$$, 'FC409', 'changed since it was read', 'it stops the statement when something changed');
select lives_ok($$select private.stop_if_changed(false)$$, 'and lets it go on when nothing did');
reset role;

set local role anon;
select throws_ok($$select private.stop_if_changed(false)$$, '42501', null, 'anon cannot call it');
reset role;

select lives_ok($$select private.stop_if_changed(null)$$, 'an unknown answer (null) does not stop it');

select * from finish();
rollback;
