// API keys: `GET·POST /orgs/{org}/api-keys`, `DELETE /orgs/{org}/api-keys/{id}` (revokes).
// Owners and admins only, signed in (a key never manages keys); RLS repeats the rule.
import { z } from 'zod';
import { newApiKeySecret } from '../_shared/api-keys.ts';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import {
  type ApiKey,
  apiKeyCreateSchema,
  type ApiKeyRole,
  apiKeySchema,
  type ApiKeyStatus,
  type CreatedApiKey,
  createdApiKeySchema,
} from '../_shared/schemas/api-keys.ts';
import { idSchema, pageQuerySchema } from '../_shared/schemas/common.ts';
import { iso, MEMBER_MANAGERS, requireRole } from './access.ts';
import { orgParams } from './orgs.ts';

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  role: ApiKeyRole;
  created_by: string | null;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  status: ApiKeyStatus;
  org_wide: boolean;
  site_group_ids: string[];
}

const apiKeyParams = z.strictObject({ org: idSchema, id: idSchema });

type ListedApiKeyRow = ApiKeyRow & { created_key: string };

/** A key's access (docs/site-groups.md), of `public.api_keys k`. */
const keyAccess = (tx: Tx) => tx`
  not k.site_access_limited as org_wide,
  array(select g.site_group_id from public.api_key_site_groups g where g.api_key_id = k.id order by g.site_group_id) as site_group_ids
`;

const selectApiKeys = (tx: Tx) => tx`
  select k.id, k.name, k.prefix, k.role, k.created_by, k.created_at, k.last_used_at, k.expires_at, k.revoked_at,
         private.api_key_state(k.revoked_at, k.expires_at) as status, ${keyAccess(tx)},
         -- The cursor keeps microseconds: JavaScript dates stop at milliseconds.
         to_char(k.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_key
  from public.api_keys k
`;

function apiKeyOf(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role,
    status: row.status,
    created_by: row.created_by,
    created_at: iso(row.created_at),
    last_used_at: iso(row.last_used_at),
    expires_at: iso(row.expires_at),
    revoked_at: iso(row.revoked_at),
    org_wide: row.org_wide,
    site_group_ids: row.site_group_ids,
  };
}

export const listApiKeys = route({
  method: 'GET',
  response: { list: apiKeySchema },
  path: '/orgs/:org/api-keys',
  usersOnly: true,
  summary: "List the organization's API keys, newest first (owners and admins)",
  params: orgParams,
  query: pageQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['timestamp', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      return await tx<ListedApiKeyRow[]>`
        ${selectApiKeys(tx)}
        where k.org_id = ${params.org}
          and ${after ? tx`(k.created_at, k.id) < (${after[0] as string}::text::timestamptz, ${after[1] as string}::uuid)` : tx`true`}
        order by k.created_at desc, k.id desc
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, apiKeyOf, (row) => [row.created_key, row.id]);
  },
});

export const createApiKey = route({
  method: 'POST',
  response: createdApiKeySchema,
  path: '/orgs/:org/api-keys',
  usersOnly: true,
  status: 201,
  summary: 'Create an API key; the answer holds its secret, shown this once (owners and admins)',
  params: orgParams,
  body: apiKeyCreateSchema,
  // The secret is never stored, not even in a retry's answer: a retry gets the key without it.
  keptForRetry: (created: CreatedApiKey) => ({ ...created, secret: null }),
  handler: async ({ params, body, db }): Promise<CreatedApiKey> => {
    const { secret, prefix, hash } = await newApiKeySecret();
    const groupIds = body.site_group_ids ?? [];
    const row = await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      if (groupIds.length > 0) {
        const [{ n }] = await tx<{ n: number }[]>`
          select count(*)::int as n from public.site_groups where org_id = ${params.org} and id = any(${groupIds}::uuid[])
        `;
        if (n < groupIds.length) throw ApiError.validation([{ field: 'site_group_ids', message: 'Choose groups of this organization.' }]);
      }
      const [created] = await tx<{ id: string }[]>`
        insert into public.api_keys (org_id, name, prefix, secret_hash, role, expires_at, site_access_limited)
        values (${params.org}, ${body.name}, ${prefix}, decode(${hash}, 'hex'), ${body.role}, ${body.expires_at ?? null}, ${groupIds.length > 0})
        returning id
      `;
      if (groupIds.length > 0) {
        await tx`
          insert into public.api_key_site_groups (api_key_id, org_id, site_group_id)
          select ${created.id}, ${params.org}, unnest(${groupIds}::uuid[])
        `;
      }
      const [read] = await tx<ApiKeyRow[]>`${selectApiKeys(tx)} where k.id = ${created.id}`;
      return read;
    });
    return { ...apiKeyOf(row), secret };
  },
});

export const revokeApiKey = route({
  method: 'DELETE',
  path: '/orgs/:org/api-keys/:id',
  usersOnly: true,
  empty: true,
  summary: 'Revoke an API key: it stops working at once and stays listed as revoked (owners and admins)',
  params: apiKeyParams,
  handler: async ({ params, db }) => {
    await db(async (tx) => {
      await requireRole(tx, params.org, MEMBER_MANAGERS);
      const [key] = await tx<{ id: string }[]>`
        update public.api_keys k set revoked_at = now()
        where k.id = ${params.id} and k.org_id = ${params.org}
        returning k.id
      `;
      if (!key) throw ApiError.notFound('API key');
    });
  },
});
