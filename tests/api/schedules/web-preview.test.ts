// The schedule editor's preview agrees with the database (issue 26, part 8; docs/schedules.md,
// "Screens"): the browser works out a draft's next occurrences itself, with the `rrule` package
// (web/src/features/schedules/utils/occurrence-expansion.ts), so a person sees them as they type;
// what the database then makes must be what they saw. fast-check draws the rules the editor's
// builder makes (and custom ones of the subset), start dates, times of day near and away from
// changes of the clocks, due windows, end dates and zones, and compares the next five occurrences —
// number, local start, instant, due instant — with the statement private.schedule_occurrences runs
// for one zone. (tests/api/schedules/recurrence-property.test.ts holds the database to `rrule` on
// the whole subset; this holds the web's use of it — UNTIL, the end date, "from now" — to the database.)
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextOccurrences } from '../../../web/src/features/schedules/utils/occurrence-expansion.ts';
import { database } from '../../support/database.ts';

const ZONES = ['UTC', 'America/Los_Angeles', 'America/New_York', 'America/St_Johns', 'Europe/London', 'Europe/Berlin', 'Asia/Kolkata', 'Asia/Kathmandu', 'Australia/Sydney', 'Australia/Lord_Howe', 'Pacific/Auckland', 'Pacific/Chatham'];
const TIMES = ['00:00', '01:30', '02:00', '02:30', '03:00', '08:00', '12:15', '17:45', '23:59'];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const DAY = 86_400_000;
/** The span the database is asked about: five occurrences of any generated rule fall within it. */
const SPAN_DAYS = 3 * 366;

interface Case {
  rule: string;
  startDate: string;
  endDate: string | null;
  timeOfDay: string;
  dueAfterMinutes: number;
  zone: string;
  after: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const previewCase = fc.gen().map((g): Case => {
  const pick = <T>(list: readonly T[]): T => list[g(fc.integer, { min: 0, max: list.length - 1 })];
  const start = Date.UTC(2025, 0, 1) + g(fc.integer, { min: 0, max: 4 * 365 }) * DAY;
  const interval = pick([1, 1, 1, 2, 3]);
  const every = interval > 1 ? `;INTERVAL=${interval}` : '';
  // The builder's shapes, then a few custom ones of the subset.
  const rule = pick([
    `FREQ=DAILY${every}`,
    `FREQ=WEEKLY;BYDAY=${[...new Set([pick(DAYS), pick(DAYS)])].join(',')}${every}`,
    `FREQ=MONTHLY;BYMONTHDAY=${pick([1, 15, 28, 31, -1])}${every}`,
    `FREQ=MONTHLY;BYDAY=${pick([1, 2, 3, 4, -1])}${pick(DAYS)}${every}`,
    `FREQ=YEARLY;BYMONTH=${pick([1, 3, 10, 12])};BYMONTHDAY=${pick([1, 15, 31])}`,
    `FREQ=YEARLY;BYMONTH=${pick([3, 4, 10, 11])};BYDAY=${pick([1, -1])}${pick(DAYS)}`,
    'FREQ=WEEKLY',
    'FREQ=MONTHLY',
    `FREQ=MONTHLY;BYMONTHDAY=1,15;BYDAY=MO,FR`,
    `FREQ=DAILY;BYDAY=SA,SU`,
  ]);
  // "Now": before the start, or some way into the schedule, at any hour.
  const after = start + g(fc.integer, { min: -20, max: 400 }) * DAY + g(fc.integer, { min: 0, max: 23 }) * 3_600_000 + g(fc.integer, { min: 0, max: 3 }) * 15 * 60_000;
  // Ends near "now", where they cut the five occurrences short.
  const ending = g(fc.integer, { min: 0, max: 5 });
  const untilDay = dateOf(after + g(fc.integer, { min: -2, max: 40 }) * DAY).replaceAll('-', '');
  const untilTime = `T${pad(g(fc.integer, { min: 0, max: 23 }))}${pad(g(fc.integer, { min: 0, max: 59 }))}00`;
  const suffix = ending === 1 ? `;COUNT=${g(fc.integer, { min: 1, max: 40 })}` : ending === 2 ? `;UNTIL=${pick([untilDay, untilDay + untilTime, `${untilDay}${untilTime}Z`])}` : '';
  return {
    rule: rule + suffix,
    startDate: dateOf(start),
    endDate: ending === 3 ? dateOf(Math.max(start, after + g(fc.integer, { min: -2, max: 40 }) * DAY)) : null,
    timeOfDay: pick(TIMES),
    dueAfterMinutes: pick([1, 30, 9 * 60, (4 * 24 + 9) * 60, 3 * 24 * 60, 366 * 24 * 60]),
    zone: pick(ZONES),
    after,
  };
});

let sql: postgres.Sql;
let compared = 0;

beforeAll(() => {
  sql = database();
});

afterAll(async () => {
  console.log(`web preview: ${compared} drafts compared with the database`);
  await sql?.end();
});

describe("the editor's preview", () => {
  it('gives the next five occurrences the database gives, with their numbers, local starts, instants and due instants', async () => {
    await fc.assert(
      fc.asyncProperty(previewCase, async (c) => {
        const from = new Date(c.after).toISOString();
        const to = new Date(c.after + SPAN_DAYS * DAY).toISOString();
        // private.schedule_occurrences for one zone: the rule's local times up to the end date, each
        // read in the zone, kept from `from` and up to an UNTIL instant.
        const rows = await sql<{ n: string; local: string; at: string; due: string }[]>`
          with r as (select (private.recurrence_of(${c.rule})).until_at)
          select t.n::text, to_char(t.local_at, 'YYYY-MM-DD"T"HH24:MI') as local,
                 to_char(o.occurrence_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at,
                 to_char(private.instant_of_local_time(t.local_at + make_interval(mins => ${c.dueAfterMinutes}), ${c.zone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as due
          from r, private.recurrence_local_times(${c.rule}, ${c.startDate}::date, ${c.timeOfDay}::time,
                 (${from}::timestamptz at time zone 'UTC')::date - 2,
                 least((${to}::timestamptz at time zone 'UTC')::date + 2, ${c.endDate}::date), true) t
          cross join lateral (select private.instant_of_local_time(t.local_at, ${c.zone}) as occurrence_at) o
          where o.occurrence_at >= ${from}::timestamptz and o.occurrence_at < ${to}::timestamptz
            and (r.until_at is null or o.occurrence_at <= r.until_at)
          order by o.occurrence_at
          limit 5
        `;
        const expected = rows.map((row) => ({ n: Number(row.n), local: row.local, at: row.at, due: row.due }));
        const preview = nextOccurrences({ ...c, count: 5 })
          .filter((o) => Date.parse(o.at) < Date.parse(to))
          .map(({ n, local, at, due }) => ({ n, local, at, due }));
        compared++;
        expect(preview, JSON.stringify(c)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  }, 300_000);
});
