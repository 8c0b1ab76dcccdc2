import type { Role } from '@schemas/roles';

/**
 * Who changes schedules: owners, admins and managers (docs/product.md §6; the api's
 * SCHEDULE_MANAGERS). Inspectors and viewers read them and are shown no control that changes one.
 * Here rather than in @schemas/roles: that module is in every page's first load.
 */
export function canManageSchedules(role: Role): boolean {
  return role === 'owner' || role === 'admin' || role === 'manager';
}
