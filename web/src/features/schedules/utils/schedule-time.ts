// Times of schedules as the screens write them: local to each site, in 24-hour time like the time
// of day a schedule is given ("Mon 30 Nov 08:00 PST"), with the site's zone named by its
// abbreviation. Calendar days are dates (YYYY-MM-DD) at the site, counted here without a library:
// a date read as UTC midnight never meets a change of the clocks.
// Imports carry their extension: tests/api reads this module under Node's resolution.
import { instantToWallClock, zoneOffsetMs } from '@/lib/zoned-time.ts';

export const WEEKDAY_NAMES = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
const WEEKDAY_SHORT = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;
export const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'] as const;
const MONTH_SHORT = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MS = 86_400_000;

/** A date's days since 1970-01-01 (UTC midnight). */
function epochDay(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

function dateOfEpochDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return dateOfEpochDay(epochDay(date) + days);
}

/** 0 for Monday … 6 for Sunday. */
export function weekdayIndex(date: string): number {
  return (new Date(epochDay(date) * DAY_MS).getUTCDay() + 6) % 7;
}

/** The Monday of the week that holds `date` (weeks run Monday to Sunday, as ISO 8601 has them). */
export function startOfWeek(date: string): string {
  return addDays(date, -weekdayIndex(date));
}

export function startOfMonth(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the month `months` after the one holding `date`. */
export function addMonths(date: string, months: number): string {
  const index = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 + months;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/** The days from `first` to `last`, both included. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (let day = epochDay(first); day <= epochDay(last); day++) days.push(dateOfEpochDay(day));
  return days;
}

/** Today's date on the clock of `zone`. */
export function todayIn(zone: string, now = Date.now()): string {
  return instantToWallClock(new Date(now).toISOString(), zone).slice(0, 10);
}

/**
 * The instants that hold every moment of the local days `first` to `last` anywhere on Earth: from
 * the first's midnight at UTC+14 to the day after the last's midnight at UTC−12.
 */
export function instantsAround(first: string, last: string): { from: string; to: string } {
  return {
    from: new Date(epochDay(first) * DAY_MS - 14 * 3_600_000).toISOString(),
    to: new Date((epochDay(last) + 1) * DAY_MS + 12 * 3_600_000).toISOString(),
  };
}

/** "Mon 30 Nov", "Mon 30 Nov 2026" with `year`. */
export function formatDay(date: string, { year = false, long = false } = {}): string {
  const weekday = long ? WEEKDAY_NAMES[weekdayIndex(date)] : WEEKDAY_SHORT[weekdayIndex(date)];
  const month = long ? MONTH_NAMES[Number(date.slice(5, 7)) - 1] : MONTH_SHORT[Number(date.slice(5, 7)) - 1];
  return `${weekday} ${Number(date.slice(8, 10))} ${month}${year ? ` ${date.slice(0, 4)}` : ''}`;
}

/** "December 2026". */
export function formatMonth(date: string): string {
  return `${MONTH_NAMES[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;
}

// Locales whose short zone names English readers know, tried in turn when the reader's own has none
// for a zone: Intl names Auckland "NZDT" only in New Zealand and Australian English, Kolkata "IST"
// only in Indian English; without one the name is the offset ("GMT+13"), as formatDateTime gives.
const ABBREVIATION_LOCALES = [undefined, 'en-US', 'en-CA', 'en-GB', 'en-NZ', 'en-AU', 'en-IN', 'en-IE', 'en-ZA', 'en-SG'];
const abbreviations = new Map<string, string>();

/** The zone's abbreviation at an instant ("PST", "NZDT", "CET"), or its offset ("GMT+9") where none is known. */
export function zoneLabel(zone: string, at: Date | string): string {
  const instant = typeof at === 'string' ? new Date(at) : at;
  // Keyed by the offset: the name changes only when the offset does.
  const offsetKey = `${zone} ${zoneOffsetMs(zone, instant.getTime())}`;
  const known = abbreviations.get(offsetKey);
  if (known) return known;
  let fallback = zone;
  for (const locale of ABBREVIATION_LOCALES) {
    let name: string | undefined;
    try {
      name = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value;
    } catch {
      name = undefined;
    }
    if (!name) continue;
    if (locale === undefined) fallback = name;
    if (/^[A-Z]{2,5}$/.test(name)) {
      fallback = name;
      break;
    }
  }
  abbreviations.set(offsetKey, fallback);
  return fallback;
}

/** A local start at a site with its zone: "Mon 30 Nov 08:00 PST" (`local` is `YYYY-MM-DDTHH:MM`). */
export function formatLocalTime(local: string, at: Date | string, zone: string, { year = false } = {}): string {
  return `${formatDay(local.slice(0, 10), { year })} ${local.slice(11, 16)} ${zoneLabel(zone, at)}`;
}
