import { WEEKDAYS, type Weekday } from '@schemas/recurrence';
import { useId } from 'react';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { daysInMonth, ORDINALS, type DayChoice, type EndChoice, type RecurrenceDraft, type RepeatKind } from '../utils/recurrence-builder';
import { MONTH_NAMES, WEEKDAY_NAMES } from '../utils/schedule-time';
import { ordinalNumber } from '../utils/recurrence-words';

const REPEAT_OPTIONS: { value: RepeatKind; label: string }[] = [
  { value: 'daily', label: 'Daily' },
  { value: 'weekly', label: 'Weekly' },
  { value: 'monthly', label: 'Monthly' },
  { value: 'yearly', label: 'Yearly' },
  { value: 'custom', label: 'Custom rule (RRULE)' },
];
const UNITS: Record<Exclude<RepeatKind, 'custom'>, string> = { daily: 'days', weekly: 'weeks', monthly: 'months', yearly: 'years' };
const WEEKDAY_OPTIONS = WEEKDAYS.map((day, i) => ({ value: day, label: WEEKDAY_NAMES[i] }));
const ORDINAL_OPTIONS = ORDINALS.map((ordinal) => ({ value: String(ordinal.value), label: ordinal.label }));
const MONTH_OPTIONS = MONTH_NAMES.map((name, i) => ({ value: String(i + 1), label: name }));

function monthDayOptions(most: number) {
  return [...Array.from({ length: most }, (_, i) => ({ value: String(i + 1), label: ordinalNumber(i + 1) })), { value: '-1', label: 'last day' }];
}

interface RecurrenceFieldsProps {
  draft: RecurrenceDraft;
  onChange: (draft: RecurrenceDraft) => void;
  /** Problems by the builder's fields, and the api's `rrule` and `end_date`. */
  errors: Record<string, string | undefined>;
}

/** How a schedule repeats: the builder for the usual programmes, and the rule's text for anything else. */
export function RecurrenceFields({ draft, onChange, errors }: RecurrenceFieldsProps) {
  const id = useId();
  const set = (changes: Partial<RecurrenceDraft>) => onChange({ ...draft, ...changes });
  const toggleDay = (day: Weekday) => set({ weekdays: draft.weekdays.includes(day) ? draft.weekdays.filter((d) => d !== day) : [...draft.weekdays, day] });
  const repeat = draft.repeat;
  return (
    <fieldset className="fieldset" aria-describedby={errors.rrule ? `${id}-rule-error` : undefined}>
      <legend>Repeats</legend>
      <div className="form-row">
        <SelectField label="Repeat" name="repeat" options={REPEAT_OPTIONS} value={repeat} onChange={(event) => set({ repeat: event.target.value as RepeatKind })} />
        {repeat !== 'custom' ? (
          <TextField
            label={`Every how many ${UNITS[repeat]}`}
            name="interval"
            inputMode="numeric"
            value={draft.interval}
            onChange={(event) => set({ interval: event.target.value })}
            error={errors.interval}
          />
        ) : null}
      </div>
      {repeat === 'weekly' ? (
        <fieldset className="weekday-choice" aria-describedby={errors.weekdays ? `${id}-days-error` : undefined}>
          <legend>On</legend>
          {WEEKDAYS.map((day, i) => (
            <label key={day} className="weekday-toggle">
              <input type="checkbox" checked={draft.weekdays.includes(day)} onChange={() => toggleDay(day)} />
              <span>{WEEKDAY_NAMES[i]}</span>
            </label>
          ))}
          {errors.weekdays ? (
            <p id={`${id}-days-error`} className="field-error" role="alert">
              {errors.weekdays}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {repeat === 'monthly' || repeat === 'yearly' ? (
        <fieldset className="fieldset fieldset-plain">
          <legend>On</legend>
          {repeat === 'yearly' ? (
            <SelectField label="Month" name="month" options={MONTH_OPTIONS} value={String(draft.month)} onChange={(event) => set({ month: Number(event.target.value) })} />
          ) : null}
          <label className="checkbox-row">
            <input type="radio" name={`${id}-day-choice`} checked={draft.dayChoice === 'month_day'} onChange={() => set({ dayChoice: 'month_day' as DayChoice })} />
            A day of the month
          </label>
          {draft.dayChoice === 'month_day' ? (
            <SelectField
              label="Day"
              name="month_day"
              options={monthDayOptions(repeat === 'yearly' ? daysInMonth(draft.month) : 31)}
              value={String(draft.monthDay)}
              onChange={(event) => set({ monthDay: Number(event.target.value) })}
              hint={repeat === 'monthly' && draft.monthDay > 28 ? 'Months without this day are skipped, not moved.' : undefined}
              error={errors.month_day}
            />
          ) : null}
          <label className="checkbox-row">
            <input type="radio" name={`${id}-day-choice`} checked={draft.dayChoice === 'weekday'} onChange={() => set({ dayChoice: 'weekday' as DayChoice })} />
            A weekday of the month, e.g. the first Monday
          </label>
          {draft.dayChoice === 'weekday' ? (
            <div className="form-row">
              <SelectField label="Which" name="ordinal" options={ORDINAL_OPTIONS} value={String(draft.ordinal)} onChange={(event) => set({ ordinal: Number(event.target.value) })} />
              <SelectField label="Weekday" name="weekday" options={WEEKDAY_OPTIONS} value={draft.weekday} onChange={(event) => set({ weekday: event.target.value as Weekday })} />
            </div>
          ) : null}
        </fieldset>
      ) : null}
      {repeat === 'custom' ? (
        <TextField
          label="Rule"
          name="rrule"
          value={draft.custom}
          onChange={(event) => set({ custom: event.target.value })}
          spellCheck={false}
          autoCapitalize="characters"
          hint="An iCalendar RRULE: FREQ=DAILY, WEEKLY, MONTHLY or YEARLY, with INTERVAL, BYDAY (1MO, -1FR), BYMONTHDAY, BYMONTH, COUNT or UNTIL."
          error={errors.rrule}
        />
      ) : errors.rrule ? (
        <p id={`${id}-rule-error`} className="field-error" role="alert">
          {errors.rrule}
        </p>
      ) : null}
      <fieldset className="fieldset fieldset-plain">
        <legend>Ends</legend>
        {(['never', 'on_date', ...(repeat === 'custom' ? [] : ['after_count'])] as EndChoice[]).map((choice) => (
          <label key={choice} className="checkbox-row">
            <input type="radio" name={`${id}-ends`} checked={draft.ends === choice} onChange={() => set({ ends: choice })} />
            {choice === 'never' ? 'Never' : choice === 'on_date' ? 'On a date' : 'After a number of times'}
          </label>
        ))}
        {draft.ends === 'on_date' ? (
          <TextField
            label="Last day"
            name="end_date"
            type="date"
            value={draft.endDate}
            onChange={(event) => set({ endDate: event.target.value })}
            hint="Included, at each site."
            error={errors.end_date}
          />
        ) : null}
        {draft.ends === 'after_count' && repeat !== 'custom' ? (
          <TextField label="Times" name="count" inputMode="numeric" value={draft.count} onChange={(event) => set({ count: event.target.value })} error={errors.count} />
        ) : null}
      </fieldset>
    </fieldset>
  );
}
