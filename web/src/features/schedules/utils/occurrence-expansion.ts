// A draft schedule's next occurrences at a site, worked out in the browser as the editor is typed
// in (docs/schedules.md, "Screens"): the same expansion the database does (private.schedule_occurrences),
// by the same method the property test holds the database to (tests/api/schedules/recurrence-property.test.ts).
// The maintained `rrule` package expands the rule in floating (zone-less) time — DTSTART is the
// start date at the time of day read as UTC, standing for the site's wall clock — and each local
// time becomes an instant in the site's zone by RFC 5545's reading (lib/zoned-time.ts: a skipped
// time is read with the offset before the change, a repeated one is the first). UNTIL and the end
// date are Fieldcheck's: a date is that whole local day, a local date-time a local bound, a UTC
// time an instant. tests/api/schedules/web-preview.test.ts compares this with the database.
//
// It runs in a worker (preview.worker.ts): a rule whose days never come (30 February, every
// seventh day on a weekday DTSTART is not) sends `rrule` counting to the year 9999, which takes
// seconds; the worker is ended after a time limit instead of freezing the page.
// Imports carry their extension: tests/api reads this module under Node's resolution.
import { RRule } from 'rrule';
import { wallClockToInstant } from '../../../lib/zoned-time.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far past `after` the expansion looks: five occurrences of a yearly 29 February need twenty years. */
export const PREVIEW_HORIZON_YEARS = 21;

export interface ExpansionInput {
  /** A rule that passed recurrenceProblem. */
  rule: string;
  startDate: string;
  endDate: string | null;
  /** `HH:MM`. */
  timeOfDay: string;
  dueAfterMinutes: number;
  zone: string;
  /** Occurrences starting at or after this instant (ms). */
  after: number;
  count: number;
}

export interface PreviewOccurrence {
  /** The occurrence's number in the rule, from 1 (a rotation's turn is (n − 1) mod its length). */
  n: number;
  /** Local start at the site, `YYYY-MM-DDTHH:MM`. */
  local: string;
  /** Its instant, ISO 8601. */
  at: string;
  /** Local due time at the site, `YYYY-MM-DDTHH:MM`. */
  dueLocal: string;
  due: string;
}

/** UNTIL as Fieldcheck reads it: a floating bound for `rrule`, or an instant to filter by. */
function untilOf(rule: string): { floating: number | null; instant: number | null } {
  const value = /(?:^|;)UNTIL=([0-9TZ]+)/i.exec(rule)?.[1]?.toUpperCase();
  if (!value) return { floating: null, instant: null };
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)) - 1, Number(value.slice(6, 8))];
  if (value.length === 8) return { floating: Date.UTC(y, m, d, 23, 59, 59), instant: null };
  const time = Date.UTC(y, m, d, Number(value.slice(9, 11)), Number(value.slice(11, 13)), Number(value.slice(13, 15)));
  return value.endsWith('Z') ? { floating: null, instant: time } : { floating: time, instant: null };
}

const wall = (floating: number) => new Date(floating).toISOString().slice(0, 16);

/** The first `count` occurrences starting at or after `after`, at a site in `zone`. */
export function nextOccurrences(input: ExpansionInput): PreviewOccurrence[] {
  const [hour, minute] = input.timeOfDay.split(':').map(Number);
  const [y, m, d] = input.startDate.split('-').map(Number);
  const dtstart = Date.UTC(y, m - 1, d, hour, minute);
  const until = untilOf(input.rule);
  // The end date is the last local day, whole, as UNTIL=YYYYMMDD is; both apply.
  const endFloating = input.endDate ? Date.parse(`${input.endDate}T23:59:59Z`) : null;
  const floatingBounds = [until.floating, endFloating].filter((bound): bound is number => bound !== null);
  const options = RRule.parseString(input.rule.toUpperCase());
  const rule = new RRule({
    ...options,
    dtstart: new Date(dtstart),
    until: floatingBounds.length > 0 ? new Date(Math.min(...floatingBounds)) : null,
  });
  // Local times a day and a half either side of an instant cover every offset.
  const lastFloating = input.after + PREVIEW_HORIZON_YEARS * 366 * DAY;
  const found: PreviewOccurrence[] = [];
  rule.all((date, i) => {
    const floating = date.getTime();
    if (floating > lastFloating || (until.instant !== null && floating > until.instant + 2 * DAY)) return false;
    if (floating < input.after - 2 * DAY) return true;
    const at = Date.parse(wallClockToInstant(wall(floating), input.zone)!);
    if (at < input.after || (until.instant !== null && at > until.instant)) return true;
    const dueFloating = floating + input.dueAfterMinutes * MINUTE;
    found.push({ n: i + 1, local: wall(floating), at: new Date(at).toISOString(), dueLocal: wall(dueFloating), due: wallClockToInstant(wall(dueFloating), input.zone)! });
    return found.length < input.count;
  });
  return found;
}
