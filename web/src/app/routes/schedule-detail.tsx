import { errorCatalogue, formatWording } from '@schemas/errors';
import { isId } from '@schemas/ids';
import { canFillInspection } from '@schemas/inspection-states';
import type { Member } from '@schemas/members';
import type { ScheduleDetail } from '@schemas/schedules';
import { CalendarDays, ClipboardCheck, Pencil } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { QueryError } from '@/components/ui/query-error';
import { useAllPages } from '@/features/inspections/hooks/use-all-pages';
import { useSchedule } from '@/features/schedules/api/get-schedule';
import { ComplianceTable } from '@/features/schedules/components/compliance-figures';
import { ScheduleControls } from '@/features/schedules/components/schedule-controls';
import { ScheduleEditor, type TemplateOption } from '@/features/schedules/components/schedule-editor';
import { ScheduleSummary, UpcomingOccurrences } from '@/features/schedules/components/schedule-summary';
import type { SiteFinder } from '@/features/schedules/components/site-picker';
import { canManageSchedules } from '@/features/schedules/utils/schedule-access';
import { todayIn } from '@/features/schedules/utils/schedule-time';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { useSites } from '@/features/sites/api/get-sites';
import { useTemplates } from '@/features/templates/api/get-templates';
import { describeError } from '@/lib/errors';
import { useGroupParam } from '@/lib/group-param';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { deviceTimeZone } from '@/lib/zoned-time';
import { useOrgRoute } from '../org-context';
import { useMemberChoices } from '../use-member-choices';

export interface ScheduleRouteState {
  notice?: string;
}

const scheduleNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'schedule' });

/** Who can be given occurrences: a member who may fill in an inspection assigned to them. */
const fillsInspections = (member: Member) => canFillInspection(member.role, member.user_id, { assignee_id: member.user_id });

/** Active sites matching what is typed, searched by the api (an organization may have 100,000). */
function useSiteFinder(orgId: string): SiteFinder {
  const [query, setQuery] = useState('');
  const sites = useSites(orgId, { q: useDebouncedValue(query), near: null, archived: 'false' });
  const results = useMemo(() => (sites.data?.pages.flatMap((page) => page.data) ?? []).map(({ id, name, timezone }) => ({ id, name, timezone })), [sites.data]);
  return { query, onQueryChange: setQuery, results, more: sites.hasNextPage, loadMore: () => void sites.fetchNextPage(), loading: sites.isFetching };
}

/** The editor's choices, read by the route from the other features. */
function useEditorChoices(orgId: string) {
  const finder = useSiteFinder(orgId);
  const people = useMemberChoices(orgId, fillsInspections);
  const templates = useTemplates(orgId, { q: '', status: 'published' });
  // Published templates are few enough to list completely.
  useAllPages(templates);
  const templateOptions = useMemo<TemplateOption[]>(
    () =>
      (templates.data?.pages.flatMap((page) => page.data) ?? [])
        .filter((template) => template.latest_version !== null)
        .map((template) => ({ id: template.id, name: template.name, latestVersion: template.latest_version! })),
    [templates.data],
  );
  return { finder, people, templates: templateOptions };
}

function BackToSchedules({ orgSlug }: { orgSlug: string }) {
  return (
    <p>
      <Link to={`/o/${orgSlug}/schedules`}>Back to schedules</Link>
    </p>
  );
}

/** `/o/:org/schedules/new`: managers make a schedule; anyone else is told they can only read them. */
function ScheduleNewRoute() {
  const { membership } = useOrgRoute();
  if (!canManageSchedules(membership.role)) {
    return (
      <ContentLayout title="New schedule" description={membership.org_name}>
        <FormAlert message={errorCatalogue.forbidden.title} />
        <p>Owners, admins and managers make schedules; you can read them.</p>
        <BackToSchedules orgSlug={membership.org_slug} />
      </ContentLayout>
    );
  }
  return <NewSchedule />;
}

function NewSchedule() {
  const { membership } = useOrgRoute();
  const navigate = useNavigate();
  const choices = useEditorChoices(membership.org_id);
  const today = todayIn(deviceTimeZone());
  return (
    <ContentLayout title="New schedule" description={membership.org_name}>
      <section className="panel">
        <ScheduleEditor
          orgId={membership.org_id}
          {...choices}
          today={today}
          onSaved={(schedule) =>
            navigate(`/o/${membership.org_slug}/schedules/${schedule.id}`, {
              state: { notice: `${schedule.name} was created. Its occurrences of the next 14 days are scheduled at each site.` } satisfies ScheduleRouteState,
            })
          }
          onCancel={() => navigate(`/o/${membership.org_slug}/schedules`)}
        />
      </section>
    </ContentLayout>
  );
}

/** `/o/:org/schedules/:scheduleId`, and `/o/:org/schedules/new`. */
export function ScheduleDetailRoute() {
  const { scheduleId = '' } = useParams();
  if (scheduleId === 'new') return <ScheduleNewRoute />;
  return isId(scheduleId) ? <ScheduleDetailPage key={scheduleId} scheduleId={scheduleId} /> : <ScheduleNotFound />;
}

function ScheduleNotFound() {
  const { membership } = useOrgRoute();
  return (
    <ContentLayout title={scheduleNotFound} description={membership.org_name}>
      <p>It may belong to another organization, or the address is wrong.</p>
      <BackToSchedules orgSlug={membership.org_slug} />
    </ContentLayout>
  );
}

