// The audit log (`GET /orgs/{org}/audit-log`) and the activity feed (`GET /orgs/{org}/activity`):
// entries of the append-only audit_log, with who did it and what it was about. The api returns
// the recorded rows as they are (before, after); `describeAuditEntry` words an entry as a
// sentence ("Iris Inspector submitted Monthly food-safety audit — Capitol Hill"), shared so the
// settings page, the dashboard feed and any other reader say the same thing.
import { z } from 'zod';
import { AUDIT_ENTITIES } from './audit-entries.ts';
import { idSchema, pageQuerySchema } from './common.ts';
import { dateTimeSchema } from './inspections.ts';

// The entries and their wording have no zod: the web's dashboard feed reads them on first load.
export * from './audit-entries.ts';

export const auditLogQuerySchema = pageQuerySchema.extend({
  entity: z.enum(AUDIT_ENTITIES, { error: `Use one of ${AUDIT_ENTITIES.join(', ')}.` }).optional(),
  entity_id: idSchema.optional(),
  actor_id: idSchema.optional(),
  /** Entries at or after this instant. */
  since: dateTimeSchema('Use an ISO date and time, e.g. 2026-12-01T09:00:00Z.').optional(),
});

export const activityQuerySchema = pageQuerySchema;

export type AuditLogQuery = z.infer<typeof auditLogQuerySchema>;

