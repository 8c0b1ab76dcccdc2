import { Users } from 'lucide-react';
import { useSiteViewers, type SiteViewerSelf } from '../hooks/use-site-viewers';

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'conjunction' });

interface SiteViewersProps {
  orgId: string;
  siteId: string;
  /** The site's group: its viewers share its group's topic. */
  groupId: string | null;
  self: SiteViewerSelf;
}

/** "Also looking at this site: …", from the presence of the organization's other members. */
export function SiteViewers({ orgId, siteId, groupId, self }: SiteViewersProps) {
  const viewers = useSiteViewers(orgId, { id: siteId, groupId }, self);
  // The live region stays in the page so that arrivals are announced.
  return (
    <div className="site-viewers" role="status">
      {viewers.length > 0 ? (
        <p className="inline-icon">
          <Users aria-hidden="true" size={18} />
          Also looking at this site: {listFormat.format(viewers.map((viewer) => viewer.name))}
        </p>
      ) : null}
    </div>
  );
}
