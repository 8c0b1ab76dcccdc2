-- An inspection's answered count (the lists' `answered_count`: its shown items answered with a
-- value, or for photo items with a confirmed photo), with the rule asked once per inspection
-- rather than once per answer and photo (issue 27; docs/site-groups.md, "Hot paths").
--
-- Why: the api counted an inspection's answers and photos under their own read policies. For a
-- member limited to site groups those look each answer's inspection and site up again, two index
-- probes per answer (255 for a page of 51 inspections of 5 items, over 4,000 for the demo's
-- 41-item audit), although the inspection itself had just passed the inspections policy. And the
-- two policies' sub-plans were planned again in every statement that lists inspections: nearly a
-- third of an org-wide member's list statement.
--
-- The view runs as its owner, past the answers' and attachments' policies, and shows an
-- inspection's count only when the caller sees the inspection, by the rule itself (org-wide in
-- its organization, or its site's group among the caller's limited groups: the same two tests as
-- the inspections, answers and attachments read policies). An answer or photo always has its
-- inspection's organization (apply_answer_rules, prepare_attachment), so for an inspection the
-- caller reads it counts exactly what those policies would have shown, and for any other it has
-- no row. security_barrier: a caller's own conditions on the view are not run before the rule,
-- except leakproof ones (the lists' `inspection_id = i.id`, which finds the row by its key).

create view private.answered_count_of_inspection with (security_barrier) as
  select i.id as inspection_id,
         (select count(*)::int from public.answers x
          where x.inspection_id = i.id and x.value is not null and x.item_key <> all (i.hidden_item_keys))
         + (select count(distinct t.item_key)::int from public.attachments t
            where t.inspection_id = i.id and t.confirmed_at is not null and t.item_key <> all (i.hidden_item_keys))
           as answered_count
  from public.inspections i
  where i.org_id = any (array(select private.org_ids_with_every_site()))
     or (select s.group_id from public.sites s where s.id = i.site_id) = any (array(select private.limited_site_group_ids()));

comment on view private.answered_count_of_inspection is 'Each inspection the caller sees (the rule) with its answered count: shown items answered, or with a confirmed photo; read past the answers'' and attachments'' policies, asking the rule once per inspection.';

revoke all on private.answered_count_of_inspection from public, anon, authenticated;
grant select on private.answered_count_of_inspection to authenticated, service_role;
