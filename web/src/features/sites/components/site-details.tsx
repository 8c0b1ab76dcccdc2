import type { Site } from '@schemas/sites';
import { MapPin } from 'lucide-react';
import { hasPosition, openStreetMapUrl } from '../utils/site-format';

/** A site as people who can't edit it see it; `group`: its group by its path, when the organization has groups. */
export function SiteDetails({ site, group }: { site: Site; group?: string }) {
  return (
    <dl className="details">
      {group !== undefined ? (
        <div>
          <dt>Group</dt>
          <dd>{group || 'No group'}</dd>
        </div>
      ) : null}
      <div>
        <dt>Address</dt>
        <dd>{site.address || 'No address'}</dd>
      </div>
      <div>
        <dt>Position</dt>
        <dd>
          {hasPosition(site) ? (
            <span className="inline-icon">
              <MapPin aria-hidden="true" size={18} />
              {site.latitude}, {site.longitude} ·{' '}
              <a href={openStreetMapUrl(site.latitude, site.longitude)} target="_blank" rel="noopener noreferrer">
                Open map<span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </span>
          ) : (
            'No position'
          )}
        </dd>
      </div>
      <div>
        <dt>Geofence</dt>
        <dd>{site.geofence_m} m</dd>
      </div>
      <div>
        <dt>Time zone</dt>
        <dd>{site.timezone}</dd>
      </div>
      <div>
        <dt>External reference</dt>
        <dd>{site.external_ref || '—'}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>{site.archived_at ? `Archived on ${new Date(site.archived_at).toLocaleDateString()}` : 'Active'}</dd>
      </div>
    </dl>
  );
}
