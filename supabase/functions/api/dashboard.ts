// Dashboard: `GET /orgs/{org}/dashboard`, the counts at the top of an organization's home page
// (PRODUCT.md §2): inspections by status, how many are overdue, and failed items this week.
import { route } from '../_shared/http.ts';
import { type Dashboard, INSPECTION_STATUSES, type InspectionStatus } from '../_shared/schemas/inspections.ts';
import { requireRole, requireUser } from './access.ts';
import { overdueCondition } from './inspections.ts';
import { orgParams } from './orgs.ts';

export const getDashboard = route({
  method: 'GET',
  path: '/orgs/:org/dashboard',
  params: orgParams,
  handler: async ({ principal, params, db }): Promise<Dashboard> => {
    requireUser(principal);
    return await db(async (tx) => {
      await requireRole(tx, params.org);
      const [byStatus, [counts]] = await Promise.all([
        tx<{ status: InspectionStatus; n: number }[]>`
          select status, count(*)::int as n from public.inspections where org_id = ${params.org} group by status
        `,
        // "This week" is the last seven days, the same window whatever the viewer's time zone;
        // answers of canceled inspections no longer count.
        tx<{ overdue: number; failed: number }[]>`
          select
            (select count(*)::int from public.inspections i
             where i.org_id = ${params.org} and ${overdueCondition(tx)}) as overdue,
            (select count(*)::int from public.answers a join public.inspections i on i.id = a.inspection_id
             where a.org_id = ${params.org} and a.failed and a.answered_at >= now() - interval '7 days'
               and i.status <> 'canceled') as failed
        `,
      ]);
      const inspections_by_status = Object.fromEntries(INSPECTION_STATUSES.map((s) => [s, 0])) as Record<InspectionStatus, number>;
      for (const row of byStatus) inspections_by_status[row.status] = row.n;
      return { inspections_by_status, overdue: counts.overdue, failed_items_this_week: counts.failed };
    });
  },
});
