import { errorCatalogue } from '@schemas/errors';
import { useEffect, useState } from 'react';
import type { LastUser } from '@/lib/auth';
import { countWaitingChanges, describeWaitingChanges } from '@/features/inspections/offline/waiting-changes';

/**
 * What the sign-in page says before the form (issue 23): offline, that signing in must wait and the
 * answers are on the device; after a session that expired by itself, so; and how many changes of
 * the last user wait on this device, sent as soon as they sign in.
 */
export function SignInNotices({ online, last }: { online: boolean; last: LastUser | null }) {
  const [waiting, setWaiting] = useState<string | null>(null);
  useEffect(() => {
    if (!last) return;
    let current = true;
    void countWaitingChanges(last.id)
      .then((counted) => {
        if (current) setWaiting(describeWaitingChanges(counted));
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [last]);

  const lines: string[] = [];
  if (!online) lines.push("You're offline — your answers are saved on this device. Sign in once you're connected again.");
  else if (last?.expired) lines.push(errorCatalogue.session_expired.title);
  if (waiting && last) {
    const single = /^1 \w+$/.test(waiting);
    const who = last.email ? ` for ${last.email}` : '';
    lines.push(`${waiting} ${single ? 'waits' : 'wait'} on this device${who}, to be sent as soon as you sign in.`);
  }
  if (lines.length === 0) return null;
  return (
    <div className="form-alert form-alert-info stack" role="status" data-testid="sign-in-notices">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}
