import { useContext, useState } from 'react';
import { formatDateTime } from '@/lib/format';
import { SiteTimeZone } from '@/lib/site-time-zone';
import { deviceTimeZone, instantToWallClock, wallClockToInstant, zoneAbbreviation, zoneGenericName, zoneOffsetMs } from '@/lib/zoned-time';
import { useField } from './use-field';

interface DueFieldProps {
  label?: string;
  /** The form field that carries the instant (ISO 8601, UTC), or '' when empty. */
  name?: string;
  /** An instant to start from (ISO 8601). */
  defaultValue?: string | null;
  /**
   * The site's zone, whose clock the time is typed on; null while no site is chosen. Without it,
   * the zone of the site the page is about (SiteTimeZone).
   */
  timeZone?: string | null;
  required?: boolean;
  error?: string;
  /** Shown under the field while it is not in the past. */
  hint?: string;
  /** What a date in the past means here ("the inspection will be overdue at once"). */
  pastMeaning: string;
}

/**
 * A due date and time on the site's clock, the zone in its label ("Due (Pacific Time, PST)"): 09:00
 * typed means nine at the site, wherever the person typing is, and is sent as that instant. A date
 * in the past is allowed — a late inspection is still scheduled — but never silently: the field
 * says it will be overdue at once.
 */
export function DueField({ label = 'Due', name = 'due_at', defaultValue, timeZone, required, error, hint, pastMeaning }: DueFieldProps) {
  const pageZone = useContext(SiteTimeZone);
  const zone = timeZone === undefined ? pageZone : timeZone;
  // Converted with the zone the field had first; a site chosen later reads the same clock time in its own zone.
  const [wallClock, setWallClock] = useState(() => (defaultValue ? instantToWallClock(defaultValue, zone ?? deviceTimeZone()) : ''));
  const instant = wallClock === '' ? '' : wallClockToInstant(wallClock, zone ?? deviceTimeZone());
  const at = instant ? new Date(instant) : new Date();
  const past = instant !== null && instant !== '' && at.getTime() < Date.now();
  const device = deviceTimeZone();
  // Someone elsewhere is told what the site's time is on their own clock.
  const elsewhere = zone && instant && zoneOffsetMs(zone, at.getTime()) !== zoneOffsetMs(device, at.getTime());
  const zoneLabel = zone ? `${zoneGenericName(zone, at)}, ${zoneAbbreviation(zone, at)}` : "the site's time";
  const hintText =
    [past ? `This is in the past: ${pastMeaning}.` : hint, zone ? null : 'The time at the site: choose the site first to see its time zone.', elsewhere ? `That is ${formatDateTime(instant)} on this device.` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  const field = useField(hintText, error);
  return (
    <div className="field">
      <label htmlFor={field.controlProps.id}>
        {label} ({zoneLabel})
      </label>
      {field.hint}
      <input
        type="datetime-local"
        // Not the form's value (that is the instant below); named for the form's stale-message clearing.
        data-field={name}
        required={required}
        value={wallClock}
        onChange={(event) => setWallClock(event.target.value)}
        {...field.controlProps}
      />
      {/* Not a date and time: the form's rules say so ("Enter a date and time."). */}
      <input type="hidden" name={name} value={instant ?? 'invalid'} />
      {field.error}
    </div>
  );
}
