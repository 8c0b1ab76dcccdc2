import type { Site } from '@schemas/sites';
import { LocateFixed, MapPin } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { ListScreen, listCountText, LoadMoreButton } from '@/components/ui/paged-list';
import { QueryError } from '@/components/ui/query-error';
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

/** Sites ticked to be moved together (managers), kept by the page across lists. */
export interface SiteSelection {
  selected: ReadonlySet<string>;
  onToggle: (site: Site, selected: boolean) => void;
}

/** What the page adds to the list: ticking sites, and naming each site's group. */
export interface SiteRowExtras {
  selection?: SiteSelection;
  /** The site's group by its path ("North › Harbour"), where the list is not drawn under it. */
  groupLabel?: (site: Site) => string | undefined;
}

interface SiteListProps extends SiteRowExtras {
  orgId: string;
  orgSlug: string;
  /** The sites page's group filter (`?group=`), drawn among the others. */
  groupFilter?: { field: ReactNode; groupId: string; note?: ReactNode };
  /** The list while nothing is searched, filtered or sorted by distance (the sites page's tree); default: the list itself. */
  whenBrowsing?: (archived: ArchivedFilter) => ReactNode;
}

export function SiteList({ orgId, orgSlug, groupFilter, whenBrowsing, ...extras }: SiteListProps) {
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const [archived, setArchived] = useState<ArchivedFilter>('false');
  const [near, setNear] = useState<SiteFilters['near']>(null);
  const position = useCurrentPosition();
  const groupId = groupFilter?.groupId ?? '';
  const searching = search.trim() !== '' || q.trim() !== '';
  const browsing = whenBrowsing !== undefined && !searching && near === null && groupId === '';
  const sites = useSites(orgId, { q, near, archived, groupId }, { enabled: !browsing });

  const filters = (
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
      {groupFilter?.field}
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
  );
  const notes = (
    <>
      <FormAlert message={position.error} />
      {groupFilter?.note}
    </>
  );

  if (browsing) {
    return (
      <div className="stack">
        <div className={groupFilter ? 'filters filters-with-group' : 'filters'} role="search" aria-label="Find sites">
          {filters}
        </div>
        {notes}
        {whenBrowsing(archived)}
      </div>
    );
  }

  return (
    <ListScreen
      searchLabel="Find sites"
      filtersClassName={groupFilter ? 'filters filters-with-group' : 'filters'}
      filters={filters}
      notes={notes}
      query={sites}
      loadingText="Loading sites…"
      noun={['site', 'sites']}
      countSuffix={near ? ', nearest first' : ''}
      emptyText={
        searching ? 'No sites match your search.'
        : groupId ? 'No sites in this group.'
        : archived === 'true' ? 'No archived sites.'
        : 'No sites yet.'
      }
    >
      {(rows, busy) => <SiteRows rows={rows} orgSlug={orgSlug} near={near !== null} busy={busy} label="Sites" {...extras} />}
    </ListScreen>
  );
}

interface SiteRowsProps extends SiteRowExtras {
  rows: Site[];
  orgSlug: string;
  near: boolean;
  busy: true | undefined;
  label: string;
}

/** Sites as rows: name, address, distance when sorted by it, a map link; a tick box when sites can be moved. */
function SiteRows({ rows, orgSlug, near, busy, label, selection, groupLabel }: SiteRowsProps) {
  return (
    <ul className={selection ? 'site-list site-list-selectable' : 'site-list'} aria-label={label} aria-busy={busy}>
      {rows.map((site) => {
        const group = groupLabel?.(site);
        return (
          <li key={site.id} className="site-row">
            {selection ? (
              <label className="site-select">
                <input
                  type="checkbox"
                  checked={selection.selected.has(site.id)}
                  onChange={(event) => selection.onToggle(site, event.target.checked)}
                />
                <span className="visually-hidden">Select {site.name}</span>
              </label>
            ) : (
              <MapPin aria-hidden="true" className="site-pin" size={22} />
            )}
            <div className="site-main">
              <Link to={`/o/${orgSlug}/sites/${site.id}`} className="site-name">
                {site.name}
              </Link>
              {site.archived_at ? <span className="badge badge-muted">Archived</span> : null}
              {site.address ? <p className="site-address">{site.address}</p> : null}
              {group ? <p className="site-group">{group}</p> : null}
              {near ? (
                <p className="muted">
                  {site.distance_m !== undefined && site.distance_m !== null ? `${formatDistance(site.distance_m)} away` : 'No position recorded'}
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
        );
      })}
    </ul>
  );
}

interface SitesInGroupProps extends SiteRowExtras {
  orgId: string;
  orgSlug: string;
  /** The group whose own sites these are; null: the sites in no group. */
  groupId: string | null;
  archived: ArchivedFilter;
  /** Names the list: "Sites in North". */
  label: string;
  /** Said when the group holds no site of its own. */
  emptyText: string;
}

/** The sites directly in one group of the sites page's tree, a page at a time. */
export function SitesInGroup({ orgId, orgSlug, groupId, archived, label, emptyText, ...extras }: SitesInGroupProps) {
  const sites = useSites(orgId, { q: '', near: null, archived, inGroup: groupId });
  const rows = sites.data?.pages.flatMap((page) => page.data) ?? [];
  if (sites.isPending) return <p className="muted">Loading sites…</p>;
  if (sites.isError && rows.length === 0) return <QueryError error={sites.error} onRetry={() => sites.refetch()} />;
  return (
    <div className="stack">
      {rows.length === 0 ? (
        <p className="muted">{emptyText}</p>
      ) : (
        <>
          <SiteRows rows={rows} orgSlug={orgSlug} near={false} busy={sites.isPlaceholderData || undefined} label={label} {...extras} />
          {sites.hasNextPage ? <p className="muted">{listCountText(rows.length, true, ['site', 'sites'])} shown</p> : null}
        </>
      )}
      <LoadMoreButton query={sites} />
      {sites.isError ? <QueryError error={sites.error} onRetry={() => sites.refetch()} /> : null}
    </div>
  );
}
