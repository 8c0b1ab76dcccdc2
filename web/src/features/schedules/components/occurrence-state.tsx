import type { OccurrenceState } from '@schemas/schedules';
import './schedules.css';
import { Ban, CalendarX, CircleCheck, CircleDot, CirclePlay, CircleSlash, Clock, ClockAlert, Pause, type LucideIcon } from 'lucide-react';

/**
 * Each state of an occurrence (the api's `state`) as the calendar and the lists show it: a colour,
 * and always an icon and words too, so colour is never the only sign.
 */
export const OCCURRENCE_STATE_LOOK: Record<OccurrenceState, { label: string; icon: LucideIcon; description: string }> = {
  upcoming: { label: 'Upcoming', icon: Clock, description: 'Not open yet.' },
  scheduled: { label: 'Open', icon: CircleDot, description: 'Open now, not started.' },
  in_progress: { label: 'In progress', icon: CirclePlay, description: 'Started, not submitted yet.' },
  done_on_time: { label: 'Done on time', icon: CircleCheck, description: 'Submitted by its due time (submitted or approved).' },
  done_late: { label: 'Done late', icon: ClockAlert, description: 'Submitted after its due time.' },
  missed: { label: 'Missed', icon: CalendarX, description: 'Due and never submitted; it can still be started.' },
  canceled: { label: 'Canceled', icon: Ban, description: 'Canceled by a person, or by a pause, an edit or a deletion of its schedule.' },
  paused: { label: 'Paused', icon: Pause, description: 'Its schedule is paused or deleted: it will not be made.' },
  not_scheduled: { label: 'Not scheduled', icon: CircleSlash, description: 'Past and never made: before the schedule existed, or while it was paused.' },
};

/** The order the legend lists them in: as an occurrence goes. */
export const LEGEND_ORDER: OccurrenceState[] = ['upcoming', 'scheduled', 'in_progress', 'done_on_time', 'done_late', 'missed', 'canceled', 'paused', 'not_scheduled'];

/** An occurrence's state: its icon and label on its colour. */
export function OccurrenceStateBadge({ state, compact = false }: { state: OccurrenceState; compact?: boolean }) {
  const look = OCCURRENCE_STATE_LOOK[state];
  const Icon = look.icon;
  return (
    <span className={`occurrence-state occurrence-${state}`}>
      <Icon aria-hidden="true" size={compact ? 14 : 16} />
      <span className={compact ? 'occurrence-state-label-compact' : undefined}>{look.label}</span>
    </span>
  );
}

/** The states with what each means, beside the calendar. */
export function OccurrenceLegend() {
  return (
    <details className="occurrence-legend">
      <summary>What the colours and icons mean</summary>
      <ul>
        {LEGEND_ORDER.map((state) => (
          <li key={state}>
            <OccurrenceStateBadge state={state} /> <span className="muted">{OCCURRENCE_STATE_LOOK[state].description}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

