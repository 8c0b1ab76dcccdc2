import { openOutboxStore } from './outbox-store';

export interface WaitingChanges {
  answers: number;
  photos: number;
}

/** How many of this user's changes wait on this device (parked ones included: they are still theirs to see). */
export async function countWaitingChanges(userId: string): Promise<WaitingChanges> {
  const entries = (await (await openOutboxStore()).list()).filter((entry) => entry.userId === userId);
  return { answers: entries.filter((entry) => entry.kind === 'answer').length, photos: entries.filter((entry) => entry.kind === 'photo').length };
}

/** "3 answers and 1 photo", or null when nothing waits. */
export function describeWaitingChanges({ answers, photos }: WaitingChanges): string | null {
  const parts = [answers ? `${answers} ${answers === 1 ? 'answer' : 'answers'}` : '', photos ? `${photos} ${photos === 1 ? 'photo' : 'photos'}` : ''].filter(Boolean);
  return parts.length > 0 ? parts.join(' and ') : null;
}