function ScheduleEditPanel({ schedule, onDone }: { schedule: ScheduleDetail; onDone: (notice?: string) => void }) {
  const { membership } = useOrgRoute();
  const choices = useEditorChoices(membership.org_id);
  return (
    <section className="panel" aria-labelledby="edit-heading">
      <h2 id="edit-heading">Edit</h2>
      <p className="muted">A change applies to the occurrences that start from now on; those already started are kept as they are.</p>
      <ScheduleEditor
        orgId={membership.org_id}
        schedule={schedule}
        {...choices}
        today={todayIn(deviceTimeZone())}
        onSaved={() => onDone('Saved. Its future occurrences follow the change.')}
        onCancel={() => onDone()}
      />
    </section>
  );
}

function ScheduleDetailPage({ scheduleId }: { scheduleId: string }) {
  const { membership } = useOrgRoute();
  const location = useLocation();
  const navigate = useNavigate();
  const schedule = useSchedule(membership.org_id, scheduleId);
  const memberChoices = useMemberChoices(membership.org_id);
  const names = useMemo(() => new Map(memberChoices.map((choice) => [choice.value, choice.label])), [memberChoices]);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | undefined>((location.state as ScheduleRouteState | null)?.notice);
  const base = `/o/${membership.org_slug}`;

  if (schedule.isPending) return <LoadingScreen />;
  if (schedule.isError && !schedule.data) {
    if (describeError(schedule.error).code === 'not_found') return <ScheduleNotFound />;
    return (
      <ContentLayout title="Schedule" description={membership.org_name}>
        <QueryError error={schedule.error} onRetry={() => schedule.refetch()} />
        <BackToSchedules orgSlug={membership.org_slug} />
      </ContentLayout>
    );
  }
  const data = schedule.data;
  const deleted = data.deleted_at !== null;
  const canManage = canManageSchedules(membership.role) && !deleted;
  return (
    <ContentLayout
      title={data.name}
      description={deleted ? 'Deleted: kept for its past occurrences.' : data.paused ? 'Paused: nothing new is made.' : membership.org_name}
      actions={
        canManage && !editing ? (
          <Button
            onClick={() => {
              setNotice(undefined);
              setEditing(true);
            }}
          >
            <Pencil aria-hidden="true" size={18} />
            Edit schedule
          </Button>
        ) : null
      }
    >
      <FormAlert tone="success" message={notice} />
      {editing ? (
        <ScheduleEditPanel
          schedule={data}
          onDone={(message) => {
            setEditing(false);
            setNotice(message);
          }}
        />
      ) : (
        <>
          <section className="panel" aria-labelledby="schedule-heading">
            <h2 id="schedule-heading">Schedule</h2>
            <ScheduleSummary schedule={data} orgSlug={membership.org_slug} names={names} />
          </section>
          {!deleted ? (
            <section className="panel" aria-labelledby="next-heading">
              <h2 id="next-heading">Next occurrences</h2>
              <UpcomingOccurrences orgId={membership.org_id} orgSlug={membership.org_slug} schedule={data} />
            </section>
          ) : null}
          <section className="panel" aria-labelledby="links-heading">
            <h2 id="links-heading">Its occurrences</h2>
            <ul className="link-list">
              {/* The calendar shows the schedules that run; a deleted one's past is in its inspections. */}
              {!deleted ? (
                <li>
                  <Link to={`${base}/calendar?schedule=${data.id}`}>
                    <CalendarDays aria-hidden="true" size={18} />
                    See them in the calendar
                  </Link>
                </li>
              ) : null}
              <li>
                <Link to={`${base}/inspections?schedule_id=${data.id}`}>
                  <ClipboardCheck aria-hidden="true" size={18} />
                  See its inspections
                </Link>
              </li>
            </ul>
          </section>
          <section className="panel" aria-labelledby="compliance-heading">
            <h2 id="compliance-heading">Compliance</h2>
            <ScheduleCompliance orgId={membership.org_id} orgSlug={membership.org_slug} scheduleId={data.id} />
          </section>
          {canManage ? (
            <section className="panel" aria-labelledby="pause-heading">
              <h2 id="pause-heading">{data.paused ? 'Paused' : 'Pause or delete'}</h2>
              <ScheduleControls
                orgId={membership.org_id}
                schedule={data}
                onMoved={(move, message) => {
                  if (move === 'delete') navigate(`${base}/schedules`, { state: { notice: message } satisfies ScheduleRouteState });
                  else setNotice(message);
                }}
              />
            </section>
          ) : null}
        </>
      )}
      <BackToSchedules orgSlug={membership.org_slug} />
    </ContentLayout>
  );
}

/** A schedule's compliance by site, of one site group's sites when the page's address says (`?group=<id>`). */
function ScheduleCompliance({ orgId, orgSlug, scheduleId }: { orgId: string; orgSlug: string; scheduleId: string }) {
  const { choices } = useGroupTree(orgId);
  const [groupId, setGroupId] = useGroupParam();
  return <ComplianceTable orgId={orgId} orgSlug={orgSlug} groupBy="site" scheduleId={scheduleId} siteGroups={{ choices, groupId, onChange: setGroupId }} />;
}
