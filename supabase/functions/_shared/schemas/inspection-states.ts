// An inspection's statuses, how they read and who may move them, without zod (inspections.ts has
// the schemas and re-exports these).
import type { Inspection } from './inspections.ts';
import type { Role } from './roles.ts';

export const INSPECTION_STATUSES = ['scheduled', 'in_progress', 'submitted', 'changes_requested', 'approved', 'canceled'] as const;
export type InspectionStatus = (typeof INSPECTION_STATUSES)[number];

/** How a status reads in the interface ("In progress"). */
export const STATUS_LABELS: Record<InspectionStatus, string> = {
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  submitted: 'Submitted',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  canceled: 'Canceled',
};

/** Owners, admins and managers schedule, edit, review and cancel inspections (docs/product.md §6). */
export const INSPECTION_MANAGERS = ['owner', 'admin', 'manager'] as const satisfies readonly Role[];
/** Owners, admins, managers and inspectors start, answer and submit (docs/product.md §6). */
export const INSPECTION_FILLERS = ['owner', 'admin', 'manager', 'inspector'] as const satisfies readonly Role[];

/** Who may do what with inspections (docs/product.md §6); the web shows only the buttons a role allows. */
export function canScheduleInspections(role: Role): boolean {
  return (INSPECTION_MANAGERS as readonly Role[]).includes(role);
}

export function canReviewInspections(role: Role): boolean {
  return canScheduleInspections(role);
}

/** Start, answer and submit: managers on any inspection, inspectors on theirs or unassigned ones. */
export function canFillInspection(role: Role, userId: string | null, inspection: Pick<Inspection, 'assignee_id'>): boolean {
  if (canScheduleInspections(role)) return true;
  return role === 'inspector' && (inspection.assignee_id === null || inspection.assignee_id === userId);
}
