import { can } from '@schemas/roles';

/**
 * Who changes schedules: those who manage sites, owners, admins and managers (docs/product.md §6;
 * the api's SCHEDULE_MANAGERS = SITE_MANAGERS). Inspectors and viewers read them and are shown no
 * control that changes one. @schemas/roles is in every first load already: this adds nothing to one.
 */
export const canManageSchedules = can.manageSites;
