-- A schedule's new assignee or rotation must see every site of it (20261129101200). Its check ran
-- as an after-update trigger named schedules_require_people_to_see_its_sites, and a table's
-- triggers of one timing fire in the order of their names: schedules_apply_change ran first,
-- re-planned the occurrences, and the inspections' own check (require_assignee_to_see_site)
-- refused the first occurrence at a site the person does not see — on assignee_id, "Choose a
-- member who can see this site.", even for a change of the rotation. Named to sort before
-- schedules_apply_change, the schedule's check answers first, on the field that changed, and no
-- occurrence is planned for a change that is refused.
drop trigger schedules_require_people_to_see_its_sites on public.schedules;

create trigger schedules_admit_only_people_seeing_its_sites
  after update of assignee_id, rotation_user_ids on public.schedules
  for each row
  when (old.assignee_id is distinct from new.assignee_id or old.rotation_user_ids is distinct from new.rotation_user_ids)
  execute function private.require_schedule_people_to_see_its_sites();
