// A schedule in plain words: "Every Monday at 08:00, due Friday 17:00". Written for the rule subset
// (docs/schedules.md) by hand: `rrule`'s own toText knows neither Fieldcheck's due window nor its
// reading of UNTIL, words numbered days in ways of its own ("on the 1st Monday") and would put
// the package in the schedules list's first load.
import { parseRecurrence, recurrenceProblem, WEEKDAYS, type Recurrence, type Weekday } from '@schemas/recurrence';
import { formatDay, MONTH_NAMES, WEEKDAY_NAMES, weekdayIndex } from './schedule-time';

/** "Monday", "Monday and Friday", "Monday, Wednesday and Friday". */
export function listWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinalNumber(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

const ORDINAL_WORDS: Record<number, string> = { 1: 'first', 2: 'second', 3: 'third', 4: 'fourth', 5: 'fifth', [-1]: 'last' };

/** A numbered weekday's number: "first", "last", "second-to-last", "20th", "3rd-to-last". */
function countWord(n: number): string {
  if (ORDINAL_WORDS[n]) return ORDINAL_WORDS[n];
  if (n < 0) return `${n === -2 ? 'second' : ordinalNumber(-n)}-to-last`;
  return ordinalNumber(n);
}

/** A day of the month: "1st", "last day", "second-to-last day". */
function monthDayWord(day: number): string {
  if (day === -1) return 'last day';
  if (day < 0) return `${countWord(day)} day`;
  return ordinalNumber(day);
}

const weekdayName = (day: Weekday) => WEEKDAY_NAMES[WEEKDAYS.indexOf(day)];

/** Plain days as one phrase: "Monday and Thursday", "weekday" (Monday to Friday), "day" (all seven). */
function plainDays(days: Weekday[], plural: boolean): string {
  const sorted = WEEKDAYS.filter((day) => days.includes(day));
  if (sorted.length === 7) return plural ? 'days' : 'day';
  if (sorted.join() === 'MO,TU,WE,TH,FR') return plural ? 'weekdays' : 'weekday';
  return listWords(sorted.map((day) => `${weekdayName(day)}${plural ? 's' : ''}`));
}

const months = (list: number[]) => listWords(list.map((month) => MONTH_NAMES[month - 1]));
const every = (n: number, unit: string) => (n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`);

/** The rule's repetition in words, without its time: "Every Monday", "Every month on the last Friday". */
export function recurrenceWords(r: Recurrence, startDate: string): string {
  const plain = (r.byDay ?? []).filter((day) => day.n === null).map((day) => day.weekday);
  const numbered = (r.byDay ?? []).filter((day) => day.n !== null).map((day) => `${countWord(day.n!)} ${weekdayName(day.weekday)}`);
  const monthDays = (r.byMonthDay ?? []).map(monthDayWord);
  const inMonths = r.byMonth ? ` in ${months(r.byMonth)}` : '';
  const startDay = Number(startDate.slice(8, 10));
  switch (r.freq) {
    case 'DAILY': {
      if (plain.length > 0 && r.interval === 1 && monthDays.length === 0) return `Every ${plainDays(plain, false)}${inMonths}`;
      const filters = [plain.length > 0 ? `on ${plainDays(plain, true)}` : '', monthDays.length > 0 ? `on the ${listWords(monthDays)} of the month` : ''].filter(Boolean);
      return `${every(r.interval, 'day')}${filters.length > 0 ? `, ${filters.join(' ')}` : ''}${inMonths}`;
    }
    case 'WEEKLY': {
      const days = plainDays(plain.length > 0 ? plain : [WEEKDAYS[weekdayIndex(startDate)]], false);
      return `${r.interval === 1 ? `Every ${days}` : `Every ${r.interval} weeks on ${days}`}${inMonths}`;
    }
    case 'MONTHLY': {
      const base = every(r.interval, 'month');
      if (monthDays.length > 0 && plain.length > 0) return `${base} on the ${listWords(monthDays)} when it falls on a ${plainDays(plain, false)}${inMonths}`;
      if (monthDays.length > 0) return `${base} on the ${listWords(monthDays)}${inMonths}`;
      if (numbered.length > 0) return `${base} on the ${listWords(numbered)}${inMonths}`;
      if (plain.length > 0) return `${base}, on ${plainDays(plain, true)}${inMonths}`;
      return `${base} on the ${ordinalNumber(startDay)}${inMonths}`;
    }
    case 'YEARLY': {
      const base = every(r.interval, 'year');
      const monthList = r.byMonth ?? null;
      if (monthDays.length > 0 && plain.length > 0) {
        return `${base} on the ${listWords(monthDays)} of ${monthList ? months(monthList) : 'every month'} when it falls on a ${plainDays(plain, false)}`;
      }
      if (monthDays.length > 0) {
        if (!monthList) return `${base} on the ${listWords(monthDays)} of every month`;
        const positive = (r.byMonthDay ?? []).every((day) => day > 0);
        return positive ? `${base} on ${listWords((r.byMonthDay ?? []).map(String))} ${months(monthList)}` : `${base} on the ${listWords(monthDays)} of ${months(monthList)}`;
      }
      if (numbered.length > 0) return `${base} on the ${listWords(numbered)} of ${monthList ? months(monthList) : 'the year'}`;
      if (plain.length > 0) return `${base}, on ${plainDays(plain, true)}${inMonths}`;
      return `${base} on ${startDay} ${months(monthList ?? [Number(startDate.slice(5, 7))])}`;
    }
  }
}

/** How the rule ends, as a suffix: ", 10 times", ", until Thu 31 Dec 2026". */
function ruleEndWords(r: Recurrence): string {
  if (r.count !== null) return r.count === 1 ? ', once' : `, ${r.count} times`;
  if (r.until === null) return '';
  const date = `${r.until.slice(0, 4)}-${r.until.slice(4, 6)}-${r.until.slice(6, 8)}`;
  if (r.until.length === 8) return `, until ${formatDay(date, { year: true })}`;
  return `, until ${formatDay(date, { year: true })} ${r.until.slice(9, 11)}:${r.until.slice(11, 13)}${r.until.endsWith('Z') ? ' UTC' : ''}`;
}

/** The one weekday every occurrence starts on, when there is one (Monday is 0), for "due Friday". */
function singleWeekday(r: Recurrence, startDate: string): number | null {
  const days = r.byDay ?? [];
  if (r.byMonthDay) return null;
  if (days.length === 1) return WEEKDAYS.indexOf(days[0].weekday);
  if (days.length === 0 && r.freq === 'WEEKLY') return weekdayIndex(startDate);
  return null;
}

const clock = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** When it is due, from the start's time and weekday: "due Friday 17:00", "due 17:00 the same day", "due 10 days later at 17:00". */
export function dueWords(timeOfDay: string, dueAfterMinutes: number, weekday: number | null): string {
  const [hour, minute] = timeOfDay.split(':').map(Number);
  const total = hour * 60 + minute + dueAfterMinutes;
  const days = Math.floor(total / 1440);
  const time = clock(total % 1440);
  if (days === 0) return `due ${time} the same day`;
  if (weekday !== null && days < 7) return `due ${WEEKDAY_NAMES[(weekday + days) % 7]} ${time}`;
  if (weekday !== null && days === 7) return `due the following ${WEEKDAY_NAMES[weekday]} ${time}`;
  return days === 1 ? `due the next day at ${time}` : `due ${days} days later at ${time}`;
}

export interface ScheduleWordsInput {
  rrule: string;
  startDate: string;
  endDate: string | null;
  timeOfDay: string;
  /** Null while the due window is not a valid one. */
  dueAfterMinutes: number | null;
  /** Today, to say when a schedule starts later ("starting Mon 7 Dec 2026"). */
  today?: string;
}

/** The whole schedule in one sentence: "Every Monday at 08:00, due Friday 17:00, until Thu 31 Dec 2026"; null for a rule that is not valid. */
export function scheduleWords({ rrule, startDate, endDate, timeOfDay, dueAfterMinutes, today }: ScheduleWordsInput): string | null {
  if (recurrenceProblem(rrule) !== null) return null;
  const r = parseRecurrence(rrule);
  const parts = [`${recurrenceWords(r, startDate)} at ${timeOfDay}`];
  if (dueAfterMinutes !== null) parts.push(dueWords(timeOfDay, dueAfterMinutes, singleWeekday(r, startDate)));
  let sentence = parts.join(', ') + ruleEndWords(r);
  if (today && startDate > today) sentence += `, starting ${formatDay(startDate, { year: true })}`;
  if (endDate) sentence += `, until ${formatDay(endDate, { year: true })}`;
  return sentence;
}

/** Minutes of a due window as the api answers it (P4DT9H, PT30M, P7D). */
function dueAfterMinutes(iso: string): number | null {
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$/.exec(iso);
  return match ? (Number(match[1] ?? 0) * 24 + Number(match[2] ?? 0)) * 60 + Number(match[3] ?? 0) : null;
}

/** A saved schedule's sentence ("Every Monday at 08:00, due Friday 17:00"); its rule's text if it has none. */
export function scheduleSentence(
  schedule: { rrule: string; start_date: string; end_date: string | null; time_of_day: string; due_after: string },
  today?: string,
): string {
  return (
    scheduleWords({
      rrule: schedule.rrule,
      startDate: schedule.start_date,
      endDate: schedule.end_date,
      timeOfDay: schedule.time_of_day,
      dueAfterMinutes: dueAfterMinutes(schedule.due_after),
      today,
    }) ?? schedule.rrule
  );
}
