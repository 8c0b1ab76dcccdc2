const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** An instant in the browser's zone and language, e.g. "21 Nov 2026, 14:05". */
export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

const metres = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'meter', maximumFractionDigits: 0 });
const kilometres = new Intl.NumberFormat(undefined, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 });

/** "350 m", "1.2 km". */
export function formatDistance(distanceM: number): string {
  return distanceM < 1000 ? metres.format(distanceM) : kilometres.format(distanceM / 1000);
}
