// Fixtures for the API key tests: keys made through the real route by an owner, and a client for
// "another service" — the unmodified supabase-js client with the key as its bearer token, the
// way a service using supabase-js would send it (plain HTTP with the same header is the same).
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { fetchFrom } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';
import type { User } from '../../support/fixtures.ts';
import { expectStatus, post } from '../../support/api.ts';

export type KeyRole = 'manager' | 'inspector' | 'viewer';

export interface Key {
  id: string;
  secret: string;
  role: KeyRole;
  /** A client that calls the API with this key. */
  client: SupabaseClient;
  /** The key as a `User` for helpers that take one (it has no user id). */
  asUser: User;
}

export const apiKeysPath = (orgId: string) => `orgs/${orgId}/api-keys`;

/** A client whose every request carries `Authorization: Bearer <secret>`. */
export function keyClient(secret: string): SupabaseClient {
  return createClient(stack.API_URL, stack.PUBLISHABLE_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchFrom(), headers: { Authorization: `Bearer ${secret}` } },
  });
}

/** Creates a key through `POST …/api-keys` as `by` (an owner or admin). */
export async function createKey(by: User, orgId: string, role: KeyRole, body: Record<string, unknown> = {}): Promise<Key> {
  const created = expectStatus(await post(by.client, apiKeysPath(orgId), { name: `${role} integration`, role, ...body }), 201);
  const client = keyClient(created.secret);
  return {
    id: created.id,
    secret: created.secret,
    role,
    client,
    asUser: { client, userId: '', email: '', password: '', displayName: created.name },
  };
}
