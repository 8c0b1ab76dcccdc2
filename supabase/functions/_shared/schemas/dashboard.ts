// The dashboard (`GET /orgs/{org}/dashboard`): the counts at the top of an organization's home page
// (docs/product.md §2). Each count is the length of a list the web links it to, filtered the same way.
import type { ActionStatus } from './actions.ts';
import type { InspectionStatus } from './inspections.ts';
import type { ComplianceFigures } from './schedules.ts';

export interface Dashboard {
  inspections_by_status: Record<InspectionStatus, number>;
  /** Inspections scheduled or in progress past their due date. */
  overdue: number;
  /** Failed answers of the last seven days, not counting canceled inspections. */
  failed_items_this_week: number;
  actions_by_status: Record<ActionStatus, number>;
  /** Actions open or in progress. */
  open_actions: number;
  /** Actions open or in progress past their due date. */
  overdue_actions: number;
  /**
   * Schedules' occurrences due in the last seven days (rolling, like failed items): how many were
   * due, done on time, late and missed, and the on-time rate — compliance's figures
   * (`GET /orgs/{org}/compliance`) for that week, each countable in the inspections list with
   * `due_from`, `due_to` and `missed=true`.
   */
  occurrences_this_week: ComplianceFigures;
  /** The caller's own work: inspections assigned to them that are scheduled or in progress, their open actions. */
  my_work: {
    inspections_due: number;
    inspections_overdue: number;
    open_actions: number;
    overdue_actions: number;
  };
}
