// The editor's preview of a draft schedule (issue 26, part 8; web/src/features/schedules/utils/
// occurrence-expansion.ts): each site's next occurrences at its own 08:00, the due time on the
// site's clock across a change of the clocks, skipped and repeated local times read as the database
// reads them, UNTIL and the end date as Fieldcheck reads them, COUNT counted from the start, and the
// zone abbreviation each time is written with. tests/api/schedules/web-preview.test.ts holds the
// same expansion to the database's on generated rules.
import { describe, expect, it } from 'vitest';
import { nextOccurrences, type ExpansionInput } from '../../web/src/features/schedules/utils/occurrence-expansion';
import { formatLocalTime, instantsAround, startOfWeek, zoneLabel } from '../../web/src/features/schedules/utils/schedule-time';

const NOW = Date.parse('2026-11-27T07:12:00Z'); // a Friday
const WEEK = 'FREQ=WEEKLY;BYDAY=MO';
const input = (changes: Partial<ExpansionInput>): ExpansionInput => ({
  rule: WEEK,
  startDate: '2026-11-27',
  endDate: null,
  timeOfDay: '08:00',
  dueAfterMinutes: (4 * 24 + 9) * 60,
  zone: 'America/Los_Angeles',
  after: NOW,
  count: 5,
  ...changes,
});
const starts = (changes: Partial<ExpansionInput>) => nextOccurrences(input(changes)).map((o) => o.at);

