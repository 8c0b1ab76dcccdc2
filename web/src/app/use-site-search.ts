import { useCallback, useMemo, useState } from 'react';
import type { Choice } from '@/features/inspections/components/inspection-list';
import type { SiteSearch } from '@/features/inspections/components/site-search-select';
import { useSites } from '@/features/sites/api/get-sites';
import { useDebouncedValue } from '@/lib/use-debounced-value';

/** Active sites matching a search typed by the user: an organization may have thousands, too many to list. */
export function useSiteSearch(orgId: string): SiteSearch {
  const [query, setQuery] = useState('');
  const sites = useSites(orgId, { q: useDebouncedValue(query), near: null, archived: 'false' });
  const found = useMemo(() => sites.data?.pages.flatMap((page) => page.data) ?? [], [sites.data]);
  const choices = useMemo<Choice[]>(() => found.map((site) => ({ value: site.id, label: site.name })), [found]);
  // Zones of every site seen so far: a chosen site stays known when the search moves on.
  const [zones] = useState(() => new Map<string, string>());
  for (const site of found) zones.set(site.id, site.timezone);
  const timeZoneOf = useCallback((siteId: string) => zones.get(siteId), [zones]);
  return { query, onQueryChange: setQuery, choices, more: sites.hasNextPage, timeZoneOf };
}
