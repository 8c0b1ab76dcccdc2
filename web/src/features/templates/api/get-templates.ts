import type { Page } from '@schemas/common';
import type { TemplateStatus, TemplateSummary } from '@schemas/templates';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

/** `active` is drafts and published ones: what people work with. */
export type TemplateStatusFilter = 'active' | TemplateStatus;

export interface TemplateFilters {
  q: string;
  status: TemplateStatusFilter;
}

export const templateKeys = {
  all: (orgId: string) => ['templates', orgId] as const,
  lists: (orgId: string) => ['templates', orgId, 'list'] as const,
  list: (orgId: string, filters: TemplateFilters) => ['templates', orgId, 'list', filters] as const,
  detail: (orgId: string, templateId: string) => ['templates', orgId, 'detail', templateId] as const,
  version: (orgId: string, templateId: string, version: number) => ['templates', orgId, 'detail', templateId, 'version', version] as const,
};

/** `GET /orgs/{org}/templates`: one page of templates, by name. */
export function getTemplates(orgId: string, filters: TemplateFilters, cursor: string | undefined): Promise<Page<TemplateSummary>> {
  return callApi<Page<TemplateSummary>>(apiPath('orgs', orgId, 'templates'), {
    query: { q: filters.q.trim(), status: filters.status, cursor },
  });
}

export function templatesQueryOptions(orgId: string, filters: TemplateFilters) {
  return infiniteQueryOptions({
    queryKey: templateKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getTemplates(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useTemplates(orgId: string, filters: TemplateFilters) {
  // New filters keep the old rows on screen until the new ones arrive, so the list doesn't flash.
  return useInfiniteQuery({ ...templatesQueryOptions(orgId, filters), placeholderData: keepPreviousData });
}
