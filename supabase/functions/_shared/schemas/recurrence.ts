// A schedule's recurrence: iCalendar RRULE text in the subset Fieldcheck runs (docs/schedules.md):
// FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, BYDAY (numbered 1MO / -1FR under MONTHLY and
// YEARLY), BYMONTHDAY (negative from the month's end), BYMONTH, COUNT or UNTIL. The database is
// the rule (private.recurrence_problem in supabase/schema.sql): these are the same checks, in the
// same order, with the same words, so the api's field error and the database's refusal agree
// (tests/api/schedules/recurrence-property.test.ts compares them on generated rules). No zod here:
// the web app's editor reads a rule in plain words without loading a validation library.

export const RECURRENCE_MAX_LENGTH = 500;
export const SUPPORTED_RULE_PARTS = ['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'COUNT', 'UNTIL'] as const;
export const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;

export type Frequency = (typeof FREQUENCIES)[number];
export type Weekday = (typeof WEEKDAYS)[number];

/** A rule taken apart; weekdays keep their two letters, numbered ones their number. */
export interface Recurrence {
  freq: Frequency;
  interval: number;
  count: number | null;
  /** UNTIL as written (YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ), or null. */
  until: string | null;
  byMonth: number[] | null;
  byMonthDay: number[] | null;
  byDay: { weekday: Weekday; n: number | null }[] | null;
}

// Letters, digits and signs only, so upper-casing means the same in TypeScript and Postgres.
const PART = /^[A-Za-z]+=[A-Za-z0-9,+-]+$/;
const MONTHS = /^(1[0-2]|[1-9])(,(1[0-2]|[1-9]))*$/;
const MONTH_DAYS = /^-?(3[01]|[12][0-9]|[1-9])(,-?(3[01]|[12][0-9]|[1-9]))*$/;
const DAY = /^([+-]?[1-9][0-9]?)?(MO|TU|WE|TH|FR|SA|SU)$/;
const NUMBERED = /^[+-]?[0-9]/;

/** Whether UNTIL's text is a real date, local time or UTC time (private.recurrence_until_of). */
export function untilIsValid(value: string): boolean {
  const match = /^(\d{4})(\d\d)(\d\d)(?:T(\d\d)(\d\d)(\d\d)Z?)?$/.exec(value);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match.slice(1).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day &&
    hour <= 23 && minute <= 59 && second <= 59 && year >= 1
  );
}

/** The rule's NAME=value parts, upper-cased, or the problem with its shape. */
function partsOf(rule: string): Map<string, string> | string {
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    if (!PART.test(part)) return 'Write the rule as NAME=value parts separated by semicolons, e.g. FREQ=WEEKLY;BYDAY=MO.';
    const [name, value] = part.toUpperCase().split('=');
    if (!(SUPPORTED_RULE_PARTS as readonly string[]).includes(name)) {
      return `${name} is not supported: use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, COUNT and UNTIL.`;
    }
    if (parts.has(name)) return `${name} appears twice.`;
    parts.set(name, value);
  }
  return parts;
}

/**
 * Why `rule` is not a rule Fieldcheck runs, in the words the api shows under `rrule`, or null.
 * The same checks in the same order as private.recurrence_problem: the first that fails answers.
 */
export function recurrenceProblem(rule: string): string | null {
  if (rule === '') return 'Enter a recurrence rule, e.g. FREQ=WEEKLY;BYDAY=MO.';
  // Postgres counts characters as code points, as the spread does.
  if ([...rule].length > RECURRENCE_MAX_LENGTH) return `Use at most ${RECURRENCE_MAX_LENGTH} characters.`;
  const parts = partsOf(rule);
  if (typeof parts === 'string') return parts;
  const freq = parts.get('FREQ');
  if (!freq || !(FREQUENCIES as readonly string[]).includes(freq)) return 'Say how often with FREQ=DAILY, WEEKLY, MONTHLY or YEARLY.';
  const interval = parts.get('INTERVAL');
  if (interval !== undefined && !(/^[1-9][0-9]{0,3}$/.test(interval) && Number(interval) <= 1000)) return 'Use INTERVAL=1 to 1000.';
  const count = parts.get('COUNT');
  if (count !== undefined && !(/^[1-9][0-9]{0,4}$/.test(count) && Number(count) <= 10000)) return 'Use COUNT=1 to 10000.';
  const until = parts.get('UNTIL');
  if (until !== undefined && !untilIsValid(until)) {
    return 'Use UNTIL=YYYYMMDD (the last day), YYYYMMDDTHHMMSS (a local time) or YYYYMMDDTHHMMSSZ (UTC).';
  }
  if (count !== undefined && until !== undefined) return 'Use COUNT or UNTIL, not both.';
  const months = parts.get('BYMONTH');
  if (months !== undefined && !MONTHS.test(months)) return 'Use BYMONTH with months 1 to 12, separated by commas.';
  const monthDays = parts.get('BYMONTHDAY');
  if (monthDays !== undefined) {
    if (!MONTH_DAYS.test(monthDays)) return 'Use BYMONTHDAY with days 1 to 31 or -1 to -31, separated by commas.';
    if (freq === 'WEEKLY') return 'BYMONTHDAY cannot be used with FREQ=WEEKLY.';
  }
  const byDay = parts.get('BYDAY');
  if (byDay !== undefined) {
    const days = byDay.split(',');
    if (days.some((day) => !DAY.test(day))) {
      return 'Use BYDAY with the days MO, TU, WE, TH, FR, SA, SU, each optionally numbered (1MO, -1FR), separated by commas.';
    }
    const numbered = days.some((day) => NUMBERED.test(day));
    const plain = days.some((day) => !NUMBERED.test(day));
    if (numbered && (freq === 'DAILY' || freq === 'WEEKLY')) return 'Numbered days (1MO, -1FR) need FREQ=MONTHLY or YEARLY.';
    if (numbered && plain) return 'Use numbered days (1MO, -1FR) or plain days (MO), not both.';
    const widest = freq === 'YEARLY' && months === undefined ? 53 : 5;
    if (days.some((day) => NUMBERED.test(day) && Math.abs(parseInt(day, 10)) > widest)) {
      return widest === 5 ? 'Number days from 1 to 5 (or -1 to -5) within a month.' : 'Number days from 1 to 53 (or -1 to -53) within a year.';
    }
  }
  return null;
}

/** A rule that passed recurrenceProblem, taken apart (for reading it in plain words). */
export function parseRecurrence(rule: string): Recurrence {
  const parts = partsOf(rule);
  if (typeof parts === 'string' || recurrenceProblem(rule) !== null) throw new Error(`Not a supported rule: ${rule}`);
  const list = (name: string) => parts.get(name)?.split(',').map(Number) ?? null;
  return {
    freq: parts.get('FREQ') as Frequency,
    interval: Number(parts.get('INTERVAL') ?? 1),
    count: parts.has('COUNT') ? Number(parts.get('COUNT')) : null,
    until: parts.get('UNTIL') ?? null,
    byMonth: list('BYMONTH'),
    byMonthDay: list('BYMONTHDAY'),
    byDay: parts.get('BYDAY')?.split(',').map((day) => ({
      weekday: day.slice(-2) as Weekday,
      n: day.length > 2 ? parseInt(day, 10) : null,
    })) ?? null,
  };
}
