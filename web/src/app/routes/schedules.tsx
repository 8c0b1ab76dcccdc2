import { CalendarDays, Plus } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { FormAlert } from '@/components/ui/form-alert';
import { ScheduleList } from '@/features/schedules/components/schedule-list';
import { canManageSchedules } from '@/features/schedules/utils/schedule-access';
import { useOrgRoute } from '../org-context';
import type { ScheduleRouteState } from './schedule-detail';

// The other schedule screens load with this one, as one chunk (app/router.tsx).
export { ScheduleDetailRoute } from './schedule-detail';
export { CalendarRoute } from './calendar';

/** `/o/:org/schedules`: the organization's recurring schedules; managers add them. */
export function SchedulesRoute() {
  const { membership } = useOrgRoute();
  const base = `/o/${membership.org_slug}`;
  // "… was deleted." after a deletion.
  const notice = (useLocation().state as ScheduleRouteState | null)?.notice;
  return (
    <ContentLayout
      title="Schedules"
      description={membership.org_name}
      actions={
        <>
          <Link className="button button-secondary" to={`${base}/calendar`}>
            <CalendarDays aria-hidden="true" size={18} />
            Calendar
          </Link>
          {canManageSchedules(membership.role) ? (
            <Link className="button button-primary" to={`${base}/schedules/new`}>
              <Plus aria-hidden="true" size={18} />
              New schedule
            </Link>
          ) : null}
        </>
      }
    >
      <div className="stack">
        <FormAlert tone="success" message={notice} />
        <ScheduleList orgId={membership.org_id} orgSlug={membership.org_slug} />
      </div>
    </ContentLayout>
  );
}
