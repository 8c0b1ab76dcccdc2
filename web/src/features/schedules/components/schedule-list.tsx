import { CalendarClock, Pause } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { ListScreen } from '@/components/ui/paged-list';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { formatDateTime } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSchedules, type ScheduleFilters } from '../api/get-schedules';
import { scheduleSentence } from '../utils/recurrence-words';
import './schedules.css';

const pausedOptions: { value: ScheduleFilters['paused']; label: string }[] = [
  { value: '', label: 'Running and paused' },
  { value: 'false', label: 'Running' },
  { value: 'true', label: 'Paused' },
];

/** The organization's schedules by name: each one's rule in words, its sites, who does it, when it next occurs. */
export function ScheduleList({ orgId, orgSlug }: { orgId: string; orgSlug: string }) {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const [paused, setPaused] = useState<ScheduleFilters['paused']>('');
  const schedules = useSchedules(orgId, { q, paused });
  const filtered = search.trim() !== '' || paused !== '';
  return (
    <ListScreen
      searchLabel="Find schedules"
      filtersClassName="filters schedule-filters"
      filters={
        <>
          <TextField label="Search schedules" name="q" type="search" value={search} onChange={(event) => setSearch(event.target.value)} placeholder="Name" maxLength={200} />
          <SelectField label="Show" name="paused" options={pausedOptions} value={paused} onChange={(event) => setPaused(event.target.value as ScheduleFilters['paused'])} />
        </>
      }
      query={schedules}
      loadingText="Loading schedules…"
      noun={['schedule', 'schedules']}
      emptyText={filtered ? 'No schedules match.' : 'No schedules yet.'}
    >
      {(rows, busy) => (
        <ul className="site-list" aria-label="Schedules" aria-busy={busy}>
          {rows.map((schedule) => (
            <li key={schedule.id} className="template-row schedule-row">
              {schedule.paused ? <Pause aria-hidden="true" className="site-pin" size={22} /> : <CalendarClock aria-hidden="true" className="site-pin" size={22} />}
              <div className="schedule-row-main">
                <p className="schedule-row-title">
                  <Link to={`/o/${orgSlug}/schedules/${schedule.id}`} className="site-name">
                    {schedule.name}
                  </Link>
                  {schedule.paused ? <span className="status-pill status-pill-paused">Paused</span> : <span className="status-pill">Running</span>}
                </p>
                <p className="schedule-words">{scheduleSentence(schedule)}</p>
                <p className="muted">
                  {schedule.template_name} · {schedule.site_count === 1 ? '1 site' : `${schedule.site_count} sites`} ·{' '}
                  {schedule.assignee_name ? schedule.assignee_name : schedule.rotation_user_ids.length > 0 ? `${schedule.rotation_user_ids.length} people in turn` : 'Anyone may claim'}
                </p>
                <p className="muted">
                  {schedule.paused
                    ? 'Nothing is made while it is paused.'
                    : schedule.next_occurrence_at
                      ? `Next: ${formatDateTime(schedule.next_occurrence_at)}, on this device's clock`
                      : 'No upcoming occurrence made.'}
                </p>
              </div>
            </li>
          ))}
        </ul>
      )}
    </ListScreen>
  );
}
