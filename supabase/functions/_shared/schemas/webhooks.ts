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

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: 'WebhookEventType' });

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  event_types: z.array(webhookEventTypeSchema).describe('Empty: every event.'),
  enabled: z.boolean(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'WebhookEndpoint' });

export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({ secret: z.string().nullable() }).meta({
  id: 'WebhookEndpointWithSecret',
  description:
    'Creating an endpoint or rotating its secret: the endpoint and its signing secret (`whsec_…`). A retry with the same Idempotency-Key gets `secret: null`: the secret is not kept with the key, so a lost answer means replacing the secret (rotate-secret) to get one.',
});

export const webhookDeliveryStatusSchema = z.enum(['pending', 'succeeded', 'dead']).meta({ id: 'WebhookDeliveryStatus' });

export const webhookDeliverySchema = z.object({
  id: z.string(),
  event_id: z.string(),
  event_type: webhookEventTypeSchema,
  status: webhookDeliveryStatusSchema,
  attempts: z.number(),
  next_attempt_at: z.string().nullable().describe('When it is tried next (pending only).'),
  last_status_code: z.number().nullable(),
  last_error: z.string().nullable(),
  last_response: z.string().nullable().describe(
    "The first 2 KB of the receiver's last answer; null when none was kept (an address that is not public).",
  ),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
}).meta({ id: 'WebhookDelivery' });

export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;
export type WebhookEndpointWithSecret = z.output<typeof webhookEndpointWithSecretSchema>;
export type WebhookDeliveryStatus = z.output<typeof webhookDeliveryStatusSchema>;
export type WebhookDelivery = z.output<typeof webhookDeliverySchema>;
