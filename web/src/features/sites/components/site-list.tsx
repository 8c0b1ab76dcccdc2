import { LocateFixed, MapPin } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { ListScreen } from '@/components/ui/paged-list';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { formatDistance } from '@/lib/format';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { useSites, type ArchivedFilter, type SiteFilters } from '../api/get-sites';
import { useCurrentPosition } from '../hooks/use-current-position';
import { hasPosition, openStreetMapUrl } from '../utils/site-format';

const archivedOptions: Array<{ value: ArchivedFilter; label: string }> = [
  { value: 'false', label: 'Active' },
  { value: 'true', label: 'Archived' },
  { value: 'all', label: 'All' },
];

interface SiteListProps {
  orgId: string;
  orgSlug: string;
}

export function SiteList({ orgId, orgSlug }: SiteListProps) {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const [archived, setArchived] = useState<ArchivedFilter>('false');
  const [near, setNear] = useState<SiteFilters['near']>(null);
  const position = useCurrentPosition();
  const sites = useSites(orgId, { q, near, archived });

  const searching = search.trim() !== '' || q.trim() !== '';

  return (
    <ListScreen
      searchLabel="Find sites"
      filtersClassName="filters"
      filters={
        <>
          <TextField
            label="Search sites"
            name="q"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Name, address or reference"
            maxLength={200}
          />
          <SelectField
            label="Show"
            name="archived"
            options={archivedOptions}
            value={archived}
            onChange={(event) => setArchived(event.target.value as ArchivedFilter)}
          />
          <div className="filters-action">
            {near ? (
              <Button variant="secondary" onClick={() => setNear(null)}>
                Sort by name
              </Button>
            ) : (
              <Button variant="secondary" pending={position.locating} onClick={() => position.locate(setNear)}>
                <LocateFixed aria-hidden="true" size={18} />
                Near me
              </Button>
            )}
          </div>
        </>
      }
      notes={<FormAlert message={position.error} />}
      query={sites}
      loadingText="Loading sites…"
      noun={['site', 'sites']}
      countSuffix={near ? ', nearest first' : ''}
      emptyText={searching ? 'No sites match your search.' : archived === 'true' ? 'No archived sites.' : 'No sites yet.'}
    >
      {(rows, busy) => (
        <ul className="site-list" aria-label="Sites" aria-busy={busy}>
          {rows.map((site) => (
            <li key={site.id} className="site-row">
              <MapPin aria-hidden="true" className="site-pin" size={22} />
              <div className="site-main">
                <Link to={`/o/${orgSlug}/sites/${site.id}`} className="site-name">
                  {site.name}
                </Link>
                {site.archived_at ? <span className="badge badge-muted">Archived</span> : null}
                {site.address ? <p className="site-address">{site.address}</p> : null}
                {near ? (
                  <p className="muted">
                    {site.distance_m !== undefined && site.distance_m !== null
                      ? `${formatDistance(site.distance_m)} away`
                      : 'No position recorded'}
                  </p>
                ) : null}
              </div>
              {hasPosition(site) ? (
                <a
                  className="site-map-link"
                  href={openStreetMapUrl(site.latitude, site.longitude)}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={`Open map for ${site.name} (opens in a new tab)`}
                >
                  Open map
                </a>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </ListScreen>
  );
}
