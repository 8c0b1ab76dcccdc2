import { useEffect, useState } from 'react';
import { watchOrgChannel, type OrgChannelScope } from '@/lib/org-channel';

/** Whether someone else has changed the site since `since` was last called; from the organization's topics the user follows. */
export function useSiteChangedElsewhere(orgId: string, siteId: string, userId: string, scope: OrgChannelScope): { changed: boolean; since: () => void } {
  const [changed, setChanged] = useState(false);
  // The scope as a string: a new object each render must not rejoin.
  const scopeKey = scope.orgWide ? 'org-wide' : `groups:${[...scope.groupIds].sort().join(',')}`;

  useEffect(() => {
    const watch = watchOrgChannel(
      orgId,
      userId,
      {
        onEvent(change) {
          if (change.entity === 'site' && change.id === siteId && change.actor_id !== userId) setChanged(true);
        },
      },
      scope,
    );
    return () => watch.stop();
    // scope is read through scopeKey.
  }, [orgId, siteId, userId, scopeKey]);

  return { changed, since: () => setChanged(false) };
}
