// One meaning of recurrence (issue 26, part 2): fast-check generates RRULEs of the supported subset,
// start dates, local times and time zones, and compares the database's expansion
// (private.recurrence_instants, what makes the inspections) with the maintained `rrule` package:
//   1. the same occurrences, with the same numbers, local times and instants, between two instants
//      (and the same instants when the expansion, unnumbered, starts at the range's period);
//   2. zod's check of a rule (recurrenceProblem, the api's field error) and the database's
//      (private.recurrence_problem, a check constraint of schedules) refuse the same texts with the
//      same words, on rules spoiled in every way the checks know.
//
// How the expected occurrences are computed, and why that can be defended: `rrule` is asked only
// what it is made for, the RFC 5545 expansion in floating (zone-less) time — DTSTART is the start
// date at the time of day as a "UTC" Date that stands for local wall-clock time, with no `tzid`
// (its zone handling leans on the host's zone and is known to be quirky). Each floating occurrence
// is then turned into an instant in the site's time zone by `instantOf` below, which reads offsets
// from Intl (the platform's tz database, independent of Postgres's) and applies RFC 5545 §3.3.5:
// a local time a daylight-saving change skips is read with the offset before the change, a time
// it repeats is the first of the two. UNTIL is Fieldcheck's (docs/schedules.md): a date means the
// whole local day, a local date-time a local bound, a UTC time an instant; the first two are given
// to `rrule` as floating bounds, the third filters instants. Time zones are a fixed list of zones
// whose rules did not change lately, so both tz databases agree on them in the years drawn.
// The run counts are printed, so a report can quote them.
import fc from 'fast-check';
import postgres from 'postgres';
import { RRule } from 'rrule';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recurrenceProblem } from '../../../supabase/functions/_shared/schemas/recurrence.ts';
import { database } from '../../support/database.ts';

const ZONES = [
  'UTC', 'America/Los_Angeles', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix',
  'America/Halifax', 'America/St_Johns', 'America/Havana', 'America/Sao_Paulo', 'Europe/London', 'Europe/Paris',
  'Europe/Berlin', 'Europe/Helsinki', 'Europe/Moscow', 'Asia/Tokyo', 'Asia/Kolkata', 'Asia/Kathmandu', 'Asia/Shanghai',
  'Australia/Sydney', 'Australia/Adelaide', 'Australia/Lord_Howe', 'Australia/Brisbane', 'Pacific/Auckland',
  'Pacific/Chatham', 'Pacific/Honolulu', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Africa/Johannesburg',
] as const;
/** Times of day near daylight-saving changes (most happen between midnight and 03:00) and ordinary ones. */
const TIMES = ['00:00', '00:30', '01:00', '01:30', '01:45', '02:00', '02:15', '02:30', '03:00', '03:30', '08:00', '12:00', '17:45', '23:30', '23:59'];
const DAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

type Gen = fc.GeneratorValue;
const pick = <T>(g: Gen, list: readonly T[]): T => list[g(fc.integer, { min: 0, max: list.length - 1 })];
const some = <T>(g: Gen, list: readonly T[], min: number, max: number): T[] => {
  const count = g(fc.integer, { min, max });
  return [...new Set(Array.from({ length: count }, () => pick(g, list)))];
};
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

// --- the oracle's time zone conversion ---------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The wall-clock time of `instant` in `zone`, as milliseconds of that wall time read as UTC. */
function wallClock(zone: string, instant: number): number {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(zone, format);
  }
  const part = Object.fromEntries(format.formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return Date.UTC(Number(part.year), Number(part.month) - 1, Number(part.day), Number(part.hour), Number(part.minute), Number(part.second));
}

/**
 * The instant a wall-clock time names in `zone` (RFC 5545 §3.3.5): of the offsets the zone uses
 * within a day and a half either side, those that give back this wall time; the earliest of them
 * (a repeated time is its first); none (a skipped time): the offset before the change, which is
 * the smaller one, clocks having gone forward.
 */
