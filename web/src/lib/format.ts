const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const inZone = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant in the browser's language, e.g. "21 Nov 2026, 14:05". With `timeZone` (a site's), as
 * the clock on site reads it, with the zone named ("21 Nov 2026, 06:05 PST"): a due date is a time
 * at the place, wherever the reader is.
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  if (!timeZone) return dateTime.format(new Date(iso));
  let format = inZone.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
    inZone.set(timeZone, format);
  }
  return format.format(new Date(iso));
}

const metres = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 });
const kilometres = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });

/** "350 m", "1.2 km". */
export function formatDistance(distanceM: number): string {
  return distanceM < 1000 ? metres.format(distanceM) : kilometres.format(distanceM / 1000);
}
