const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An instant in the reader's language with the zone it is read in named: "Nov 21, 2026, 6:05 AM PST".
 * With `timeZone` (a site's), as the clock on site reads it: a due date is a time at the place,
 * wherever the reader is. Without, on this device's clock — still named ("2:05 PM GMT"), so no time
 * on a page is ever in an unsaid zone.
 */
export function formatDateTime(iso: string, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
    formats.set(key, format);
  }
  return format.format(new Date(iso));
}

/**
 * Makes the device-zone formatter now. The first date formatter of a page loads ICU's date and
 * zone-name data, a task of 10–25 ms on this machine; a screen that is waiting for its data calls
 * this (in a task of its own), so its first render does not pay for it.
 */
export function prepareDateFormats(): void {
  formatDateTime(new Date(0).toISOString());
}

// Made on first use, not when the module loads: building a unit formatter reads ICU's unit data, a
// long task of its own in the profile of the run page's first load (docs/performance.md, "The web
// app in Lighthouse"), which this module is part of, while a distance shows only on a started
// inspection.
let metres: Intl.NumberFormat | undefined;
let kilometres: Intl.NumberFormat | undefined;

/** "350 m", "1.2 km". */
export function formatDistance(distanceM: number): string {
  if (distanceM < 1000) return (metres ??= new Intl.NumberFormat(undefined, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 })).format(distanceM);
  return (kilometres ??= new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 })).format(distanceM / 1000);
}
