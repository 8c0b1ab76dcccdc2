// openapi.json is made from the router's own table: every route the router knows is in it, with
// its method, path parameters, query and body as the route's zod schemas parse them, and nothing
// else. (tests/api/openapi.test.ts validates the served document with an OpenAPI validator.)
import assert from 'node:assert/strict';
import { apiDocument } from '../../supabase/functions/api/openapi.ts';
import { apiRoutes } from '../../supabase/functions/api/routes.ts';
import { openApiPath } from '../../supabase/functions/_shared/openapi.ts';
import { z } from 'zod';

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};
const document = apiDocument() as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
};

type Found = { at: string; value: unknown; holder: Record<string, unknown> };

/** Every value under `json` whose key is `key`, with where it is and the object that holds it. */
function valuesOf(json: unknown, key: string, at = '#'): Found[] {
  if (json === null || typeof json !== 'object') return [];
  const holder = json as Record<string, unknown>;
  return Object.entries(holder).flatMap(([k, value]) => [
    ...(k === key ? [{ at, value, holder }] : []),
    ...valuesOf(value, key, `${at}/${k}`),
  ]);
}

Deno.test('every route of the router is in the document, and nothing else', () => {
  const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`)
  );
  const routed = Object.entries(apiRoutes).map(([name, route]) => `${route.method} ${openApiPath(route)} ${name}`);
  assert.deepEqual([...documented].sort(), [...routed].sort());
  assert.equal(document.openapi, '3.1.0');
});

Deno.test('each operation names its path parameters, its query and its body from the route schemas', () => {
  for (const [name, route] of Object.entries(apiRoutes)) {
    const operation = document.paths[openApiPath(route)][route.method.toLowerCase()];
    const pathParams = route.segments.filter((segment) => segment.startsWith(':')).map((segment) => segment.slice(1));
    assert.deepEqual(
      operation.parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name).sort(),
      pathParams.sort(),
      name,
    );
    assert.equal(operation.requestBody !== undefined, route.definition.body !== undefined, name);
    assert.ok(Object.keys(operation.responses).some((status) => status.startsWith('2')), name);
    assert.ok(operation.responses['422'] && operation.responses['401'], name);
  }
  // Spot checks against schemas we know.
  const list = document.paths['/orgs/{org}/inspections'].get;
  const query = list.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name);
  for (const name of ['status', 'site_id', 'assignee_id', 'overdue', 'updated_since', 'cursor', 'limit', 'q']) assert.ok(query.includes(name), name);
  const created = document.paths['/orgs/{org}/actions'].post;
  const body = created.requestBody!.content['application/json'].schema as { properties: Record<string, unknown>; required?: string[] };
  assert.ok(body.properties.title && body.properties.priority, 'action create body');
  assert.ok(body.required?.includes('title'));
  assert.ok(created.responses['201']);
  const removal = document.paths['/orgs/{org}/members/{user_id}'].delete.responses;
  assert.ok(removal['204'] && !removal['200'], 'a removal answers 204');
});

Deno.test('every reference in the document names one of its components, and answers name the properties they may have', () => {
  const components = document.components.schemas;
  for (const { at, value } of valuesOf(document, '$ref')) {
    const target = String(value);
    if (target.startsWith('#/components/responses/')) continue;
    assert.ok(target.startsWith('#/components/schemas/') && Object.hasOwn(components, target.split('/').at(-1)!), `${at}: ${target}`);
  }
  // The answers' objects forbid what they do not name, so an answer that grew a field fails the
  // API spec test (tests/api/spec/responses.test.ts). Problem documents may carry more (RFC 9457).
  const { Problem: _problem, ...answers } = components;
  const objects = valuesOf(answers, 'type').filter(({ value }) => value === 'object');
  assert.ok(objects.length > 40, 'the answers have object schemas');
  for (const { at, holder } of objects) {
    if (holder.properties) assert.equal(holder.additionalProperties, false, `${at} forbids properties it does not name`);
  }
  // The component of a route's answer is the one its zod schema names (siteSchema is `Site`).
  const siteAnswer = document.paths['/orgs/{org}/sites/{id}'].get.responses['200'] as { content: Record<string, { schema: unknown }> };
  assert.deepEqual(siteAnswer.content['application/json'].schema, { $ref: '#/components/schemas/Site' });
});

Deno.test('no two response schemas share a name (zod would keep the last one silently)', async () => {
  const schemasDir = new URL('../../supabase/functions/_shared/schemas/', import.meta.url);
  const owners = new Map<string, { schema: z.ZodType; where: string }>();
  for await (const entry of Deno.readDir(schemasDir)) {
    if (!entry.name.endsWith('.ts')) continue;
    const module: Record<string, unknown> = await import(new URL(entry.name, schemasDir).href);
    for (const [name, value] of Object.entries(module)) {
      if (!(value instanceof z.ZodType)) continue;
      const id = z.globalRegistry.get(value)?.id;
      if (!id) continue;
      const owner = owners.get(id);
      assert.ok(!owner || owner.schema === value, `${id} names both ${owner?.where} and ${entry.name} ${name}`);
      owners.set(id, { schema: value, where: `${entry.name} ${name}` });
    }
  }
  const components = Object.keys(document.components.schemas).filter((name) => name !== 'Problem');
  for (const name of components) assert.ok(owners.has(name), `${name} is an exported schema of _shared/schemas`);
});
