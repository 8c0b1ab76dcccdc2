-- Who reads which entries of the audit log. Until now every member read all of it, which showed
-- inspectors and viewers the invited addresses that the invitations table itself hides from them.
-- Now an entry is readable by whoever may read the kind of row it records: owners and admins read
-- every entry, other members every entry but invitations'. The full log (`GET …/audit-log`, the
-- settings page) is for owners, admins and managers, a check the api adds; the dashboard's
-- activity feed, for every member, reads the same table under these policies (docs/actions.md).

drop policy "Members can read their organization's audit log" on public.audit_log;

create policy "Owners and admins can read their organization's whole audit log"
  on public.audit_log
  for select
  to authenticated
  using (org_id in (select private.org_ids_of_current_user('{owner,admin}')));

create policy "Members can read the audit entries of what they may read"
  on public.audit_log
  for select
  to authenticated
  using (
    entity <> 'invitations'
    and org_id in (select private.org_ids_of_current_user())
  );

-- The activity feed lists an organization's newest entries of a few kinds of work.
create index audit_log_org_id_entity_at_idx on public.audit_log (org_id, entity, at desc, id desc);
