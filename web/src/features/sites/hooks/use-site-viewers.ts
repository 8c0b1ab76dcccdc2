import { useEffect, useMemo, useState } from 'react';
import { watchSitePresence, type OrgPresence } from '@/lib/org-channel';

export interface SiteViewer {
  userId: string;
  name: string;
}

export interface SiteViewerSelf {
  userId: string;
  displayName: string;
}

/**
 * Shares that we are looking at the site on its topic (its group's, which members limited to that
 * group may join too, or the organization's for a site in no group); answers who else is.
 */
export function useSiteViewers(orgId: string, site: { id: string; groupId: string | null }, self: SiteViewerSelf): SiteViewer[] {
  const [presences, setPresences] = useState<OrgPresence[]>([]);
  const { userId, displayName } = self;
  const { id: siteId, groupId } = site;

  useEffect(() => {
    const watch = watchSitePresence(orgId, groupId, userId, setPresences);
    watch.track({ site_id: siteId, user_id: userId, display_name: displayName });
    return () => {
      watch.track(null);
      watch.stop();
    };
  }, [orgId, siteId, groupId, userId, displayName]);

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
