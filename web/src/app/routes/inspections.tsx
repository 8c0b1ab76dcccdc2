import { canFillInspection, canScheduleInspections } from '@schemas/inspection-states';
import { CalendarPlus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { useAllPages } from '@/features/inspections/hooks/use-all-pages';
import { InspectionList, type Choice } from '@/features/inspections/components/inspection-list';
import { ScheduleInspectionForm } from '@/features/inspections/components/schedule-inspection-form';
import { useMembers } from '@/features/members/api/get-members';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useTemplates } from '@/features/templates/api/get-templates';
import { useOrgRoute } from '../org-context';
import { useSiteSearch } from '../use-site-search';

/** `/o/:org/inspections`: the live list, and scheduling for managers. */
export function InspectionsRoute() {
  const { membership, userId } = useOrgRoute();
  const navigate = useNavigate();
  const orgId = membership.org_id;
  const canSchedule = canScheduleInspections(membership.role);
  const [scheduling, setScheduling] = useState(false);
  // The pickers' choices come from the other features; the inspection components take them as plain options.
  const filterSites = useSiteSearch(orgId);
  const scheduleSites = useSiteSearch(orgId);
  const members = useMembers(orgId);
  const groups = useGroupTree(orgId).choices;
  const templates = useTemplates(orgId, { q: '', status: 'published' });
  // Members and published templates are few enough to list completely.
  useAllPages(members);
  useAllPages(templates);

  const assigneeChoices = useMemo<Choice[]>(
    () =>
      (members.data?.pages.flatMap((page) => page.data) ?? [])
        // Who could fill an inspection assigned to them.
        .filter((member) => canFillInspection(member.role, member.user_id, { assignee_id: member.user_id }))
        .map((member) => ({ value: member.user_id, label: member.display_name || member.email || 'A member' })),
    [members.data],
  );
  const templateChoices = useMemo<Choice[]>(
    () =>
      (templates.data?.pages.flatMap((page) => page.data) ?? [])
        .filter((template) => template.latest_version !== null)
        .map((template) => ({ value: template.id, label: `${template.name} (version ${template.latest_version})` })),
    [templates.data],
  );

  return (
    <ContentLayout
      title="Inspections"
      description={membership.org_name}
      actions={
        canSchedule && !scheduling ? (
          <Button onClick={() => setScheduling(true)}>
            <CalendarPlus aria-hidden="true" size={18} />
            Schedule inspection
          </Button>
        ) : null
      }
    >
      {scheduling ? (
        <section className="panel" aria-labelledby="schedule-heading">
          <h2 id="schedule-heading">Schedule an inspection</h2>
          <ScheduleInspectionForm
            orgId={orgId}
            sites={scheduleSites}
            templates={templateChoices}
            assignees={assigneeChoices}
            onScheduled={(inspection) => navigate(`/o/${membership.org_slug}/inspections/${inspection.id}`)}
          />
          <p>
            <Button variant="link" onClick={() => setScheduling(false)}>
              Close without scheduling
            </Button>
          </p>
        </section>
      ) : null}
      <section className={scheduling ? 'panel' : undefined} aria-label="Inspection list">
        <InspectionList orgId={orgId} orgSlug={membership.org_slug} userId={userId} sites={filterSites} assignees={assigneeChoices} groups={groups} />
      </section>
    </ContentLayout>
  );
}
