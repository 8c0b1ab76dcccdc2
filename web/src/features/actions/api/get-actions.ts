import type { Action, ActionPriority, ActionStatus } from '@schemas/actions';
import type { Page } from '@schemas/common';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export interface ActionFilters {
  /** Empty: every status. */
  statuses: ActionStatus[];
  priorities: ActionPriority[];
  assigneeId: string;
  siteId: string;
  /** A site group and the groups under it; '' for every site. */
  groupId?: string;
  inspectionId: string;
  overdue: boolean;
  /** What an analytics figure counts (docs/analytics.md, "Screens"): `template_id`, `opened|resolved|verified|due_day_from|to`, `missed_due` (set from the URL only). */
  analytics?: Record<string, string>;
}

export const NO_ACTION_FILTERS: ActionFilters = { statuses: [], priorities: [], assigneeId: '', siteId: '', inspectionId: '', overdue: false };

export const actionKeys = {
  all: (orgId: string) => ['actions', orgId] as const,
  lists: (orgId: string) => ['actions', orgId, 'list'] as const,
  list: (orgId: string, filters: ActionFilters) => ['actions', orgId, 'list', filters] as const,
  detail: (orgId: string, actionId: string) => ['actions', orgId, 'detail', actionId] as const,
  photoUrl: (orgId: string, attachmentId: string) => ['actions', orgId, 'photo-url', attachmentId] as const,
};

/** `GET /orgs/{org}/actions`: one page, newest first. */
export function getActions(orgId: string, filters: ActionFilters, cursor: string | undefined): Promise<Page<Action>> {
  return callApi<Page<Action>>(apiPath('orgs', orgId, 'actions'), {
    query: {
      status: filters.statuses.join(','),
      priority: filters.priorities.join(','),
      assignee_id: filters.assigneeId,
      site_id: filters.siteId,
      site_group_id: filters.groupId,
      inspection_id: filters.inspectionId,
      overdue: filters.overdue ? 'true' : undefined,
      ...filters.analytics,
      cursor,
    },
  });
}

export function actionsQueryOptions(orgId: string, filters: ActionFilters) {
  return infiniteQueryOptions({
    queryKey: actionKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getActions(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useActions(orgId: string, filters: ActionFilters, options: { enabled?: boolean } = {}) {
  // New filters keep the old rows on screen until the new ones arrive, so the list doesn't flash.
  return useInfiniteQuery({ ...actionsQueryOptions(orgId, filters), placeholderData: keepPreviousData, enabled: options.enabled });
}
