// Every route that answers a secret, and what an Idempotency-Key keeps of it (issue 24 finding 6).
// The routes are found in openapi.json — a success answer with a property named like a credential
// (secret, token, password, signed_url), at any depth — and each must be in the table below, so a
// new route that answers one has to say what a retry gets. A secret that exists in its first answer
// only (an API key's, a webhook's signing secret) is stored nowhere with the key: a retry with the
// same key gets the answer with `secret: null`, and the database holds no copy. An upload token is
// kept on purpose: the retry needs it to upload, and it is good for one upload to one object within
// two hours (docs/evidence.md).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiOutcome, expectStatus, post } from '../../support/api.ts';
import { inProgressInspection, inspectionPath, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { stack } from '../../support/stack.ts';
import { openAction } from '../actions/support.ts';
import { JPEG } from '../../support/photos.ts';
import { db } from '../../support/database.ts';

const { world } = inspectionWorldAndStranger();
const CREDENTIAL_PROPERTY = /^(secret|token|password|signed_url)$|_(secret|token|password)$/;
const org = () => world.org.id;

interface Case {
  /** The route's operationId in openapi.json. */
  operation: string;
  /** Sends the route's request with this Idempotency-Key (the same request each time it is called). */
  send: () => Promise<(idempotencyKey: string) => Promise<ApiOutcome>>;
  /** The credential in its answer. */
  credentialOf: (body: any) => string;
  /** Null: stored nowhere, a retry answers without it. Otherwise why the retry gets it again. */
  keptBecause: string | null;
  /** Where the credential sits in a retry's answer, to check it is null there. */
  withoutCredential?: (body: any) => unknown;
}

const webhookBody = () => ({ url: `http://127.0.0.1:9/secrets-${randomUUID()}`, event_types: ['webhook.test'], enabled: false });

const CASES: Case[] = [
  {
    operation: 'createApiKey',
    send: () => {
      const body = { name: `Retried key ${randomUUID()}`, role: 'viewer' };
      return Promise.resolve((key) => post(world.owner.client, `orgs/${org()}/api-keys`, body, { 'Idempotency-Key': key }));
    },
    credentialOf: (body) => body.secret,
    keptBecause: null,
    withoutCredential: (body) => ({ ...body, secret: null }),
  },
  {
    operation: 'createWebhook',
    send: () => {
      const body = webhookBody();
      return Promise.resolve((key) => post(world.admin.client, `orgs/${org()}/webhooks`, body, { 'Idempotency-Key': key }));
    },
    credentialOf: (body) => body.secret,
    keptBecause: null,
    withoutCredential: (body) => ({ ...body, secret: null }),
  },
  {
    operation: 'rotateWebhookSecret',
    send: async () => {
      const endpoint = expectStatus(await post(world.admin.client, `orgs/${org()}/webhooks`, webhookBody()), 201);
      return (key) => post(world.admin.client, `orgs/${org()}/webhooks/${endpoint.id}/rotate-secret`, undefined, { 'Idempotency-Key': key });
    },
    credentialOf: (body) => body.secret,
    keptBecause: null,
    withoutCredential: (body) => ({ ...body, secret: null }),
  },
  {
    operation: 'createAttachment',
    send: async () => {
      const id = await inProgressInspection(world, world.manager);
      const body = { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length };
      return (key) => post(world.manager.client, `${inspectionPath(org(), id)}/attachments`, body, { 'Idempotency-Key': key });
    },
    credentialOf: (body) => body.upload.token,
    keptBecause: 'the retry needs it to upload the photo; it is good for one upload to this object, for two hours',
  },
  {
    operation: 'createActionAttachment',
    send: async () => {
      const action = await openAction(world, { assignee_id: world.inspector.userId });
      const body = { content_type: 'image/jpeg', byte_size: JPEG.length };
      return (key) => post(world.inspector.client, `orgs/${org()}/actions/${action.id}/attachments`, body, { 'Idempotency-Key': key });
    },
    credentialOf: (body) => body.upload.token,
    keptBecause: 'the retry needs it to upload the photo; it is good for one upload to this object, for two hours',
  },
];

/** How many stored Idempotency-Key answers hold `text` anywhere. */
async function storedAnswersHolding(text: string): Promise<number> {
  const [{ n }] = await db()`select count(*)::int as n from public.idempotency_keys where strpos(response_body::text, ${text}) > 0`;
  return n;
}

/** Seconds until a JWT expires. */
function secondsLeft(jwt: string): number {
  const payload = JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
  return payload.exp - Date.now() / 1000;
}

describe('a route that answers a secret, sent with an Idempotency-Key', () => {
  for (const { operation, send, credentialOf, keptBecause, withoutCredential } of CASES) {
    it(keptBecause === null
      ? `${operation}: the secret is in the first answer only; a retry answers it null and the database holds no copy`
      : `${operation}: a retry answers the same credential (${keptBecause})`, async () => {
      const request = await send();
      const key = `secret-${randomUUID()}`;
      const first = await request(key);
      expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
      const credential = credentialOf(first.body);
      expect(credential).toEqual(expect.any(String));
      expect(credential.length).toBeGreaterThan(20);
      const retry = await request(key);
      expect(retry.status).toBe(first.status);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      if (keptBecause === null) {
        expect(retry.body).toEqual(withoutCredential!(first.body));
        expect(await storedAnswersHolding(credential)).toBe(0);
      } else {
        expect(retry.body).toEqual(first.body);
        expect(secondsLeft(credential)).toBeLessThanOrEqual(2 * 60 * 60 + 5);
      }
    });
  }
});

it('every route in openapi.json whose answer holds a credential is in the table above', async () => {
  const document = await (await fetch(`${stack.FUNCTIONS_URL}/api/openapi.json`)).json();
  const schemas = document.components.schemas;
  /** Property names of a schema at any depth, following references once each. */
  const credentialsIn = (schema: any, seen = new Set<string>()): string[] => {
    if (!schema || typeof schema !== 'object') return [];
    if (typeof schema.$ref === 'string') {
      if (seen.has(schema.$ref)) return [];
      seen.add(schema.$ref);
      return credentialsIn(schemas[schema.$ref.replace('#/components/schemas/', '')], seen);
    }
    const own = Object.keys(schema.properties ?? {}).filter((name) => CREDENTIAL_PROPERTY.test(name));
    const nested = [
      ...Object.values<any>(schema.properties ?? {}),
      ...(Array.isArray(schema.items) ? schema.items : [schema.items]),
      ...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? []),
      schema.additionalProperties,
    ];
    return [...own, ...nested.flatMap((part) => credentialsIn(part, seen))];
  };
  const answering: string[] = [];
  for (const operations of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(operations)) {
      const schemasOfSuccess = Object.entries<any>(operation.responses)
        .filter(([status]) => status.startsWith('2'))
        .flatMap(([, response]) => Object.values<any>(response.content ?? {}).map((media) => media.schema));
      if (schemasOfSuccess.some((schema) => credentialsIn(schema).length > 0)) answering.push(operation.operationId);
    }
  }
  expect(answering.sort()).toEqual(CASES.map((c) => c.operation).sort());
});