function readLocal(zone: string, local: number): { instant: number; kind: 'plain' | 'repeated' | 'skipped' } {
  // No zone changes its offset twice in three days: the offsets a day and a half either side are
  // the ones in use around `local`.
  const offsets = new Set<number>();
  for (const hour of [-36, 0, 36]) offsets.add(wallClock(zone, local + hour * HOUR) - (local + hour * HOUR));
  const fits = [...offsets].map((offset) => local - offset).filter((instant) => wallClock(zone, instant) === local);
  if (fits.length === 0) return { instant: local - Math.min(...offsets), kind: 'skipped' };
  return { instant: Math.min(...fits), kind: fits.length > 1 ? 'repeated' : 'plain' };
}

const instantOf = (zone: string, local: number) => readLocal(zone, local).instant;

// --- generated rules -----------------------------------------------------------------------------

interface Case {
  rule: string;
  startDate: string;
  time: string;
  zone: string;
  from: number;
  to: number;
}

const ordinal = (g: Gen, widest: number) => (g(fc.boolean) ? 1 : -1) * g(fc.integer, { min: 1, max: widest });

/**
 * A rule of the subset that occurs at some point (a rule that never does sends `rrule` counting to
 * the year 9999): DAILY intervals not a multiple of 7 (which would keep one weekday), BYMONTHDAY
 * always with a day every month has, months a MONTHLY interval reaches, numbered days that every
 * year has (the 5th within a month only without BYMONTH, where some month has one).
 */
