import type { ScheduleDetail, ScheduleOccurrence } from '@schemas/schedules';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { QueryError } from '@/components/ui/query-error';
import { formatDateTime } from '@/lib/format';
import { instantToWallClock } from '@/lib/zoned-time';
import { nextOccurrencesQueryOptions } from '../api/get-occurrences';
import { scheduleSentence } from '../utils/recurrence-words';
import { formatDay, formatLocalTime, todayIn } from '../utils/schedule-time';
import { OccurrenceStateBadge } from './occurrence-state';

/** Sites whose next occurrences the page reads (one request each); the calendar has every site's. */
export const SITES_SHOWN = 8;
const NEXT_COUNT = 5;

interface ScheduleSummaryProps {
  schedule: ScheduleDetail;
  orgSlug: string;
  /** Members' names by id, for the assignee and the rotation. */
  names: Map<string, string>;
}

/** What a schedule is, in words. */
export function ScheduleSummary({ schedule, orgSlug, names }: ScheduleSummaryProps) {
  const today = todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');
  const assigned = schedule.assignee_id
    ? (schedule.assignee_name ?? names.get(schedule.assignee_id) ?? 'A former member')
    : schedule.rotation_user_ids.length > 0
      ? `In turn: ${schedule.rotation_user_ids.map((id) => names.get(id) ?? 'a former member').join(', ')}`
      : 'Anyone: any inspector may claim each occurrence';
  return (
    <dl className="details">
      <div>
        <dt>Repeats</dt>
        <dd className="schedule-words">{scheduleSentence(schedule, today)}</dd>
      </div>
      <div>
        <dt>Template</dt>
        <dd>
          <Link to={`/o/${orgSlug}/templates/${schedule.template_id}`}>{schedule.template_name}</Link>
        </dd>
      </div>
      <div>
        <dt>Sites</dt>
        <dd>{schedule.site_count === 1 ? '1 site' : `${schedule.site_count} sites`}, each at its own local time</dd>
      </div>
      <div>
        <dt>Assigned to</dt>
        <dd>{assigned}</dd>
      </div>
      <div>
        <dt>Starts</dt>
        <dd>{formatDay(schedule.start_date, { year: true })}</dd>
      </div>
      <div>
        <dt>Ends</dt>
        <dd>{schedule.end_date ? formatDay(schedule.end_date, { year: true }) : /COUNT=|UNTIL=/.test(schedule.rrule) ? 'As its rule says (above)' : 'Never'}</dd>
      </div>
      <div>
        <dt>Titles</dt>
        <dd>{schedule.title_pattern}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          {schedule.deleted_at
            ? `Deleted ${formatDateTime(schedule.deleted_at)}`
            : schedule.paused_at
              ? `Paused since ${formatDateTime(schedule.paused_at)}`
              : 'Running: occurrences are made 14 days ahead'}
        </dd>
      </div>
    </dl>
  );
}

function OccurrenceLine({ occurrence, orgSlug }: { occurrence: ScheduleOccurrence; orgSlug: string }) {
  const starts = formatLocalTime(occurrence.local_start, occurrence.occurrence_at, occurrence.site_timezone, { year: true });
  const dueLocal = instantToWallClock(occurrence.due_at, occurrence.site_timezone);
  return (
    <li className="occurrence-line">
      {occurrence.inspection ? <Link to={`/o/${orgSlug}/inspections/${occurrence.inspection.id}`}>{starts}</Link> : <span>{starts}</span>}
      <span className="muted"> — due {formatLocalTime(dueLocal, occurrence.due_at, occurrence.site_timezone)}</span>{' '}
      <OccurrenceStateBadge state={occurrence.state} compact />
    </li>
  );
}

/**
 * A saved schedule's next occurrences at its first sites, as the database has them (the
 * occurrences route: made or not, with each one's state and inspection), and the next one of each
 * in one line.
 */
export function UpcomingOccurrences({ orgId, orgSlug, schedule }: { orgId: string; orgSlug: string; schedule: ScheduleDetail }) {
  const sites = schedule.sites.filter((site) => !site.archived).slice(0, SITES_SHOWN);
  const next = useQuery(nextOccurrencesQueryOptions(orgId, schedule.id, sites.map((site) => site.id), NEXT_COUNT));
  if (sites.length === 0) return <p className="muted">It has no active site: it makes nothing.</p>;
  if (next.isPending) return <p className="muted">Loading the next occurrences…</p>;
  if (next.isError && !next.data) return <QueryError error={next.error} onRetry={() => next.refetch()} />;
  const bySite = next.data;
  // The soonest first: "next" reads in time order.
  const firsts = sites
    .map((site, i) => ({ site, first: bySite[i][0] }))
    .filter((entry) => entry.first)
    .sort((a, b) => a.first.occurrence_at.localeCompare(b.first.occurrence_at));
  return (
    <div className="stack">
      {firsts.length > 0 ? (
        <p data-testid="next-occurrences">
          Next:{' '}
          {firsts.map(({ site, first }, i) => (
            <span key={site.id}>
              {i > 0 ? ', ' : ''}
              {formatLocalTime(first.local_start, first.occurrence_at, site.timezone)} ({site.name})
            </span>
          ))}
        </p>
      ) : (
        <p>No occurrence in the coming year{schedule.paused ? ' while it is paused' : ''}.</p>
      )}
      <ul className="preview-groups">
        {sites.map((site, i) => (
          <li key={site.id}>
            <h3>
              {site.name} <span className="muted">({site.timezone})</span>
            </h3>
            {bySite[i].length === 0 ? (
              <p className="muted">None in the coming year.</p>
            ) : (
              <ol className="preview-occurrences" aria-label={`Next occurrences at ${site.name}`}>
                {bySite[i].map((occurrence) => (
                  <OccurrenceLine key={occurrence.occurrence_at} occurrence={occurrence} orgSlug={orgSlug} />
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
      {schedule.site_count > sites.length ? (
        <p className="muted">
          The first {sites.length} of its {schedule.site_count} sites.{' '}
          <Link to={`/o/${orgSlug}/calendar?schedule=${schedule.id}`}>See every site's in the calendar</Link>
        </p>
      ) : null}
    </div>
  );
}
