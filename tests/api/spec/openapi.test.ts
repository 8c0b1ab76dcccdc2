// GET /functions/v1/api/openapi.json: served without a token, a valid OpenAPI 3.1 document by a
// maintained validator (@seriousme/openapi-schema-validator), gzipped like other large answers,
// and what it says holds against the running api (a documented route answers; the body it
// documents is the one the route takes). tests/functions/openapi.test.ts proves it lists exactly
// the router's routes.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { callApi } from '../../support/api.ts';
import { signedInClient } from '../../support/clients.ts';
import { stack } from '../../support/stack.ts';

const documentUrl = `${stack.API_URL}/functions/v1/api/openapi.json`;

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>>;
  components: { securitySchemes: Record<string, unknown> };
};

describe('openapi.json', () => {
  it('is served to anyone, gzipped, and is a valid OpenAPI 3.1 document', async () => {
    const response = await fetch(documentUrl, { headers: { 'accept-encoding': 'gzip' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('content-encoding')).toBe('gzip');
    const document = (await response.json()) as Document;
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // Both ways in: a user's access token, or an organization API key (docs/api-keys.md).
    expect(Object.keys(document.components.securitySchemes)).toEqual(['userToken', 'apiKey']);
    expect((document as any).security).toEqual([{ userToken: [] }, { apiKey: [] }]);
  });

  it('describes the api that runs: a documented route answers, with the body it documents', async () => {
    const document = (await (await fetch(documentUrl)).json()) as Document;
    const { client } = await signedInClient({ key: stack.PUBLISHABLE_KEY });
    expect(document.paths['/me'].get.operationId).toBe('getMe');
    expect((await callApi(client, 'me')).status).toBe(200);

    // The documented body of POST /orgs requires a name: without it the route refuses that field.
    expect(document.paths['/orgs'].post.requestBody?.content['application/json'].schema.required).toContain('name');
    const refused = await callApi(client, 'orgs', { method: 'POST', body: {} });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain('name');

    // A path it does not document is not a route.
    expect(document.paths['/nothing-here']).toBeUndefined();
    expect((await callApi(client, 'nothing-here')).status).toBe(404);
  });
});
