// How the analytics page writes its figures: the same words in the charts and the tables.

/** A score in percent (0–100), to one decimal: "86.4%". */
export function percentText(value: number | null): string {
  return value === null ? '–' : `${(Math.round(value * 10) / 10).toLocaleString('en-GB')}%`;
}

/** A rate from 0 to 1 as a whole percentage, as compliance writes it: "92%". */
export function rateText(value: number | null): string {
  return value === null ? '–' : `${Math.round(value * 100)}%`;
}

/** A change in points, signed: "+2.3 pts", "−1 pt"; a rate's (0–1) is multiplied by 100 first. */
export function changeText(value: number | null, kind: 'score' | 'rate'): string {
  if (value === null) return '–';
  const points = Math.round((kind === 'rate' ? value * 100 : value) * 10) / 10;
  if (points === 0) return '±0 pts';
  const sign = points > 0 ? '+' : '−';
  const size = Math.abs(points);
  return `${sign}${size.toLocaleString('en-GB')} ${size === 1 ? 'pt' : 'pts'}`;
}

/** Hours as a person reads them: "5.5 h" up to two days, then "3.2 days". */
export function hoursText(value: number | null): string {
  if (value === null) return '–';
  if (value < 48) return `${(Math.round(value * 10) / 10).toLocaleString('en-GB')} h`;
  return `${(Math.round((value / 24) * 10) / 10).toLocaleString('en-GB')} days`;
}

/** A count, grouped: "1,204". */
export const countText = (value: number) => value.toLocaleString('en-GB');

/** A local day (`YYYY-MM-DD`) as the period names write days: "27 Nov 2026". */
export function dayText(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}