describe("a draft's next occurrences", () => {
  it("are each site's own 08:00 on Mondays, due Friday 17:00 there: Seattle and Auckland", () => {
    const seattle = nextOccurrences(input({ zone: 'America/Los_Angeles' }));
    const auckland = nextOccurrences(input({ zone: 'Pacific/Auckland' }));
    expect(seattle.map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-07T08:00', '2026-12-14T08:00', '2026-12-21T08:00', '2026-12-28T08:00']);
    expect(auckland.map((o) => o.local)).toEqual(seattle.map((o) => o.local));
    expect(seattle[0]).toEqual({ n: 1, local: '2026-11-30T08:00', at: '2026-11-30T16:00:00.000Z', dueLocal: '2026-12-04T17:00', due: '2026-12-05T01:00:00.000Z' });
    // Auckland is a day ahead of UTC: its Monday 08:00 (NZDT, +13) is Sunday 19:00 UTC.
    expect(auckland[0]).toEqual({ n: 1, local: '2026-11-30T08:00', at: '2026-11-29T19:00:00.000Z', dueLocal: '2026-12-04T17:00', due: '2026-12-04T04:00:00.000Z' });
    expect(formatLocalTime(seattle[0].local, seattle[0].at, 'America/Los_Angeles')).toBe('Mon 30 Nov 08:00 PST');
    expect(formatLocalTime(auckland[0].local, auckland[0].at, 'Pacific/Auckland')).toBe('Mon 30 Nov 08:00 NZDT');
  });

  it('keep 08:00 local across a change of the clocks, and the due time on the local clock', () => {
    // Los Angeles falls back on Sunday 1 November 2026: Friday 08:00 PDT, due Monday 08:00 PST (73 hours on).
    const [friday] = nextOccurrences(input({ rule: 'FREQ=WEEKLY;BYDAY=FR', startDate: '2026-10-01', dueAfterMinutes: 3 * 24 * 60, after: Date.parse('2026-10-30T00:00:00Z') }));
    expect(friday).toMatchObject({ local: '2026-10-30T08:00', at: '2026-10-30T15:00:00.000Z', dueLocal: '2026-11-02T08:00', due: '2026-11-02T16:00:00.000Z' });
    expect(starts({ rule: 'FREQ=DAILY', startDate: '2026-10-30', after: Date.parse('2026-10-30T00:00:00Z'), count: 4 })).toEqual([
      '2026-10-30T15:00:00.000Z', '2026-10-31T15:00:00.000Z', '2026-11-01T16:00:00.000Z', '2026-11-02T16:00:00.000Z',
    ]);
  });

  it('read a skipped local time with the offset before the change, and a repeated one as the first', () => {
    // New York, 8 March 2026: 02:30 does not happen (02:00 EST → 03:00 EDT); it is 07:30 UTC (03:30 EDT).
    expect(starts({ rule: 'FREQ=DAILY', startDate: '2026-03-07', timeOfDay: '02:30', zone: 'America/New_York', after: Date.parse('2026-03-07T00:00:00Z'), count: 3 })).toEqual([
      '2026-03-07T07:30:00.000Z', '2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z',
    ]);
    // New York, 1 November 2026: 01:30 happens twice; the first is EDT (05:30 UTC).
    expect(starts({ rule: 'FREQ=DAILY', startDate: '2026-11-01', timeOfDay: '01:30', zone: 'America/New_York', after: Date.parse('2026-10-31T00:00:00Z'), count: 2 })).toEqual([
      '2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z',
    ]);
  });

  it('end with UNTIL as Fieldcheck reads it, and with the end date', () => {
    const daily = { rule: 'FREQ=DAILY', startDate: '2026-11-30', after: Date.parse('2026-11-29T00:00:00Z') };
    // A date: that whole local day.
    expect(nextOccurrences(input({ ...daily, rule: 'FREQ=DAILY;UNTIL=20261202' })).map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-01T08:00', '2026-12-02T08:00']);
    // A local time: on each site's clock.
    expect(nextOccurrences(input({ ...daily, rule: 'FREQ=DAILY;UNTIL=20261202T075900' })).map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-01T08:00']);
    // A UTC time: an instant, which Auckland's 08:00 reaches a day before Seattle's does.
    const utc = { ...daily, rule: 'FREQ=DAILY;UNTIL=20261201T160000Z' };
    expect(nextOccurrences(input(utc)).map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-01T08:00']);
    expect(nextOccurrences(input({ ...utc, zone: 'Pacific/Auckland' })).map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-01T08:00']);
    expect(nextOccurrences(input({ ...utc, zone: 'Pacific/Auckland', after: Date.parse('2026-11-30T00:00:00Z') })).map((o) => o.local)).toEqual(['2026-12-01T08:00']);
    // The end date: the last local day, whole.
    expect(nextOccurrences(input({ ...daily, endDate: '2026-12-01' })).map((o) => o.local)).toEqual(['2026-11-30T08:00', '2026-12-01T08:00']);
  });

  it('count COUNT and number the occurrences from the start date, not from now', () => {
    const counted = nextOccurrences(input({ rule: 'FREQ=DAILY;COUNT=5', startDate: '2026-11-25', after: Date.parse('2026-11-27T00:00:00Z') }));
    expect(counted.map((o) => [o.n, o.local])).toEqual([[3, '2026-11-27T08:00'], [4, '2026-11-28T08:00'], [5, '2026-11-29T08:00']]);
  });

  it('reach years ahead for a rare day, and never start before the start date', () => {
    expect(nextOccurrences(input({ rule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', startDate: '2026-01-01' })).map((o) => o.local.slice(0, 10))).toEqual([
      '2028-02-29', '2032-02-29', '2036-02-29', '2040-02-29', '2044-02-29',
    ]);
    expect(nextOccurrences(input({ rule: 'FREQ=DAILY', startDate: '2027-01-04', count: 1 }))[0].local).toBe('2027-01-04T08:00');
  });
});

describe('times on the schedule screens', () => {
  it('name each zone by its abbreviation where English has one, else by its offset', () => {
    const winter = '2026-12-01T12:00:00Z';
    expect(zoneLabel('America/Los_Angeles', winter)).toBe('PST');
    expect(zoneLabel('America/Los_Angeles', '2026-07-01T12:00:00Z')).toBe('PDT');
    expect(zoneLabel('Pacific/Auckland', winter)).toBe('NZDT');
    expect(zoneLabel('Europe/London', winter)).toBe('GMT');
    expect(zoneLabel('Asia/Kolkata', winter)).toBe('IST');
    expect(zoneLabel('Asia/Tokyo', winter)).toBe('GMT+9');
  });

  it('count calendar weeks from Monday and reach every zone of a day range', () => {
    expect(startOfWeek('2026-11-27')).toBe('2026-11-23');
    expect(startOfWeek('2026-11-30')).toBe('2026-11-30');
    expect(startOfWeek('2026-12-06')).toBe('2026-11-30');
    expect(instantsAround('2026-11-30', '2026-12-06')).toEqual({ from: '2026-11-29T10:00:00.000Z', to: '2026-12-07T12:00:00.000Z' });
  });
});
