// The editor's recurrence builder: the choices a person makes (repeat daily, weekly on these days,
// monthly on a day or on the first Monday, yearly; every n; ending on a date or after n times) and
// the RRULE text they stand for, both ways. A rule the builder cannot show (made through the api,
// or typed) stays as text in its "Custom rule" field, untouched.
import { parseRecurrence, recurrenceProblem, WEEKDAYS, type Weekday } from '@schemas/recurrence';
import { MONTH_NAMES, weekdayIndex } from './schedule-time';

export type RepeatKind = 'daily' | 'weekly' | 'monthly' | 'yearly' | 'custom';
/** Monthly and yearly: on a day of the month ("the 15th"), or on a numbered weekday ("the first Monday"). */
export type DayChoice = 'month_day' | 'weekday';
export type EndChoice = 'never' | 'on_date' | 'after_count';

export interface RecurrenceDraft {
  repeat: RepeatKind;
  /** As typed: every n days, weeks, months or years. */
  interval: string;
  /** Weekly: the days, Monday first. */
  weekdays: Weekday[];
  dayChoice: DayChoice;
  /** 1–31, or −1 for the month's last day. */
  monthDay: number;
  /** 1–4, or −1 for the last. */
  ordinal: number;
  weekday: Weekday;
  /** Yearly: 1–12. */
  month: number;
  ends: EndChoice;
  /** The schedule's end date (its `end_date`), when `ends` is on_date. */
  endDate: string;
  /** As typed: how many times, when `ends` is after_count (the rule's COUNT). */
  count: string;
  /** The rule as typed, for "Custom rule". */
  custom: string;
}

export const ORDINALS = [
  { value: 1, label: 'first' },
  { value: 2, label: 'second' },
  { value: 3, label: 'third' },
  { value: 4, label: 'fourth' },
  { value: -1, label: 'last' },
] as const;

/** A new schedule's rule: every week on the start date's weekday. */
export function defaultRecurrence(startDate: string): RecurrenceDraft {
  const weekday = WEEKDAYS[weekdayIndex(startDate)];
  return {
    repeat: 'weekly',
    interval: '1',
    weekdays: [weekday],
    dayChoice: 'month_day',
    monthDay: Number(startDate.slice(8, 10)),
    ordinal: Math.min(4, Math.ceil(Number(startDate.slice(8, 10)) / 7)),
    weekday,
    month: Number(startDate.slice(5, 7)),
    ends: 'never',
    endDate: '',
    count: '10',
    custom: '',
  };
}

/** The builder's choices for a saved rule (and its schedule's end date), or "Custom rule" holding the text. */
export function recurrenceDraftOf(rule: string, startDate: string, endDate: string | null): RecurrenceDraft {
  const draft: RecurrenceDraft = { ...defaultRecurrence(startDate), custom: rule, ends: endDate ? 'on_date' : 'never', endDate: endDate ?? '' };
  if (recurrenceProblem(rule) !== null) return { ...draft, repeat: 'custom' };
  const r = parseRecurrence(rule);
  const custom = { ...draft, repeat: 'custom' as const };
  // UNTIL, and COUNT beside an end date, are kept as typed.
  if (r.until !== null || (r.count !== null && endDate)) return custom;
  const shaped: RecurrenceDraft = {
    ...draft,
    interval: String(r.interval),
    ...(r.count !== null ? { ends: 'after_count' as const, count: String(r.count) } : {}),
  };
  const days = r.byDay ?? [];
  const numbered = days.length === 1 && days[0].n !== null && (days[0].n === -1 || (days[0].n >= 1 && days[0].n <= 4));
  const oneMonthDay = r.byMonthDay?.length === 1 && (r.byMonthDay[0] === -1 || r.byMonthDay[0] >= 1);
  switch (r.freq) {
    case 'DAILY':
      return r.byDay || r.byMonthDay || r.byMonth ? custom : { ...shaped, repeat: 'daily' };
    case 'WEEKLY':
      if (r.byMonth || days.some((day) => day.n !== null)) return custom;
      // No BYDAY: the start date's weekday, written out.
      return { ...shaped, repeat: 'weekly', weekdays: days.length > 0 ? WEEKDAYS.filter((w) => days.some((day) => day.weekday === w)) : shaped.weekdays };
    case 'MONTHLY':
      if (r.byMonth) return custom;
      if (!r.byDay && !r.byMonthDay) return { ...shaped, repeat: 'monthly', dayChoice: 'month_day' };
      if (!r.byDay && oneMonthDay) return { ...shaped, repeat: 'monthly', dayChoice: 'month_day', monthDay: r.byMonthDay![0] };
      if (!r.byMonthDay && numbered) return { ...shaped, repeat: 'monthly', dayChoice: 'weekday', ordinal: days[0].n!, weekday: days[0].weekday };
      return custom;
    case 'YEARLY': {
      if (r.byMonth && r.byMonth.length !== 1) return custom;
      const month = r.byMonth?.[0] ?? shaped.month;
      if (!r.byDay && !r.byMonthDay) return { ...shaped, repeat: 'yearly', dayChoice: 'month_day', month };
      if (!r.byMonth) return custom;
      if (!r.byDay && oneMonthDay) return { ...shaped, repeat: 'yearly', dayChoice: 'month_day', month, monthDay: r.byMonthDay![0] };
      if (!r.byMonthDay && numbered) return { ...shaped, repeat: 'yearly', dayChoice: 'weekday', month, ordinal: days[0].n!, weekday: days[0].weekday };
      return custom;
    }
  }
}

