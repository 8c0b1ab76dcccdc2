import { useEffect, useMemo, useState } from 'react';
import { watchOrgChannel, type OrgPresence } from '@/lib/org-channel';

export interface SiteViewer {
  userId: string;
  name: string;
}

export interface SiteViewerSelf {
  userId: string;
  displayName: string;
}

/** Shares that we are looking at the site on the organization's channel; answers who else is. */
export function useSiteViewers(orgId: string, siteId: string, self: SiteViewerSelf): SiteViewer[] {
  const [presences, setPresences] = useState<OrgPresence[]>([]);
  const { userId, displayName } = self;

  useEffect(() => {
    const watch = watchOrgChannel(orgId, userId, { onPresence: setPresences });
    watch.track({ site_id: siteId, user_id: userId, display_name: displayName });
    return () => {
      watch.track(null);
      watch.stop();
    };
  }, [orgId, siteId, userId, displayName]);

  return useMemo(() => {
    // One entry per person: the same user may look from several tabs; we are not "also" looking.
    const names = new Map<string, string>();
    for (const presence of presences) {
      if (presence.site_id === siteId && presence.user_id !== userId) names.set(presence.user_id, presence.display_name);
    }
    return [...names]
      .map(([viewerId, name]) => ({ userId: viewerId, name }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }, [presences, siteId, userId]);
}