function generateRule(g: Gen, start: Date): string {
  const freq = pick(g, ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const);
  const interval = freq === 'DAILY' ? pick(g, [1, 1, 2, 3, 4, 5, 6, 8, 10, 13]) : freq === 'MONTHLY' ? pick(g, [1, 1, 2, 3, 4, 5, 6, 7, 12]) : pick(g, [1, 1, 1, 2, 3, 4]);
  const parts = [`FREQ=${freq}`];
  if (interval > 1 || g(fc.integer, { min: 0, max: 5 }) === 0) parts.push(`INTERVAL=${interval}`);
  let byMonth: number[] | null = null;
  if (g(fc.integer, { min: 0, max: 3 }) === 0) {
    byMonth = some(g, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 1, 4);
    if (freq === 'MONTHLY') {
      // A month the interval reaches from DTSTART's month.
      const step = gcd(interval, 12);
      const reachable = ((start.getUTCMonth() + step * g(fc.integer, { min: 0, max: 11 })) % 12) + 1;
      if (!byMonth.some((m) => (m - 1 - start.getUTCMonth()) % step === 0)) byMonth.push(reachable);
    }
    parts.push(`BYMONTH=${byMonth.join(',')}`);
  }
  const dayKind = freq === 'MONTHLY' || freq === 'YEARLY' ? pick(g, ['none', 'plain', 'numbered', 'monthday', 'monthday+plain']) : freq === 'DAILY' ? pick(g, ['none', 'plain', 'monthday', 'monthday+plain']) : pick(g, ['none', 'plain', 'plain']);
  if (dayKind === 'monthday' || dayKind === 'monthday+plain') {
    const days = some(g, [1, 2, 5, 10, 13, 15, 20, 28, -1, -2, -7, -28], 1, 3);
    if (g(fc.integer, { min: 0, max: 2 }) === 0) days.push(pick(g, [29, 30, 31, -29, -30, -31]));
    parts.push(`BYMONTHDAY=${days.join(',')}`);
  }
  if (dayKind === 'plain' || dayKind === 'monthday+plain') parts.push(`BYDAY=${some(g, DAYS, 1, 3).join(',')}`);
  if (dayKind === 'numbered') {
    const widest = freq === 'YEARLY' && byMonth === null ? 52 : byMonth === null ? 5 : 4;
    const days = Array.from({ length: g(fc.integer, { min: 1, max: 3 }) }, () => `${ordinal(g, widest)}${pick(g, DAYS)}`);
    parts.push(`BYDAY=${[...new Set(days)].join(',')}`);
  }
  const end = g(fc.integer, { min: 0, max: 5 });
  if (end === 0) parts.push(`COUNT=${g(fc.integer, { min: 1, max: 60 })}`);
  if (end === 1) {
    const until = new Date(start.getTime() + g(fc.integer, { min: 0, max: 500 }) * DAY + g(fc.integer, { min: 0, max: 24 * 60 }) * 60_000);
    const date = `${until.getUTCFullYear()}${pad(until.getUTCMonth() + 1)}${pad(until.getUTCDate())}`;
    const time = `T${pad(until.getUTCHours())}${pad(until.getUTCMinutes())}00`;
    parts.push(`UNTIL=${pick(g, [date, date + time, `${date}${time}Z`])}`);
  }
  // Order of the parts does not matter to either side; lower case is accepted too.
  const shuffled = g(fc.shuffledSubarray, parts, { minLength: parts.length, maxLength: parts.length });
  const text = shuffled.join(';');
  return g(fc.integer, { min: 0, max: 9 }) === 0 ? text.toLowerCase() : text;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The listed zones that change their clocks, each with the days (month from 0, day) near which it does. */
const CHANGES: Record<string, readonly (readonly [number, number])[]> = {
  // Second Sunday of March, first Sunday of November.
  ...Object.fromEntries(['America/Los_Angeles', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Halifax', 'America/St_Johns',
    'America/Havana'].map((zone) => [zone, [[2, 5], [10, 1]]])),
  // Last Sundays of March and October.
  ...Object.fromEntries(['Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Helsinki'].map((zone) => [zone, [[2, 25], [9, 25]]])),
  // First Sundays of April and October; New Zealand's spring is the last Sunday of September.
  ...Object.fromEntries(['Australia/Sydney', 'Australia/Adelaide', 'Australia/Lord_Howe'].map((zone) => [zone, [[3, 1], [9, 1]]])),
  ...Object.fromEntries(['Pacific/Auckland', 'Pacific/Chatham'].map((zone) => [zone, [[3, 1], [8, 25]]])),
};
/** Every quarter of an hour from midnight to 04:00: where the listed zones skip or repeat time. */
const CHANGE_TIMES = Array.from({ length: 16 }, (_, i) => `${pad(Math.floor(i / 4))}:${pad((i % 4) * 15)}`);

const recurrenceCase = fc.gen().map((g): Case => {
  // Half the cases start near a change of clocks, with a daily or weekly rule, so skipped and
  // repeated local times are met often; the rest anywhere in 2024-2030.
  const nearChange = g(fc.boolean);
  const zone = nearChange ? pick(g, Object.keys(CHANGES)) : pick(g, ZONES);
  const start = nearChange
    ? (() => {
      const [month, day] = pick(g, CHANGES[zone]);
      return new Date(Date.UTC(g(fc.integer, { min: 2024, max: 2030 }), month, day + g(fc.integer, { min: -5, max: 10 })));
    })()
    : new Date(Date.UTC(2024, 0, 1) + g(fc.integer, { min: 0, max: 7 * 365 }) * DAY);
  const startDate = start.toISOString().slice(0, 10);
  const from = start.getTime() + (nearChange ? g(fc.integer, { min: -3, max: 3 }) : g(fc.integer, { min: -40, max: 400 })) * DAY +
    g(fc.integer, { min: 0, max: 23 }) * HOUR;
  const to = from + (nearChange ? g(fc.integer, { min: 1, max: 45 }) : g(fc.integer, { min: 1, max: 420 })) * DAY;
  let rule = generateRule(g, start);
  if (nearChange && g(fc.integer, { min: 0, max: 3 }) > 0) rule = pick(g, ['FREQ=DAILY', 'FREQ=DAILY', 'FREQ=WEEKLY;BYDAY=SA,SU', 'FREQ=WEEKLY;BYDAY=SU']);
  const time = nearChange ? pick(g, CHANGE_TIMES) : pick(g, TIMES);
  return { rule, startDate, time, zone, from, to };
});

/** UNTIL as the oracle reads it (docs/schedules.md): a floating bound for `rrule`, or an instant to filter by. */
function untilOf(rule: string): { floating: Date | null; instant: number | null } {
  const value = /UNTIL=([0-9TZ]+)/i.exec(rule)?.[1]?.toUpperCase();
  if (!value) return { floating: null, instant: null };
  const [y, m, d] = [Number(value.slice(0, 4)), Number(value.slice(4, 6)) - 1, Number(value.slice(6, 8))];
  if (value.length === 8) return { floating: new Date(Date.UTC(y, m, d, 23, 59, 59)), instant: null };
  const time = Date.UTC(y, m, d, Number(value.slice(9, 11)), Number(value.slice(11, 13)), Number(value.slice(13, 15)));
  return value.endsWith('Z') ? { floating: null, instant: time } : { floating: new Date(time), instant: null };
}

interface Occurrence {
  n: number;
  local: string;
  at: string;
}

const unusual = new Set<string>();

/** The expected occurrences: `rrule` in floating time, then each local time to an instant in the zone. */
function expected(c: Case): Occurrence[] {
  const [hour, minute] = c.time.split(':').map(Number);
  const [y, m, d] = c.startDate.split('-').map(Number);
  const options = RRule.parseString(c.rule.toUpperCase());
  const until = untilOf(c.rule);
  const rule = new RRule({ ...options, until: until.floating, dtstart: new Date(Date.UTC(y, m - 1, d, hour, minute)) });
  // Floating times two days either side of the instants cover every offset.
  const lastFloating = c.to + 2 * DAY;
  const found: Occurrence[] = [];
  rule.all((date, i) => {
    if (date.getTime() > lastFloating) return false;
    const { instant: at, kind } = readLocal(c.zone, date.getTime());
    if (at >= c.from && at < c.to && (until.instant === null || at <= until.instant)) {
      if (kind !== 'plain') unusual.add(`${c.zone} ${date.toISOString()}`);
      found.push({ n: i + 1, local: date.toISOString().slice(0, 16).replace('T', ' '), at: new Date(at).toISOString() });
    }
    return true;
  });
  return found.sort((a, b) => a.at.localeCompare(b.at) || a.n - b.n);
}

let sql: postgres.Sql;
const counts = { rules: 0, occurrences: 0, skippedOrRepeated: 0, texts: 0, refused: 0 };

beforeAll(() => {
  sql = database();
});

afterAll(async () => {
  console.log(
    `recurrence property: ${counts.rules} rules expanded (${counts.occurrences} occurrences, ${counts.skippedOrRepeated} at a skipped or repeated local time); ` +
      `${counts.texts} rule texts checked (${counts.refused} refused by both)`,
  );
  await sql?.end();
});

describe('the database expands a rule as the rrule package does, in each time zone', () => {
  it('gives the same occurrences, numbers, local times and instants', async () => {
    await fc.assert(
      fc.asyncProperty(recurrenceCase, async (c) => {
        expect(recurrenceProblem(c.rule), c.rule).toBeNull();
        const rows = await sql<{ n: string; local: string; at: string }[]>`
          select n::text, to_char(local_at, 'YYYY-MM-DD HH24:MI') as local,
                 to_char(occurrence_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
          from private.recurrence_instants(${c.rule}, ${c.startDate}::date, ${c.time}::time, ${c.zone},
                                           ${new Date(c.from).toISOString()}::timestamptz, ${new Date(c.to).toISOString()}::timestamptz)
        `;
        const actual = rows.map((row) => ({ n: Number(row.n), local: row.local, at: row.at })).sort((a, b) => a.at.localeCompare(b.at) || a.n - b.n);
        const want = expected(c);
        counts.rules++;
        counts.occurrences += want.length;
        counts.skippedOrRepeated = unusual.size;
        expect(actual, JSON.stringify(c)).toEqual(want);
        // Unnumbered (what the materialiser asks when no rotation needs the numbers): the
        // expansion starts at the period holding `from` instead of DTSTART's; the same times.
        const unnumbered = await sql<{ at: string }[]>`
          select to_char(occurrence_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at
          from private.recurrence_instants(${c.rule}, ${c.startDate}::date, ${c.time}::time, ${c.zone},
                                           ${new Date(c.from).toISOString()}::timestamptz, ${new Date(c.to).toISOString()}::timestamptz, false)
        `;
        expect(unnumbered.map((row) => row.at).sort(), `unnumbered ${JSON.stringify(c)}`).toEqual(want.map((o) => o.at).sort());
      }),
      { numRuns: 3000 },
    );
  }, 600_000);

  it('reads skipped and repeated local times by RFC 5545 (the examples the oracle was checked on)', async () => {
    const at = async (local: string, zone: string) =>
      (await sql`select to_char(private.instant_of_local_time(${local}::timestamp, ${zone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI"Z"') as at`)[0].at;
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT; 02:30 is read as EST (07:30Z = 03:30 EDT).
    expect(await at('2026-03-08 02:30', 'America/New_York')).toBe('2026-03-08T07:30Z');
    expect(new Date(instantOf('America/New_York', Date.UTC(2026, 2, 8, 2, 30))).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    // New York, 1 November 2026: 01:30 happens twice; the first is EDT (05:30Z).
    expect(await at('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T05:30Z');
    expect(new Date(instantOf('America/New_York', Date.UTC(2026, 10, 1, 1, 30))).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    // Lord Howe changes by half an hour: 02:15 on 4 October 2026 is skipped (02:00 +10:30 → 02:30 +11).
    expect(await at('2026-10-04 02:15', 'Australia/Lord_Howe')).toBe('2026-10-03T15:45Z');
    expect(new Date(instantOf('Australia/Lord_Howe', Date.UTC(2026, 9, 4, 2, 15))).toISOString()).toBe('2026-10-03T15:45:00.000Z');
    // Auckland and Seattle each get their own 08:00 on the Monday after both changed (5 April / 8 March 2026 are past).
    expect(await at('2026-12-07 08:00', 'Pacific/Auckland')).toBe('2026-12-06T19:00Z');
    expect(await at('2026-12-07 08:00', 'America/Los_Angeles')).toBe('2026-12-07T16:00Z');
  });
});

// --- validation: zod and SQL alike ----------------------------------------------------------------

const SPOILERS = [
  '', ' ', 'FREQ=WEEKLY;', ';FREQ=WEEKLY', 'FREQ=WEEKLY;;BYDAY=MO', 'FREQ=WEEKLY;BYDAY', 'FREQ=WEEKLY;BYDAY=MO=TU', 'FREQ=weekly;byday=mo',
  'RRULE:FREQ=WEEKLY', 'FREQ=WEEKLY;WKST=SU', 'FREQ=WEEKLY;BYSETPOS=1', 'FREQ=DAILY;BYHOUR=8', 'FREQ=YEARLY;BYWEEKNO=20', 'DTSTART=20260101',
  'FREQ=HOURLY', 'FREQ=', 'INTERVAL=2', 'FREQ=WEEKLY;FREQ=DAILY', 'FREQ=DAILY;INTERVAL=0', 'FREQ=DAILY;INTERVAL=1001', 'FREQ=DAILY;INTERVAL=01',
  'FREQ=DAILY;INTERVAL=-1', 'FREQ=DAILY;COUNT=0', 'FREQ=DAILY;COUNT=10001', 'FREQ=DAILY;COUNT=10000', 'FREQ=DAILY;UNTIL=20260231',
  'FREQ=DAILY;UNTIL=20261301', 'FREQ=DAILY;UNTIL=20261231T240000Z', 'FREQ=DAILY;UNTIL=2026-12-31', 'FREQ=DAILY;UNTIL=20261231T235959z',
  'FREQ=DAILY;COUNT=2;UNTIL=20261231', 'FREQ=MONTHLY;BYMONTH=13', 'FREQ=MONTHLY;BYMONTH=0', 'FREQ=MONTHLY;BYMONTH=1,,2', 'FREQ=MONTHLY;BYMONTHDAY=0',
  'FREQ=MONTHLY;BYMONTHDAY=32', 'FREQ=MONTHLY;BYMONTHDAY=-32', 'FREQ=MONTHLY;BYMONTHDAY=+1', 'FREQ=WEEKLY;BYMONTHDAY=1', 'FREQ=WEEKLY;BYDAY=XX',
  'FREQ=WEEKLY;BYDAY=1MO', 'FREQ=DAILY;BYDAY=-1FR', 'FREQ=MONTHLY;BYDAY=MO,1FR', 'FREQ=MONTHLY;BYDAY=6MO', 'FREQ=MONTHLY;BYDAY=-5SU',
  'FREQ=YEARLY;BYDAY=53MO', 'FREQ=YEARLY;BYDAY=54MO', 'FREQ=YEARLY;BYMONTH=3;BYDAY=6MO', 'FREQ=MONTHLY;BYDAY=0MO', 'FREQ=MONTHLY;BYDAY=+2TU',
  'FREQ=MONTHLY;BYDAY=100MO', 'FREQ=WEEKLY;BYDAY=MO ', 'FREQ=WEEKLY;BYDAY=MÖ', 'FREQ=WEEKLY;BYDAY=MO\t', 'freq=yearly;bymonth=2;bymonthday=29',
  'FREQ=YEARLY;UNTIL=20240229', 'FREQ=YEARLY;UNTIL=20230229', `FREQ=DAILY;${'BYMONTH=1,'.repeat(60)}`, 'FREQ=WEEKLY;BYDAY=MO,MO,TU',
];

/** A rule text: a valid one spoiled in one place, or one of the spoilers above. */
const ruleText = fc.gen().map((g) => {
  if (g(fc.boolean)) return pick(g, SPOILERS);
  const start = new Date(Date.UTC(2026, 0, 1));
  const parts = generateRule(g, start).split(';');
  const i = g(fc.integer, { min: 0, max: parts.length - 1 });
  switch (g(fc.integer, { min: 0, max: 5 })) {
    case 0: // another value for a part
      parts[i] = `${parts[i].split('=')[0]}=${pick(g, ['0', '-1', '1MO', 'MO', '13', '20261231', 'X', '1,2', '-31', '5', '53FR'])}`;
      break;
    case 1: // a part twice
      parts.push(parts[i]);
      break;
    case 2: // a part gone (FREQ, perhaps)
      parts.splice(i, 1);
      break;
    case 3: // another part added
      parts.push(pick(g, ['BYMONTHDAY=15', 'BYDAY=2WE', 'BYDAY=SA', 'COUNT=3', 'UNTIL=20270101', 'BYMONTH=6', 'INTERVAL=2', 'WKST=MO']));
      break;
    default: // left as it is
  }
  return parts.join(';');
});

describe('zod and the database refuse the same rules', () => {
  it('with the same words, on generated and spoiled rules', async () => {
    const texts = fc.sample(ruleText, { numRuns: 4000, seed: 26 });
    texts.push(...SPOILERS);
    const rows = await sql<{ problem: string | null }[]>`
      select private.recurrence_problem(t.rule) as problem from unnest(${texts}::text[]) with ordinality t (rule, position) order by t.position
    `;
    for (const [i, text] of texts.entries()) {
      const problem = recurrenceProblem(text);
      if (problem !== null) counts.refused++;
      expect(rows[i].problem, JSON.stringify(text)).toBe(problem);
    }
    counts.texts += texts.length;
    expect(counts.refused).toBeGreaterThan(texts.length / 4);
  });
});