/** Days each month has, for the yearly day picker (29 for February: a leap year has it). */
export function daysInMonth(month: number): number {
  return [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

export interface BuiltRecurrence {
  rrule: string;
  endDate: string | null;
  /** Problems with the choices, by the builder's field ("interval", "weekdays", "count", "rrule", "end_date"). */
  problems: Record<string, string>;
}

const WHOLE = /^\s*\d+\s*$/;

/** The rule and end date the choices make, and what is wrong with them (in the api's words where it has them). */
export function buildRecurrence(draft: RecurrenceDraft): BuiltRecurrence {
  const problems: Record<string, string> = {};
  const endDate = draft.ends === 'on_date' ? draft.endDate || null : null;
  if (draft.ends === 'on_date' && !draft.endDate) problems.end_date = 'Choose the last day, or another way to end.';
  if (draft.repeat === 'custom') {
    const rrule = draft.custom.trim().toUpperCase();
    const problem = recurrenceProblem(rrule);
    if (problem) problems.rrule = problem;
    return { rrule, endDate, problems };
  }
  const interval = Number(draft.interval);
  if (!WHOLE.test(draft.interval) || interval < 1 || interval > 1000) problems.interval = 'Use a whole number from 1 to 1000.';
  const count = Number(draft.count);
  if (draft.ends === 'after_count' && (!WHOLE.test(draft.count) || count < 1 || count > 10000)) problems.count = 'Use a whole number from 1 to 10000.';
  const parts: string[] = [];
  switch (draft.repeat) {
    case 'daily':
      parts.push('FREQ=DAILY');
      break;
    case 'weekly':
      parts.push('FREQ=WEEKLY');
      if (draft.weekdays.length === 0) problems.weekdays = 'Choose at least one day.';
      else parts.push(`BYDAY=${WEEKDAYS.filter((day) => draft.weekdays.includes(day)).join(',')}`);
      break;
    case 'monthly':
    case 'yearly':
      parts.push(draft.repeat === 'monthly' ? 'FREQ=MONTHLY' : 'FREQ=YEARLY');
      if (draft.repeat === 'yearly') parts.push(`BYMONTH=${draft.month}`);
      // A day the month never has would make a schedule that never runs.
      if (draft.repeat === 'yearly' && draft.dayChoice === 'month_day' && draft.monthDay > daysInMonth(draft.month)) {
        problems.month_day = `${MONTH_NAMES[draft.month - 1]} has at most ${daysInMonth(draft.month)} days.`;
      }
      parts.push(draft.dayChoice === 'month_day' ? `BYMONTHDAY=${draft.monthDay}` : `BYDAY=${draft.ordinal}${draft.weekday}`);
      break;
  }
  if (interval > 1 && !problems.interval) parts.push(`INTERVAL=${interval}`);
  if (draft.ends === 'after_count' && !problems.count) parts.push(`COUNT=${count}`);
  const rrule = parts.join(';');
  if (Object.keys(problems).length === 0) {
    const problem = recurrenceProblem(rrule);
    if (problem) problems.rrule = problem;
  }
  return { rrule, endDate, problems };
}
