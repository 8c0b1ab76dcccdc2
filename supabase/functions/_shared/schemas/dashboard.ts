// The dashboard (`GET /orgs/{org}/dashboard`): the counts at the top of an organization's home page
// (docs/product.md §2). Each count is the length of a list the web links it to, filtered the same way.
// The web imports only the type (its first screen carries no zod).
import { z } from 'zod';
import { ACTION_STATUSES } from './action-states.ts';
import { INSPECTION_STATUSES } from './inspection-states.ts';
import { idSchema } from './common.ts';
import { complianceFiguresSchema } from './schedules.ts';

/** `?site_group_id=`: every count narrowed to the sites in a group and its subgroups (docs/site-groups.md). */
export const dashboardQuerySchema = z.strictObject({ site_group_id: idSchema.optional() });

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const dashboardSchema = z.object({
  inspections_by_status: z.record(z.enum(INSPECTION_STATUSES), z.number()),
  overdue: z.number().describe('Inspections scheduled or in progress past their due date.'),
  failed_items_this_week: z.number().describe('Failed answers of the last seven days, not counting canceled inspections.'),
  actions_by_status: z.record(z.enum(ACTION_STATUSES), z.number()),
  open_actions: z.number().describe('Actions open or in progress.'),
  overdue_actions: z.number().describe('Actions open or in progress past their due date.'),
  occurrences_this_week: complianceFiguresSchema.describe(
    "Schedules' occurrences due in the last seven days (rolling, like failed items): how many were due, done on time, late and missed, and the on-time rate — compliance's figures (`GET /orgs/{org}/compliance`) for that week, each countable in the inspections list with `due_from`, `due_to` and `missed=true`.",
  ),
  my_work: z.object({
    inspections_due: z.number(),
    inspections_overdue: z.number(),
    open_actions: z.number(),
    overdue_actions: z.number(),
  }).describe("The caller's own work: inspections assigned to them that are scheduled or in progress, their open actions."),
}).meta({ id: 'Dashboard' });

export type Dashboard = z.output<typeof dashboardSchema>;
