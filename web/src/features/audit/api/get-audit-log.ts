import type { AuditEntity, AuditEntry } from '@schemas/audit';
import type { Page } from '@schemas/common';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';

export interface AuditFilters {
  entity: AuditEntity | '';
  actorId: string;
  /** An instant (ISO 8601), or empty. */
  since: string;
}

export const auditLogKeys = {
  all: (orgId: string) => ['audit-log', orgId] as const,
  list: (orgId: string, filters: AuditFilters) => ['audit-log', orgId, filters] as const,
};

/** `GET /orgs/{org}/audit-log`: one page of entries, newest first. */
export function getAuditLog(orgId: string, filters: AuditFilters, cursor: string | undefined): Promise<Page<AuditEntry>> {
  return callApi<Page<AuditEntry>>(apiPath('orgs', orgId, 'audit-log'), {
    query: { entity: filters.entity, actor_id: filters.actorId, since: filters.since, cursor },
  });
}

export function auditLogQueryOptions(orgId: string, filters: AuditFilters) {
  return infiniteQueryOptions({
    queryKey: auditLogKeys.list(orgId, filters),
    queryFn: ({ pageParam }) => getAuditLog(orgId, filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useAuditLog(orgId: string, filters: AuditFilters) {
  return useInfiniteQuery({ ...auditLogQueryOptions(orgId, filters), placeholderData: keepPreviousData });
}
