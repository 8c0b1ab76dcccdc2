// An inspection's statuses and how they read, without zod (see inspections.ts for the schemas).

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
