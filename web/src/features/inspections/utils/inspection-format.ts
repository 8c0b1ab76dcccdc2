import type { Inspection } from '../types';

/** "80% (8 of 10)"; null before anything scored was answered. */
export function formatScore(inspection: Pick<Inspection, 'score' | 'max_score'>): string | null {
  const { score, max_score: max } = inspection;
  if (!max) return null;
  const percent = Math.round((score / max) * 100);
  return `${percent}% (${score} of ${max})`;
}
