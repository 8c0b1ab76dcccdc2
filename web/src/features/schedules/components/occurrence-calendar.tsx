import type { Schedule } from '@schemas/schedules';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useSyncExternalStore } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { QueryError } from '@/components/ui/query-error';
import { SelectField } from '@/components/ui/select-field';
import { useOccurrencesOf, type OccurrenceOf } from '../api/get-occurrences';
import { addDays, addMonths, daysBetween, formatDay, formatMonth, instantsAround, startOfMonth, startOfWeek, WEEKDAY_NAMES, zoneLabel } from '../utils/schedule-time';
import { OccurrenceLegend, OccurrenceStateBadge } from './occurrence-state';

export type CalendarView = 'week' | 'month';

/** Schedules read at once when none is chosen: one request each. */
export const CALENDAR_SCHEDULES_AT_ONCE = 50;
/** A month day shows this many; "N more" opens its week. */
const MONTH_DAY_ENTRIES = 3;

const PHONE = '(max-width: 40rem)';
function subscribePhone(onChange: () => void) {
  const query = window.matchMedia(PHONE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/** Whether the screen is a phone's width: the calendar is a list there. */
function usePhoneWidth(): boolean {
  return useSyncExternalStore(subscribePhone, () => window.matchMedia(PHONE).matches);
}

export interface CalendarPlace {
  view: CalendarView;
  /** A date in the week or month shown. */
  date: string;
  /** One schedule, or '' for all. */
  scheduleId: string;
}

interface OccurrenceCalendarProps {
  orgId: string;
  orgSlug: string;
  /** The organization's schedules (not deleted). */
  schedules: Schedule[];
  place: CalendarPlace;
  /** Today, on this device. */
  today: string;
  onPlaceChange: (place: CalendarPlace) => void;
}

/** The days the view shows: a week from Monday, or the weeks that hold the month. */
function daysOf({ view, date }: CalendarPlace): string[] {
  if (view === 'week') return daysBetween(startOfWeek(date), addDays(startOfWeek(date), 6));
  const last = addDays(addMonths(date, 1), -1);
  return daysBetween(startOfWeek(startOfMonth(date)), addDays(startOfWeek(last), 6));
}

function rangeTitle({ view, date }: CalendarPlace): string {
  if (view === 'month') return formatMonth(date);
  const first = startOfWeek(date);
  return `${formatDay(first)} – ${formatDay(addDays(first, 6), { year: true })}`;
}

function OccurrenceEntry({ occurrence, orgSlug, showSchedule, compact = false }: { occurrence: OccurrenceOf; orgSlug: string; showSchedule: boolean; compact?: boolean }) {
  const time = `${occurrence.local_start.slice(11, 16)} ${zoneLabel(occurrence.site_timezone, occurrence.occurrence_at)}`;
  const content = (
    <>
      <span className="occurrence-time">{time}</span>
      <span className="occurrence-site">{occurrence.site_name}</span>
      {showSchedule ? <span className="occurrence-schedule">{occurrence.schedule.name}</span> : null}
      {/* Occurrences become inspections 14 days ahead: one further off has no inspection to open yet. */}
      {!occurrence.inspection && occurrence.state === 'upcoming' && !compact ? <span className="occurrence-schedule">not made yet</span> : null}
      <OccurrenceStateBadge state={occurrence.state} compact={compact} />
    </>
  );
  return (
    <li className={`occurrence occurrence-${occurrence.state}`}>
      {occurrence.inspection ? (
        <Link to={`/o/${orgSlug}/inspections/${occurrence.inspection.id}`} className="occurrence-body">
          {content}
        </Link>
      ) : (
        <span className="occurrence-body" title="Not made yet: occurrences become inspections 14 days ahead.">
          {content}
        </span>
      )}
    </li>
  );
}

/**
 * Occurrences of the organization's schedules by day, coloured by state and named by icon and word:
 * a week or a month on a wide screen, a list of days on a phone. Each is placed on its local date
 * at its site and shows its local time with the site's zone; each made one links to its inspection.
 */
export function OccurrenceCalendar({ orgId, orgSlug, schedules, place, today, onPlaceChange }: OccurrenceCalendarProps) {
  const phone = usePhoneWidth();
  const days = daysOf(place);
  const chosen = place.scheduleId ? schedules.filter((schedule) => schedule.id === place.scheduleId) : schedules.slice(0, CALENDAR_SCHEDULES_AT_ONCE);
  const range = instantsAround(days[0], days[days.length - 1]);
  const occurrences = useOccurrencesOf(orgId, chosen, range, place.scheduleId ? 5 : 1);
  const byDay = new Map<string, OccurrenceOf[]>();
  for (const occurrence of occurrences.rows) {
    const day = occurrence.local_start.slice(0, 10);
    if (!byDay.has(day)) byDay.set(day, []);
    byDay.get(day)!.push(occurrence);
  }
  // In local time order within a day, whatever the zone.
  for (const list of byDay.values()) list.sort((a, b) => a.local_start.localeCompare(b.local_start) || a.site_name.localeCompare(b.site_name));
  const showSchedule = !place.scheduleId;
  const step = (direction: -1 | 1) =>
    onPlaceChange({ ...place, date: place.view === 'week' ? addDays(startOfWeek(place.date), 7 * direction) : addMonths(place.date, direction) });
  const inMonth = (day: string) => place.view === 'week' || day.slice(0, 7) === place.date.slice(0, 7);
  const shownDays = days.filter(inMonth);
  const count = shownDays.reduce((sum, day) => sum + (byDay.get(day)?.length ?? 0), 0);

  return (
    <div className={`stack calendar${phone ? '' : ' calendar-wide'}`}>
      <div className="calendar-toolbar">
        <div className="button-row" role="group" aria-label="View">
          {(['week', 'month'] as const).map((view) => (
            <Button key={view} variant={place.view === view ? 'primary' : 'secondary'} aria-pressed={place.view === view} onClick={() => onPlaceChange({ ...place, view })}>
              {view === 'week' ? 'Week' : 'Month'}
            </Button>
          ))}
        </div>
        <div className="button-row calendar-steps">
          <Button variant="secondary" className="icon-button" aria-label={place.view === 'week' ? 'Previous week' : 'Previous month'} onClick={() => step(-1)}>
            <ChevronLeft aria-hidden="true" size={20} />
          </Button>
          <Button variant="secondary" onClick={() => onPlaceChange({ ...place, date: today })}>
            Today
          </Button>
          <Button variant="secondary" className="icon-button" aria-label={place.view === 'week' ? 'Next week' : 'Next month'} onClick={() => step(1)}>
            <ChevronRight aria-hidden="true" size={20} />
          </Button>
        </div>
        <SelectField
          label="Schedule"
          name="schedule"
          options={[{ value: '', label: 'All schedules' }, ...schedules.map((schedule) => ({ value: schedule.id, label: schedule.paused ? `${schedule.name} (paused)` : schedule.name }))]}
          value={place.scheduleId}
          onChange={(event) => onPlaceChange({ ...place, scheduleId: event.target.value })}
        />
      </div>
      <h2 className="calendar-title" aria-live="polite">
        {rangeTitle(place)}
      </h2>
      <OccurrenceLegend />
      {schedules.length === 0 ? (
        <p>
          No schedules yet. <Link to={`/o/${orgSlug}/schedules`}>See the schedules</Link>
        </p>
      ) : occurrences.error && occurrences.rows.length === 0 ? (
        <QueryError error={occurrences.error} onRetry={occurrences.refetch} />
      ) : (
        <>
          <p className="muted" role="status">
            {occurrences.pending
              ? 'Loading occurrences…'
              : `${count === 1 ? '1 occurrence' : `${count} occurrences`}${occurrences.more ? ' shown; there are more' : ''}, each at its site's local time.`}
          </p>
          {occurrences.more || (!place.scheduleId && schedules.length > CALENDAR_SCHEDULES_AT_ONCE) ? (
            <p className="form-alert form-alert-info">
              {place.scheduleId
                ? 'This schedule has more occurrences in this range than are shown: the first 1,000 are.'
                : `Not every occurrence is shown${schedules.length > CALENDAR_SCHEDULES_AT_ONCE ? ` (the first ${CALENDAR_SCHEDULES_AT_ONCE} schedules are read)` : ''}: choose a schedule to see all of its.`}
            </p>
          ) : null}
          {occurrences.error ? <QueryError error={occurrences.error} onRetry={occurrences.refetch} /> : null}
          {phone ? (
            count === 0 && !occurrences.pending ? (
              <p>Nothing scheduled in this {place.view}.</p>
            ) : (
              <ol className="calendar-list" aria-label="Occurrences by day">
                {shownDays
                  .filter((day) => byDay.has(day))
                  .map((day) => (
                    <li key={day}>
                      <h3 className={day === today ? 'calendar-today' : undefined}>
                        {formatDay(day, { long: true })}
                        {day === today ? ' (today)' : ''}
                      </h3>
                      <ul className="occurrence-list">
                        {byDay.get(day)!.map((occurrence) => (
                          <OccurrenceEntry key={`${occurrence.schedule.id}-${occurrence.site_id}-${occurrence.occurrence_at}`} occurrence={occurrence} orgSlug={orgSlug} showSchedule={showSchedule} />
                        ))}
                      </ul>
                    </li>
                  ))}
              </ol>
            )
          ) : (
            <div className={`calendar-grid calendar-${place.view}`}>
              {/* A month's columns are named once; a week's days name themselves. */}
              {place.view === 'month'
                ? WEEKDAY_NAMES.map((name) => (
                    <div key={name} className="calendar-weekday" aria-hidden="true">
                      {name.slice(0, 3)}
                    </div>
                  ))
                : null}
              {days.map((day) => {
                const entries = byDay.get(day) ?? [];
                const shown = place.view === 'month' ? entries.slice(0, MONTH_DAY_ENTRIES) : entries;
                return (
                  <section
                    key={day}
                    className={`calendar-day${inMonth(day) ? '' : ' calendar-day-outside'}${day === today ? ' calendar-today' : ''}`}
                    aria-label={`${formatDay(day, { year: true, long: true })}${day === today ? ', today' : ''}`}
                  >
                    <h3 className="calendar-day-number">{place.view === 'week' ? formatDay(day) : Number(day.slice(8, 10))}</h3>
                    {inMonth(day) && shown.length > 0 ? (
                      <ul className="occurrence-list">
                        {shown.map((occurrence) => (
                          <OccurrenceEntry
                            key={`${occurrence.schedule.id}-${occurrence.site_id}-${occurrence.occurrence_at}`}
                            occurrence={occurrence}
                            orgSlug={orgSlug}
                            showSchedule={showSchedule && place.view === 'week'}
                            compact={place.view === 'month'}
                          />
                        ))}
                      </ul>
                    ) : null}
                    {inMonth(day) && entries.length > shown.length ? (
                      <Button variant="link" className="calendar-more" onClick={() => onPlaceChange({ ...place, view: 'week', date: day })}>
                        {entries.length - shown.length} more
                      </Button>
                    ) : null}
                  </section>
                );
              })}
            </div>
          )}
        </>
      )}
    </div>
  );
}
