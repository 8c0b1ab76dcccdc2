import { useEffect } from 'react';
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

/**
 * Sends the signed-in user's waiting changes as soon as they can go, from any screen: at sign-in
 * (after a session expired, they wait on the device), and whenever the session's token is renewed
 * (a backoff from the refused attempts would otherwise hold them for up to a minute). The outbox's
 * code loads only when something waits.
 */
export function useSendWaitingChanges(userId: string | undefined, accessToken: string | undefined, expired: boolean): void {
  useEffect(() => {
    if (!userId || !accessToken || expired) return;
    let current = true;
    void (async () => {
      const waiting = await countWaitingChanges(userId);
      if (!current || waiting.answers + waiting.photos === 0) return;
      const { outboxOf } = await import('./outbox-instance');
      (await outboxOf(userId)).retryNow();
    })().catch(() => undefined);
    return () => {
      current = false;
    };
  }, [userId, accessToken, expired]);
}
