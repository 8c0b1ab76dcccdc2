// Times typed on a site's clock (issue 23, part 5): "09:00" in a Due field means nine at the site,
// wherever the person typing is. The conversion to an instant and back, checked in zones either side
// of UTC and across the changes of the clocks, where a naive offset is an hour out. Node's ICU is
// the same time-zone data the browser's Intl reads.
import { describe, expect, it } from 'vitest';
import { instantToWallClock, wallClockToInstant, zoneAbbreviation, zoneOffsetMs } from '../../web/src/lib/zoned-time';
import { formatDateTime } from '../../web/src/lib/format';

const HOUR = 3_600_000;

describe('a wall-clock time in a named zone', () => {
  it('is the instant at which the clock there reads it, in winter and in summer', () => {
    expect(wallClockToInstant('2026-01-15T09:00', 'America/Los_Angeles')).toBe('2026-01-15T17:00:00.000Z');
    expect(wallClockToInstant('2026-07-15T09:00', 'America/Los_Angeles')).toBe('2026-07-15T16:00:00.000Z');
    expect(wallClockToInstant('2026-01-15T09:00', 'Europe/Berlin')).toBe('2026-01-15T08:00:00.000Z');
    expect(wallClockToInstant('2026-07-15T09:00', 'Europe/Berlin')).toBe('2026-07-15T07:00:00.000Z');
    expect(wallClockToInstant('2026-07-15T09:00', 'Asia/Kolkata')).toBe('2026-07-15T03:30:00.000Z');
    expect(wallClockToInstant('2026-07-15T09:00', 'UTC')).toBe('2026-07-15T09:00:00.000Z');
    // Across the date line: the site's morning is the previous day in UTC.
    expect(wallClockToInstant('2026-01-01T05:00', 'Pacific/Auckland')).toBe('2025-12-31T16:00:00.000Z');
  });

  it('does not depend on the zone of the device doing the converting', () => {
    // Node re-reads TZ when it changes: the same conversion on a device in Tokyo and one in Los Angeles.
    const saved = process.env.TZ;
    try {
      for (const deviceZone of ['Asia/Tokyo', 'America/Los_Angeles', 'UTC']) {
        process.env.TZ = deviceZone;
        expect(new Date(2026, 0, 1).getTimezoneOffset(), deviceZone).toBe(deviceZone === 'Asia/Tokyo' ? -540 : deviceZone === 'UTC' ? 0 : 480);
        expect(wallClockToInstant('2026-11-28T09:00', 'America/New_York')).toBe('2026-11-28T14:00:00.000Z');
        expect(instantToWallClock('2026-11-28T14:00:00.000Z', 'America/New_York')).toBe('2026-11-28T09:00');
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('on the days the clocks change, keeps the hours either side of the change right', () => {
    // Los Angeles, spring forward: 2026-03-08 02:00 PST → 03:00 PDT.
    expect(wallClockToInstant('2026-03-08T01:59', 'America/Los_Angeles')).toBe('2026-03-08T09:59:00.000Z');
    expect(wallClockToInstant('2026-03-08T03:00', 'America/Los_Angeles')).toBe('2026-03-08T10:00:00.000Z');
    expect(wallClockToInstant('2026-03-08T09:00', 'America/Los_Angeles')).toBe('2026-03-08T16:00:00.000Z');
    // Los Angeles, fall back: 2026-11-01 02:00 PDT → 01:00 PST.
    expect(wallClockToInstant('2026-11-01T00:30', 'America/Los_Angeles')).toBe('2026-11-01T07:30:00.000Z');
    expect(wallClockToInstant('2026-11-01T09:00', 'America/Los_Angeles')).toBe('2026-11-01T17:00:00.000Z');
    // Berlin, both changes at 01:00 UTC.
    expect(wallClockToInstant('2026-03-29T09:00', 'Europe/Berlin')).toBe('2026-03-29T07:00:00.000Z');
    expect(wallClockToInstant('2026-10-25T09:00', 'Europe/Berlin')).toBe('2026-10-25T08:00:00.000Z');
    // Southern hemisphere: Sydney's clocks go back in April and forward in October.
    expect(wallClockToInstant('2026-04-05T09:00', 'Australia/Sydney')).toBe('2026-04-04T23:00:00.000Z');
    expect(wallClockToInstant('2026-10-04T09:00', 'Australia/Sydney')).toBe('2026-10-03T22:00:00.000Z');
  });

  it('a time the clocks skip moves forward by the gap, as Temporal does', () => {
    // 02:30 does not exist in Los Angeles on 2026-03-08: it is read as 03:30 PDT.
    const skipped = wallClockToInstant('2026-03-08T02:30', 'America/Los_Angeles')!;
    expect(skipped).toBe('2026-03-08T10:30:00.000Z');
    expect(instantToWallClock(skipped, 'America/Los_Angeles')).toBe('2026-03-08T03:30');
    // Berlin skips 02:00–03:00 on 2026-03-29.
    expect(wallClockToInstant('2026-03-29T02:15', 'Europe/Berlin')).toBe('2026-03-29T01:15:00.000Z');
  });

  it('a time that happens twice is the first of the two, as Temporal does', () => {
    // 01:30 happens twice in Los Angeles on 2026-11-01: first in PDT (08:30Z), then in PST (09:30Z).
    expect(wallClockToInstant('2026-11-01T01:30', 'America/Los_Angeles')).toBe('2026-11-01T08:30:00.000Z');
    expect(wallClockToInstant('2026-10-25T02:30', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('goes back to the same wall clock for every hour of a year with two changes', () => {
    for (const zone of ['America/Los_Angeles', 'Australia/Sydney', 'Asia/Kolkata']) {
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += HOUR) {
        const iso = new Date(t).toISOString();
        const wall = instantToWallClock(iso, zone);
        const back = wallClockToInstant(wall, zone)!;
        // The same instant, except the second pass of a repeated hour, which reads as the first.
        const difference = t - new Date(back).getTime();
        expect([0, HOUR], `${zone} ${iso} → ${wall} → ${back}`).toContain(difference);
        if (difference !== 0) expect(zoneOffsetMs(zone, t)).toBeLessThan(zoneOffsetMs(zone, t - 2 * HOUR));
      }
    }
  });

  it('refuses what is not a date and time', () => {
    expect(wallClockToInstant('', 'UTC')).toBeNull();
    expect(wallClockToInstant('2026-02-30', 'UTC')).toBeNull();
    expect(wallClockToInstant('tomorrow at nine', 'UTC')).toBeNull();
    expect(instantToWallClock('not a date', 'UTC')).toBe('');
  });
});

describe('a time shown', () => {
  it('carries the zone it is read in: the site\'s, or the device\'s when no zone is given', () => {
    expect(zoneAbbreviation('America/Los_Angeles', new Date('2026-01-15T17:00:00Z'))).toMatch(/^(PST|GMT-8)$/);
    expect(zoneAbbreviation('America/Los_Angeles', new Date('2026-07-15T17:00:00Z'))).toMatch(/^(PDT|GMT-7)$/);
    expect(formatDateTime('2026-01-15T17:00:00Z', 'America/Los_Angeles')).toMatch(/9:00.*(PST|GMT-8)/);
    const device = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(formatDateTime('2026-01-15T17:00:00Z')).toBe(formatDateTime('2026-01-15T17:00:00Z', device));
    expect(formatDateTime('2026-01-15T17:00:00Z')).toContain(zoneAbbreviation(device, new Date('2026-01-15T17:00:00Z')));
  });
});
