// Dashboard: `GET /orgs/{org}/dashboard`, the counts at the top of an organization's home page
// (docs/product.md §2): inspections by status, overdue ones and failed items this week; actions by
// status, open and overdue ones; and the caller's own work.
import { route } from '../_shared/http.ts';
import { ACTION_STATUSES, type ActionStatus } from '../_shared/schemas/actions.ts';
import { type Dashboard, dashboardQuerySchema, dashboardSchema } from '../_shared/schemas/dashboard.ts';
import { INSPECTION_STATUSES, type InspectionStatus } from '../_shared/schemas/inspections.ts';
import { inline } from '../_shared/sql-literal.ts';
import { requireUser, roleAllowed, roleStatement } from './access.ts';
import { OVERDUE_ACTION } from './actions.ts';
import { OVERDUE } from './inspections.ts';
import { orgParams } from './orgs.ts';
import { COMPLIANCE_COUNTS, COUNTED_OCCURRENCE, figuresOf, type FiguresRow } from './schedules.ts';
import { inSiteGroup } from './site-groups.ts';

/** Every status with its count, zero for those with none. */
function countsBy<S extends string>(statuses: readonly S[], rows: { status: S; n: number }[]): Record<S, number> {
  const counts = Object.fromEntries(statuses.map((s) => [s, 0])) as Record<S, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

export const getDashboard = route({
  method: 'GET',
  response: dashboardSchema,
  path: '/orgs/:org/dashboard',
  usersOnly: true,
  params: orgParams,
  query: dashboardQuerySchema,
  handler: async ({ principal, params, query, read }): Promise<Dashboard> => {
    const user = requireUser(principal);
    // Every count of one group's sites (and its subgroups'), or of all the caller sees.
    const inspectionsInGroup = inSiteGroup(inline`i.site_id`, params.org, query.site_group_id);
    const actionsInGroup = inSiteGroup(inline`a.site_id`, params.org, query.site_group_id);
    // One round trip with the membership check (issue 15): the dashboard is the first screen.
    const [role, inspectionsByStatus, actionsByStatus, [counts], [week]] = await read([
      roleStatement(params.org),
      inline`select status, count(*)::int as n from public.inspections i where org_id = ${params.org} and ${inspectionsInGroup} group by status`,
      inline`select status, count(*)::int as n from public.actions a where org_id = ${params.org} and ${actionsInGroup} group by status`,
      // "This week" is the last seven days, the same window whatever the viewer's time zone;
      // answers of canceled inspections no longer count, nor those of items hidden since.
      inline`
        select
          (select count(*)::int from public.inspections i
           where i.org_id = ${params.org} and ${OVERDUE} and ${inspectionsInGroup}) as overdue,
          (select count(*)::int from public.answers a join public.inspections i on i.id = a.inspection_id
           where a.org_id = ${params.org} and a.failed and a.answered_at >= now() - interval '7 days'
             and i.status <> 'canceled' and a.item_key <> all (i.hidden_item_keys) and ${inspectionsInGroup}) as failed,
          (select count(*)::int from public.actions a
           where a.org_id = ${params.org} and ${OVERDUE_ACTION} and ${actionsInGroup}) as overdue_actions,
          (select count(*)::int from public.inspections i
           where i.org_id = ${params.org} and i.assignee_id = ${user.userId} and i.status in ('scheduled', 'in_progress') and ${inspectionsInGroup}) as my_inspections,
          (select count(*)::int from public.inspections i
           where i.org_id = ${params.org} and i.assignee_id = ${user.userId} and ${OVERDUE} and ${inspectionsInGroup}) as my_overdue_inspections,
          (select count(*)::int from public.actions a
           where a.org_id = ${params.org} and a.assignee_id = ${user.userId} and a.status in ('open', 'in_progress') and ${actionsInGroup}) as my_actions,
          (select count(*)::int from public.actions a
           where a.org_id = ${params.org} and a.assignee_id = ${user.userId} and ${OVERDUE_ACTION} and ${actionsInGroup}) as my_overdue_actions
      `,
      // Compliance's figures for the occurrences due in the last seven days.
      inline`
        select ${COMPLIANCE_COUNTS} from public.inspections i
        where i.org_id = ${params.org} and ${COUNTED_OCCURRENCE} and i.due_at >= now() - interval '7 days' and i.due_at < now()
          and ${inspectionsInGroup}
      `,
    ]);
    roleAllowed(role);
    const actions_by_status = countsBy(ACTION_STATUSES, actionsByStatus as { status: ActionStatus; n: number }[]);
    return {
      inspections_by_status: countsBy(INSPECTION_STATUSES, inspectionsByStatus as { status: InspectionStatus; n: number }[]),
      overdue: counts.overdue,
      failed_items_this_week: counts.failed,
      actions_by_status,
      open_actions: actions_by_status.open + actions_by_status.in_progress,
      overdue_actions: counts.overdue_actions,
      occurrences_this_week: figuresOf(week as FiguresRow),
      my_work: {
        inspections_due: counts.my_inspections,
        inspections_overdue: counts.my_overdue_inspections,
        open_actions: counts.my_actions,
        overdue_actions: counts.my_overdue_actions,
      },
    };
  },
});
