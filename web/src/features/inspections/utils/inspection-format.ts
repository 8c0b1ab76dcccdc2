import type { Inspection } from '../types';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** "80% (8 of 10)"; null before anything scored was answered. */
export function formatScore(inspection: Pick<Inspection, 'score' | 'max_score'>): string | null {
  const { score, max_score: max } = inspection;
  if (!max) return null;
  const percent = Math.round((score / max) * 100);
  return `${percent}% (${score} of ${max})`;
}

/** "350 m", "1.2 km". */
export function formatDistance(distanceM: number): string {
  return distanceM < 1000 ? `${Math.round(distanceM)} m` : `${(distanceM / 1000).toFixed(1)} km`;
}
