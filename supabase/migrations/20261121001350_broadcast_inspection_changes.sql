-- Live inspections list and dashboard (PRODUCT.md §4, §7 "Realtime"): every new inspection and
-- every change of its status or scheduling details is broadcast on the organization's topic
-- `org:<id>` as inspection_created / inspection_updated, with the status, so lists and counts
-- refresh without a reload; so is a change in the number of failed items, which the dashboard
-- counts. Score-only changes (most saved answers) go to `inspection:<id>` only
-- (docs/realtime.md), so one busy inspection does not flood the whole organization: the trigger's
-- arguments are the columns whose changes alone are not broadcast (20261121001050).

-- No delete: inspections are canceled, never deleted (only an organization's deletion cascades).
create trigger inspections_broadcast_change
  after insert or update on public.inspections
  for each row execute function private.broadcast_organization_change('score', 'max_score', 'version', 'updated_at');
