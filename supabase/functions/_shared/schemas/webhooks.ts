// Webhook endpoints and their delivery log (`/orgs/{org}/webhooks`, docs/webhooks.md).
import { z } from 'zod';

/** Every event a delivery can carry; the database's private.webhook_event_types() holds the same list. */
export const WEBHOOK_EVENT_TYPES = [
  'inspection.created', 'inspection.started', 'inspection.submitted', 'inspection.approved',
  'inspection.changes_requested', 'inspection.canceled', 'inspection.missed',
  'action.created', 'action.in_progress', 'action.resolved', 'action.verified', 'action.reopened', 'action.canceled',
  'site.created', 'site.updated', 'site.archived',
  'template.created', 'template.updated', 'template.published', 'template.archived',
  'schedule.created', 'schedule.updated', 'schedule.paused', 'schedule.deleted',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_ENDPOINT_LIMIT = 10;

const urlSchema = z
  .string({ error: 'Enter the URL that receives the events.' })
  .trim()
  .max(2000, { error: 'Use a URL of at most 2000 characters.' })
  .regex(/^https?:\/\/\S+$/i, { error: 'Enter a full http or https URL, e.g. https://example.com/webhooks.' });

const eventTypesSchema = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Choose events from the list.' }), { error: 'Choose events from the list.' })
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)]);

export const webhookCreateSchema = z.strictObject({
  url: urlSchema,
  /** Empty or left out: every event. */
  event_types: eventTypesSchema.optional(),
  enabled: z.boolean({ error: 'Use true or false.' }).optional(),
});

export const webhookUpdateSchema = z
  .strictObject({ url: urlSchema.optional(), event_types: eventTypesSchema.optional(), enabled: z.boolean({ error: 'Use true or false.' }).optional() })
  .refine((body) => Object.keys(body).length > 0, { error: 'Change at least one of url, event_types and enabled.' });

export type WebhookCreate = z.infer<typeof webhookCreateSchema>;
export type WebhookUpdate = z.infer<typeof webhookUpdateSchema>;

export interface WebhookEndpoint {
  id: string;
  url: string;
  /** Empty: every event. */
  event_types: WebhookEventType[];
  enabled: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Creating an endpoint or rotating its secret: the endpoint and its signing secret (`whsec_…`). A
 * retry with the same Idempotency-Key gets `secret: null`: the secret is not kept with the key, so a
 * lost answer means replacing the secret (rotate-secret) to get one.
 */
export interface WebhookEndpointWithSecret extends WebhookEndpoint {
  secret: string | null;
}

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'dead';

export interface WebhookDelivery {
  id: string;
  event_id: string;
  event_type: WebhookEventType;
  status: WebhookDeliveryStatus;
  attempts: number;
  /** When it is tried next (pending only). */
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  /** The first 2 KB of the receiver's last answer; null when none was kept (an address that is not public). */
  last_response: string | null;
  created_at: string;
  delivered_at: string | null;
}
