// openapi.json is made from the router's own table: every route the router knows is in it, with
// its method, path parameters, query and body as the route's zod schemas parse them, and nothing
// else. (tests/api/openapi.test.ts validates the served document with an OpenAPI validator.)
import assert from 'node:assert/strict';
import { apiDocument } from '../../supabase/functions/api/openapi.ts';
import { apiRoutes } from '../../supabase/functions/api/routes.ts';
import { openApiPath } from '../../supabase/functions/_shared/openapi.ts';

type Operation = {
  operationId: string;
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, unknown>;
};
const document = apiDocument() as { openapi: string; paths: Record<string, Record<string, Operation>> };

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
