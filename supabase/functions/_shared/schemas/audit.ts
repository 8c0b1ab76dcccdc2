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

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const auditEntitySchema = z.enum(AUDIT_ENTITIES).meta({ id: 'AuditEntity' });

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  action: z.enum(['insert', 'update', 'delete']),
  entity: auditEntitySchema,
  entity_id: z.string().nullable(),
  actor_kind: z.enum(['user', 'api_key', 'system']),
  actor_id: z.string().nullable().describe('The user (actor_kind user) or API key (api_key) who made the change; null for the system.'),
  actor_name: z.string().nullable(),
  subject: z.string().nullable().describe("What the entry is about, as people name it: a title, a name, an address, a member's name."),
  site_timezone: z.string().nullable().describe(
    "The time zone of the site the entry is about (a site, an inspection or an action there, their answers and photos), so its time reads on the site's clock like the site's due dates; null for the rest (members, templates, the organization) and for a site no longer there.",
  ),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
}).meta({ id: 'AuditEntry' });

export type AuditEntry = z.output<typeof auditEntrySchema>;

