// The caller's reminder emails (`GET·PATCH /me/notifications`; docs/schedules.md, "Reminders"):
// each kind on or off. Shared by the api function and the web client (`@schemas/notifications`).
// The database holds the same four switches (public.notification_preferences).
import { z } from 'zod';

/** The kinds, in the order the account page shows them, with what each one is. */
export const REMINDER_KINDS = ['occurrence_opened', 'occurrence_due_soon', 'occurrence_missed', 'missed_digest'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

export const REMINDER_KIND_LABELS: Record<ReminderKind, { label: string; hint: string }> = {
  occurrence_opened: {
    label: 'When a scheduled inspection opens',
    hint: 'One assigned to you, or for anyone at a site you inspect.',
  },
  occurrence_due_soon: {
    label: '24 hours before one is due',
    hint: 'If it has not been submitted yet.',
  },
  occurrence_missed: {
    label: 'When one is missed',
    hint: 'Once, when its due time passes without a submission.',
  },
  missed_digest: {
    label: "Daily digest of yesterday's missed inspections",
    hint: 'For owners, admins and managers, each morning something was missed.',
  },
};

const switchSchema = z.boolean({ error: 'Use true or false.' });

export const notificationPreferencesUpdateSchema = z
  .strictObject({
    occurrence_opened: switchSchema.optional(),
    occurrence_due_soon: switchSchema.optional(),
    occurrence_missed: switchSchema.optional(),
    missed_digest: switchSchema.optional(),
  })
  .refine((value) => Object.keys(value).length > 0, { error: 'Change at least one field.' });

export type NotificationPreferencesUpdate = z.infer<typeof notificationPreferencesUpdateSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const notificationPreferencesSchema = z.object({
  occurrence_opened: z.boolean().describe(REMINDER_KIND_LABELS.occurrence_opened.label),
  occurrence_due_soon: z.boolean().describe(REMINDER_KIND_LABELS.occurrence_due_soon.label),
  occurrence_missed: z.boolean().describe(REMINDER_KIND_LABELS.occurrence_missed.label),
  missed_digest: z.boolean().describe(REMINDER_KIND_LABELS.missed_digest.label),
}).meta({
  id: 'NotificationPreferences',
  description: 'Response of `GET /me/notifications` and `PATCH /me/notifications`: which reminder emails the caller gets (all on until changed).',
});

export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;
