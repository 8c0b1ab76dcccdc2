// Wall-clock times in a named time zone (a site's), for the date-and-time inputs: what is typed is
// the clock at the place, converted to an instant (UTC) when the form is sent, and back when an
// instant is edited. Written on Intl alone (docs/inspections.md, "Times and time zones" says why).

/** A `datetime-local` value: "2026-11-21T09:00". */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const DAY_MS = 86_400_000;

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** The clock in `timeZone` at `epochMs`, read as if it were UTC (ms): the zone's offset is the difference. */
function wallClockAt(timeZone: string, epochMs: number): number {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(timeZone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(new Date(epochMs))) part[type] = Number(value);
  return Date.UTC(part.year, part.month - 1, part.day, part.hour, part.minute, part.second);
}

/** How far `timeZone`'s clock is ahead of UTC at `epochMs`, in ms (Los Angeles in winter: −8 h). */
export function zoneOffsetMs(timeZone: string, epochMs: number): number {
  const whole = Math.floor(epochMs / 1000) * 1000;
  return wallClockAt(timeZone, whole) - whole;
}

/**
 * The instant (ISO 8601, UTC) at which the clock in `timeZone` reads `wallClock` (a
 * `datetime-local` value), or null when it is not one. Around a change of the clocks it does what
 * Temporal's "compatible" choice does: a time that happens twice (clocks go back) is the first
 * one, a time the clocks skip (clocks go forward) is moved forward by the gap (02:30 → 03:30).
 */
export function wallClockToInstant(wallClock: string, timeZone: string): string | null {
  const match = WALL_CLOCK.exec(wallClock);
  if (!match) return null;
  const [, year, month, day, hour, minute, second = '0'] = match;
  const wall = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  if (Number.isNaN(wall)) return null;
  // A zone changes its offset at most once in two days: the offsets a day either side are the candidates.
  const before = zoneOffsetMs(timeZone, wall - DAY_MS);
  const after = zoneOffsetMs(timeZone, wall + DAY_MS);
  const matching = [...new Set([before, after])].map((offset) => wall - offset).filter((instant) => wallClockAt(timeZone, instant) === wall);
  // Twice: the earlier. Never (skipped): read with the offset from before the change, which lands after it.
  const instant = matching.length > 0 ? Math.min(...matching) : wall - before;
  return new Date(instant).toISOString();
}

/** An instant as a `datetime-local` value on the clock of `timeZone`: "2026-11-21T09:00". */
export function instantToWallClock(iso: string, timeZone: string): string {
  const epochMs = new Date(iso).getTime();
  if (Number.isNaN(epochMs)) return '';
  return new Date(wallClockAt(timeZone, epochMs)).toISOString().slice(0, 16);
}

/** The zone's short name at an instant in the reader's language ("PST", "PDT", "GMT+1"). */
export function zoneAbbreviation(timeZone: string, at: Date = new Date()): string {
  return zoneName(timeZone, 'short', at);
}

/** The zone's name as people say it, in the reader's language ("Pacific Time", "Central European Time"). */
export function zoneGenericName(timeZone: string, at: Date = new Date()): string {
  return zoneName(timeZone, 'longGeneric', at);
}

function zoneName(timeZone: string, style: 'short' | 'longGeneric', at: Date): string {
  const parts = new Intl.DateTimeFormat(undefined, { timeZone, timeZoneName: style }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? timeZone;
}

/** The zone this device's clock is set to ("Europe/London"). */
export function deviceTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
