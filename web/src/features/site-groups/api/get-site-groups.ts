import type { Page } from '@schemas/common';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import type { SiteGroup } from '../types';

export const siteGroupKeys = {
  all: (orgId: string) => ['site-groups', orgId] as const,
  list: (orgId: string) => ['site-groups', orgId, 'list'] as const,
};

/** `GET /orgs/{org}/site-groups`: the whole tree the caller sees (at most 1,000 groups) in one answer; a further page is followed should one come. */
export async function getSiteGroups(orgId: string): Promise<SiteGroup[]> {
  const all: SiteGroup[] = [];
  let cursor: string | undefined;
  do {
    const page = await callApi<Page<SiteGroup>>(apiPath('orgs', orgId, 'site-groups'), { query: { cursor } });
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

export function siteGroupsQueryOptions(orgId: string) {
  return queryOptions({ queryKey: siteGroupKeys.list(orgId), queryFn: () => getSiteGroups(orgId) });
}

export function useSiteGroups(orgId: string) {
  return useQuery(siteGroupsQueryOptions(orgId));
}
