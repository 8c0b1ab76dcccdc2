import type { Compliance, ComplianceGroupBy } from '@schemas/schedules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiPath, callApi } from '@/lib/api';
import { scheduleKeys } from './get-schedules';

export interface ComplianceQuery {
  from: string;
  to: string;
  groupBy: ComplianceGroupBy;
  siteId?: string;
  /** A site group and the groups under it. */
  groupId?: string;
  scheduleId?: string;
}

/** `GET /orgs/{org}/compliance`: occurrences due in the range, on time, late and missed, per group and in total. */
export function getCompliance(orgId: string, query: ComplianceQuery): Promise<Compliance> {
  return callApi<Compliance>(apiPath('orgs', orgId, 'compliance'), {
    query: { from: query.from, to: query.to, group_by: query.groupBy, site_id: query.siteId, site_group_id: query.groupId, schedule_id: query.scheduleId },
  });
}

export function complianceQueryOptions(orgId: string, query: ComplianceQuery) {
  return queryOptions({ queryKey: [...scheduleKeys.all(orgId), 'compliance', query] as const, queryFn: () => getCompliance(orgId, query) });
}

export function useCompliance(orgId: string, query: ComplianceQuery) {
  return useQuery(complianceQueryOptions(orgId, query));
}
