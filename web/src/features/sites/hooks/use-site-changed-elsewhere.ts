import { useEffect, useState } from 'react';
import { watchOrgChannel } from '@/lib/org-channel';

/** Whether someone else has changed the site since `since` was last called; from the organization's channel. */
export function useSiteChangedElsewhere(orgId: string, siteId: string, userId: string): { changed: boolean; since: () => void } {
  const [changed, setChanged] = useState(false);

  useEffect(() => {
    const watch = watchOrgChannel(orgId, userId, {
      onEvent(change) {
        if (change.entity === 'site' && change.id === siteId && change.actor_id !== userId) setChanged(true);
      },
    });
    return () => watch.stop();
  }, [orgId, siteId, userId]);

  return { changed, since: () => setChanged(false) };
}
