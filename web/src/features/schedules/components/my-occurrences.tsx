import type { Schedule } from '@schemas/schedules';
import { useQuery } from '@tanstack/react-query';
import { MapPin } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { QueryError } from '@/components/ui/query-error';
import { allSchedulesQueryOptions } from '../api/get-all-schedules';
import { useOccurrencesOf, type OccurrenceOf } from '../api/get-occurrences';
import { addDays, formatDay, instantsAround, todayIn, zoneLabel } from '../utils/schedule-time';
import { OccurrenceStateBadge } from './occurrence-state';
import './schedules.css';

/** Schedules whose occurrences may be the user's: one request each. */
const SCHEDULES_READ = 50;
const SHOWN_PER_GROUP = 12;
const WEEK_DAYS = 7;

/** Whether a schedule's occurrences can be the user's: theirs, in turn with others, or anyone's to claim. */
function mayBeMine(schedule: Schedule, userId: string): boolean {
  if (schedule.paused) return false;
  if (schedule.assignee_id) return schedule.assignee_id === userId;
  return schedule.rotation_user_ids.length === 0 || schedule.rotation_user_ids.includes(userId);
}

/** Made for me or for anyone to claim, and not canceled. */
function isMine(occurrence: OccurrenceOf, userId: string): boolean {
  const inspection = occurrence.inspection;
  return inspection !== null && inspection.status !== 'canceled' && (inspection.assignee_id === userId || inspection.assignee_id === null);
}

function Entries({ entries, orgSlug, label }: { entries: OccurrenceOf[]; orgSlug: string; label: string }) {
  const [all, setAll] = useState(false);
  const shown = all ? entries : entries.slice(0, SHOWN_PER_GROUP);
  return (
    <>
      <ul className="my-occurrences" aria-label={label}>
        {shown.map((occurrence) => (
          <li key={`${occurrence.schedule.id}-${occurrence.site_id}-${occurrence.occurrence_at}`} className={`occurrence occurrence-${occurrence.state}`}>
            <Link to={`/o/${orgSlug}/inspections/${occurrence.inspection!.id}`} className="occurrence-body">
              <span className="occurrence-time">
                {label === 'Today' ? '' : `${formatDay(occurrence.local_start.slice(0, 10))} `}
                {occurrence.local_start.slice(11, 16)} {zoneLabel(occurrence.site_timezone, occurrence.occurrence_at)}
              </span>
              <span className="occurrence-title">{occurrence.inspection!.title}</span>
              <span className="occurrence-site">
                <MapPin aria-hidden="true" size={14} /> {occurrence.site_name}
                {occurrence.inspection!.assignee_id === null ? ' · anyone may claim it' : ''}
              </span>
              <OccurrenceStateBadge state={occurrence.state} compact />
            </Link>
          </li>
        ))}
      </ul>
      {shown.length < entries.length ? (
        <button type="button" className="button button-link" onClick={() => setAll(true)}>
          Show all {entries.length}
        </button>
      ) : null}
    </>
  );
}

/**
 * The inspector's part of the dashboard: the occurrences that open today and this week, assigned to
 * them or to anyone (which they may claim). "This week" is the next seven days, rolling (as the
 * dashboard's figures count the last seven): on a Friday, Monday's work is in it. "Today" and the
 * days are the site's: an occurrence at 08:00 in Auckland opens today when it is today in Auckland.
 */
export function MyOccurrences({ orgId, orgSlug, userId }: { orgId: string; orgSlug: string; userId: string }) {
  const schedules = useQuery(allSchedulesQueryOptions(orgId));
  const mine = (schedules.data ?? []).filter((schedule) => mayBeMine(schedule, userId));
  // From yesterday to eight days on, on this device: every zone's today and next seven days are inside.
  const [device] = useState(() => todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'));
  const range = instantsAround(addDays(device, -1), addDays(device, WEEK_DAYS + 1));
  const occurrences = useOccurrencesOf(orgId, mine.slice(0, SCHEDULES_READ), range, 1);

  if (schedules.isPending || (occurrences.pending && occurrences.rows.length === 0)) return <p className="muted">Loading your occurrences…</p>;
  if (schedules.isError && !schedules.data) return <QueryError error={schedules.error} onRetry={() => schedules.refetch()} />;
  if (occurrences.error && occurrences.rows.length === 0) return <QueryError error={occurrences.error} onRetry={occurrences.refetch} />;

  const today: OccurrenceOf[] = [];
  const week: OccurrenceOf[] = [];
  const now = Date.now();
  for (const occurrence of occurrences.rows) {
    if (!isMine(occurrence, userId)) continue;
    const siteToday = todayIn(occurrence.site_timezone, now);
    const day = occurrence.local_start.slice(0, 10);
    if (day === siteToday) today.push(occurrence);
    else if (day > siteToday && day <= addDays(siteToday, WEEK_DAYS)) week.push(occurrence);
  }
  // By the day and time at each site, as the calendar has them.
  const byStart = (a: OccurrenceOf, b: OccurrenceOf) => a.local_start.localeCompare(b.local_start) || a.site_name.localeCompare(b.site_name);
  today.sort(byStart);
  week.sort(byStart);
  return (
    <div className="stack">
      <div>
        <h3 className="my-occurrences-heading">Opening today</h3>
        {today.length === 0 ? <p className="muted">Nothing of yours opens today.</p> : <Entries entries={today} orgSlug={orgSlug} label="Today" />}
      </div>
      <div>
        <h3 className="my-occurrences-heading">In the next seven days</h3>
        {week.length === 0 ? <p className="muted">Nothing more of yours this week.</p> : <Entries entries={week} orgSlug={orgSlug} label="In the next seven days" />}
      </div>
      {occurrences.more || mine.length > SCHEDULES_READ ? <p className="muted">Not every occurrence could be listed here: the calendar has them all.</p> : null}
      {occurrences.error ? <QueryError error={occurrences.error} onRetry={occurrences.refetch} /> : null}
      <p className="muted">
        Yours and those anyone may claim, at each site's local time. <Link to={`/o/${orgSlug}/calendar`}>Open the calendar</Link>
      </p>
    </div>
  );
}
