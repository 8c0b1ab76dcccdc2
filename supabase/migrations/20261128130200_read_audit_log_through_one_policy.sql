-- One select policy on audit_log instead of two (issue 24). 20261124100700 gave owners and admins
-- one permissive policy and every member another; Postgres evaluates both for every row, and
-- Supabase's advisor warns about it (multiple_permissive_policies). The rule stays the same, now
-- in one condition: a member of the organization reads its entries, except invitations' entries,
-- which only owners and admins read (they show invited addresses that the invitations table hides
-- from everyone else). tests/db/150 holds the rule, tests/db/003 the single policy.

drop policy "Owners and admins can read their organization's whole audit log" on public.audit_log;
drop policy "Members can read the audit entries of what they may read" on public.audit_log;

create policy "Members can read the audit entries of what they may read"
  on public.audit_log
  for select
  to authenticated
  using (
    org_id in (select private.org_ids_of_current_user())
    and (
      entity <> 'invitations'
      or org_id in (select private.org_ids_of_current_user('{owner,admin}'))
    )
  );
