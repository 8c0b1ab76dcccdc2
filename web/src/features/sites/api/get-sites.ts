import type { Page } from '@schemas/common';
import type { Site } from '@schemas/sites';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export type ArchivedFilter = 'false' | 'true' | 'all';

export interface SiteFilters {
  q: string;
  /** Sort by distance from here. */
  near: { latitude: number; longitude: number } | null;
  archived: ArchivedFilter;
  /** A group and the groups under it (`site_group_id`); '' for every site. */
  groupId?: string;
  /** Only the sites directly in this group, or in none (null): a group's place in the sites page's tree. */
  inGroup?: string | null;
}

export const siteKeys = {
  all: (orgId: string) => ['sites', orgId] as const,
  lists: (orgId: string) => ['sites', orgId, 'list'] as const,
  list: (orgId: string, filters: SiteFilters) => ['sites', orgId, 'list', filters] as const,
  detail: (orgId: string, siteId: string) => ['sites', orgId, 'detail', siteId] as const,
};

function nearParameter(near: SiteFilters['near']): string | undefined {
  return near ? `${near.latitude.toFixed(6)},${near.longitude.toFixed(6)}` : undefined;
}

/** `GET /orgs/{org}/sites`: one page of sites, by name or by distance from `near`. */
export function getSites(orgId: string, filters: SiteFilters, cursor: string | undefined): Promise<Page<Site>> {
  return callApi<Page<Site>>(apiPath('orgs', orgId, 'sites'), {
    query: {
      q: filters.q.trim(),
      near: nearParameter(filters.near),
      archived: filters.archived,
      site_group_id: filters.groupId,
      group_id: filters.inGroup === undefined ? undefined : (filters.inGroup ?? 'none'),
      cursor,
    },
  });
}

export function sitesQueryOptions(orgId: string, filters: SiteFilters) {
  return infiniteQueryOptions({
    queryKey: siteKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getSites(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useSites(orgId: string, filters: SiteFilters, options: { enabled?: boolean } = {}) {
  // New filters keep the old rows on screen until the new ones arrive, so the list doesn't flash.
  return useInfiniteQuery({ ...sitesQueryOptions(orgId, filters), placeholderData: keepPreviousData, enabled: options.enabled });
}
