import { isId } from '@schemas/ids';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { QueryError } from '@/components/ui/query-error';
import { allSchedulesQueryOptions } from '@/features/schedules/api/get-all-schedules';
import { OccurrenceCalendar, type CalendarPlace } from '@/features/schedules/components/occurrence-calendar';
import { todayIn } from '@/features/schedules/utils/schedule-time';
import { deviceTimeZone } from '@/lib/zoned-time';
import { useOrgRoute } from '../org-context';

const DATE = /^\d{4}-\d\d-\d\d$/;

/** `/o/:org/calendar?view=week|month&date=YYYY-MM-DD&schedule=<id>`: occurrences by day; where it looks is in the URL, so it can be linked to. */
export function CalendarRoute() {
  const { membership } = useOrgRoute();
  const [search, setSearch] = useSearchParams();
  const today = todayIn(deviceTimeZone());
  const date = search.get('date') ?? '';
  const scheduleId = search.get('schedule') ?? '';
  const place: CalendarPlace = {
    view: search.get('view') === 'month' ? 'month' : 'week',
    date: DATE.test(date) && !Number.isNaN(Date.parse(date)) ? date : today,
    scheduleId: isId(scheduleId) ? scheduleId : '',
  };
  const schedules = useQuery(allSchedulesQueryOptions(membership.org_id));
  return (
    <ContentLayout title="Calendar" description={`${membership.org_name}: occurrences of its schedules, each at its site's local time.`}>
      {schedules.isPending ? (
        <p className="muted">Loading schedules…</p>
      ) : schedules.isError && !schedules.data ? (
        <QueryError error={schedules.error} onRetry={() => schedules.refetch()} />
      ) : (
        <OccurrenceCalendar
          orgId={membership.org_id}
          orgSlug={membership.org_slug}
          schedules={schedules.data}
          place={place}
          today={today}
          onPlaceChange={(next) => {
            const params = new URLSearchParams();
            params.set('view', next.view);
            params.set('date', next.date);
            if (next.scheduleId) params.set('schedule', next.scheduleId);
            setSearch(params, { replace: true });
          }}
        />
      )}
    </ContentLayout>
  );
}
