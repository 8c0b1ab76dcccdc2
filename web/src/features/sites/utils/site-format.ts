import type { Site } from '@schemas/sites';

/** OpenStreetMap centred on the point, with a marker on it. */
export function openStreetMapUrl(latitude: number, longitude: number): string {
  return `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;
}

export function hasPosition(site: Site): site is Site & { latitude: number; longitude: number } {
  return site.latitude !== null && site.longitude !== null;
}

/** The browser's own zone, e.g. "Europe/Paris". */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

let timeZones: string[] | null = null;

/** IANA zones the browser knows, with UTC (Chrome leaves it out of its list). */
export function timeZoneNames(): string[] {
  if (!timeZones) {
    const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    timeZones = Array.from(new Set(['UTC', ...known])).sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
  }
  return timeZones;
}
