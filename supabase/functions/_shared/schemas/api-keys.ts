// API keys (`/orgs/{org}/api-keys`, docs/api-keys.md): a name, the role the key acts with and an
// optional expiry. The secret exists in one answer only: the one that creates the key.
import { z } from 'zod';
import { nameSchema } from './common.ts';
import { dateTimeSchema } from './inspections.ts';

/** A key acts as a manager, inspector or viewer, never as an owner or admin (docs/product.md §6). */
export const API_KEY_ROLES = ['manager', 'inspector', 'viewer'] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

export const apiKeyCreateSchema = z.strictObject({
  name: nameSchema('a name'),
  role: z.enum(API_KEY_ROLES, { error: 'Choose manager, inspector or viewer.' }),
  expires_at: dateTimeSchema('Enter a date and time, e.g. 2027-12-31T00:00:00Z.').nullable().optional(),
});

export type ApiKeyCreate = z.infer<typeof apiKeyCreateSchema>;

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

export interface ApiKey {
  id: string;
  name: string;
  /** `fck_` and the first 8 characters of the secret. */
  prefix: string;
  role: ApiKeyRole;
  status: ApiKeyStatus;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/**
 * The answer to creating a key: the key and, this once, its secret. A retry with the same
 * Idempotency-Key gets `secret: null`: the secret is stored nowhere, so a lost answer means a new key.
 */
export interface CreatedApiKey extends ApiKey {
  secret: string | null;
}
