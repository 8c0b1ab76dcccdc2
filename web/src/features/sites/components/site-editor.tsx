import type { Site } from '@schemas/sites';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import type { OrgChannelScope } from '@/lib/org-channel';
import { useSiteChangedElsewhere } from '../hooks/use-site-changed-elsewhere';
import { SiteForm, type SiteFormGroups } from './site-form';

interface SiteEditorProps {
  orgId: string;
  site: Site;
  userId: string;
  /** The organization's topics the user follows (lib/org-channel.ts). */
  liveScope: OrgChannelScope;
  /** The groups the site may go in; none: no group field. */
  groups?: SiteFormGroups;
}

/** The edit form of a site; when someone else changes the site meanwhile, it offers their version instead of overwriting it unseen. */
export function SiteEditor({ orgId, site, userId, liveScope, groups }: SiteEditorProps) {
  const elsewhere = useSiteChangedElsewhere(orgId, site.id, userId, liveScope);
  // Filling the form again is a remount: its fields are uncontrolled.
  const [formGeneration, setFormGeneration] = useState(0);

  function showLatest() {
    elsewhere.since();
    setFormGeneration((generation) => generation + 1);
  }

  return (
    <>
      <div role="status">
        {elsewhere.changed ? (
          <div className="form-alert form-alert-info site-changed-notice">
            <p>Someone else changed this site while you had it open. Saving now would replace their changes.</p>
            <div>
              <Button variant="secondary" onClick={showLatest}>
                Show the latest version
              </Button>
            </div>
          </div>
        ) : null}
      </div>
      <SiteForm key={`${site.id}:${formGeneration}`} orgId={orgId} site={site} defaultGeofenceM={site.geofence_m} groups={groups} />
    </>
  );
}
