// API keys (`/orgs/{org}/api-keys`, docs/api-keys.md): a name, the role the key acts with, an
// optional expiry and optionally the site groups it is limited to. The secret exists in one answer
// only: the one that creates the key.
import { z } from 'zod';
import { nameSchema } from './common.ts';
import { dateTimeSchema } from './inspections.ts';
import { siteGroupIdsSchema } from './site-groups.ts';

/** A key acts as a manager, inspector or viewer, never as an owner or admin (docs/product.md §6). */
export const API_KEY_ROLES = ['manager', 'inspector', 'viewer'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export const apiKeyCreateSchema = z.strictObject({
  name: nameSchema('a name'),
  role: z.enum(API_KEY_ROLES, { error: 'Choose manager, inspector or viewer.' }),
  expires_at: dateTimeSchema('Enter a date and time, e.g. 2027-12-31T00:00:00Z.').nullable().optional(),
  /** The groups the key is limited to, for good (keys are immutable); absent or empty: every site. */
  site_group_ids: siteGroupIdsSchema.optional(),
});

export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const apiKeyRoleSchema = z.enum(API_KEY_ROLES).meta({ id: 'ApiKeyRole' });
export const apiKeyStatusSchema = z.enum(['active', 'revoked', 'expired']).meta({ id: 'ApiKeyStatus' });

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string().describe('`fck_` and the first 8 characters of the secret.'),
  role: apiKeyRoleSchema,
  status: apiKeyStatusSchema,
  created_by: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  org_wide: z.boolean().describe('The key sees every site; false: only those of `site_group_ids` and their subgroups (docs/site-groups.md).'),
  site_group_ids: z.array(z.string()).describe('The groups the key is limited to, set when it was made; empty when org-wide.'),
}).meta({ id: 'ApiKey' });

export const createdApiKeySchema = apiKeySchema.extend({ secret: z.string().nullable() }).meta({
  id: 'CreatedApiKey',
  description:
    'The answer to creating a key: the key and, this once, its secret. A retry with the same Idempotency-Key gets `secret: null`: the secret is stored nowhere, so a lost answer means a new key.',
});

export type ApiKeyStatus = z.output<typeof apiKeyStatusSchema>;
export type ApiKey = z.output<typeof apiKeySchema>;
export type CreatedApiKey = z.output<typeof createdApiKeySchema>;
