// The API's OpenAPI 3.1 document (issue 13, docs/openapi.md), generated from the route table: each
// route's path, query and body are described by the very zod schemas that parse them, and its
// answer by the zod schema its handler's return type is inferred from (zod 4's JSON Schema
// output), so the document cannot drift from what the router accepts and answers. Every route
// answers errors as RFC 9457 problem documents with the catalogue's codes (docs/product.md §8).
import { z } from 'zod';
import type { Route } from './http.ts';
import { errorCatalogue } from './schemas/errors.ts';

type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  /** Where the API is served, e.g. `/functions/v1/api` (relative to the project's URL). */
  serverUrl: string;
}

/** `/orgs/:org/sites/:id` → `/orgs/{org}/sites/{id}`. */
export function openApiPath(route: Route): string {
  return '/' + route.segments.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/');
}

/** The JSON Schema of what a caller sends (the input side of transforms, defaults optional). */
function inputSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  // A named (`.meta({ id })`) schema inside a request would come out as `#/$defs/…`, which means
  // nothing at this place of the document: requests use the unnamed schemas.
  if (json.$defs) throw new Error(`A request schema holds named schemas (${Object.keys(json.$defs).join(', ')}): use unnamed ones`);
  return json;
}

/** Path or query parameters from an object schema: one parameter per property. */
function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = inputSchema(schema);
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' ? true : required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

// The statuses a route may answer with a problem, besides those every route has.
const COMMON_PROBLEMS = ['401', '403', '404', '422', '429', '500', '503'];

function problemResponses(method: Route['method']): Record<string, JsonSchema> {
  const statuses = new Set(COMMON_PROBLEMS);
  if (method !== 'GET') statuses.add('409');
  return Object.fromEntries([...statuses].sort().map((status) => [status, { $ref: `#/components/responses/Problem${status}` }]));
}

/** The component name of an answer's schema: its `.meta({ id })` (docs/openapi.md). */
function componentName(schema: z.ZodType): string {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error("A route's response schema is named with .meta({ id: 'Name' }) (docs/openapi.md)");
  return id;
}

/** The schema of what a route answers, or of each item of a page; none for a file. */
function itemSchemaOf(response: Route['definition']['response']): z.ZodType | undefined {
  if (response === undefined || response instanceof z.ZodType) return response;
  return 'list' in response ? response.list : undefined;
}

/** A route's success body: its named answer, or a page of them. A route that answers data must name one. */
function responseSchema(response: Route['definition']['response']): JsonSchema {
  const schema = itemSchemaOf(response);
  if (schema === undefined) throw new Error('A route that answers data declares its `response` (docs/openapi.md)');
  const item = { $ref: `#/components/schemas/${componentName(schema)}` };
  if (response === schema) return item;
  return {
    type: 'object',
    required: ['data', 'next_cursor'],
    properties: {
      data: { type: 'array', items: item },
      next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last.' },
    },
    additionalProperties: false,
  };
}

/** The names `$ref`s in `json` point at under `#/components/schemas/`. */
function referencedComponents(json: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(json)) {
    for (const value of json) referencedComponents(value, found);
  } else if (json !== null && typeof json === 'object') {
    for (const [key, value] of Object.entries(json)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
        found.add(value.slice('#/components/schemas/'.length));
      } else {
        referencedComponents(value, found);
      }
    }
  }
  return found;
}

/**
 * The JSON Schemas of the routes' answers and of the named schemas they refer to, as
 * `components.schemas`, by name, in name order: zod writes every named schema of its registry
 * (the output side of transforms, unknown keys forbidden), and those the routes reach are kept.
 */
function responseComponents(routes: Route[]): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'output',
    unrepresentable: 'any',
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, JsonSchema> };
  const wanted = new Set<string>();
  const queue = routes.flatMap(({ definition: { response } }) => {
    const schema = itemSchemaOf(response);
    return schema ? [componentName(schema)] : [];
  });
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (wanted.has(name)) continue;
    if (!Object.hasOwn(schemas, name)) throw new Error(`No schema is named ${name}`);
    wanted.add(name);
    queue.push(...referencedComponents(schemas[name]));
  }
  return Object.fromEntries(
    [...wanted].sort().map((name) => {
      const { $schema: _draft, $id: _id, ...schema } = schemas[name];
      return [name, schema];
    }),
  );
}

/** The body of a route that answers a file (a CSV or a PDF report) rather than JSON. */
function fileContent(mediaType: string): JsonSchema {
  const text = mediaType.startsWith('text/');
  return { [mediaType]: { schema: text ? { type: 'string' } : { type: 'string', format: 'binary' } } };
}

/** The tag of a route: the resource it is about (the last named segment of its path). */
function tagOf(route: Route): string {
  const named = route.segments.filter((segment) => !segment.startsWith(':'));
  const resource = named.at(-1) ?? 'api';
  // `…/inspections/:id/start` is about inspections; `…/actions/:id/transition` about actions.
  const verbs = new Set(['start', 'submit', 'review', 'cancel', 'publish', 'archive', 'transition', 'confirm', 'url', 'accept', 'preview', 'redeliver', 'rotate-secret', 'test', 'resend']);
  return verbs.has(resource) ? (named.at(-2) ?? resource) : resource;
}

function problemComponents(): Record<string, JsonSchema> {
  const codesByStatus = new Map<number, string[]>();
  for (const [code, { status }] of Object.entries(errorCatalogue)) codesByStatus.set(status, [...(codesByStatus.get(status) ?? []), code]);
  const statuses = [...new Set([...COMMON_PROBLEMS, '409'])].sort();
  return Object.fromEntries(
    statuses.map((status) => [
      `Problem${status}`,
      {
        description: `A problem document (RFC 9457). Codes: ${(codesByStatus.get(Number(status)) ?? ['internal_error']).join(', ')}.`,
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        ...(status === '429' || status === '503'
          ? { headers: { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } } } }
          : {}),
      },
    ]),
  );
}

const PROBLEM_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail', 'code', 'request_id'],
  properties: {
    type: { type: 'string', description: 'A URI naming the problem type.' },
    title: { type: 'string', description: 'The catalogue wording, fit to show to a person.' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', enum: Object.keys(errorCatalogue), description: 'The catalogue code (docs/product.md §8).' },
    errors: {
      type: 'array',
      description: 'validation_failed: one entry per field.',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    request_id: { type: 'string', description: 'Also in the x-request-id header; quote it when reporting a problem.' },
    missing: { type: 'array', items: { type: 'string' }, description: 'required_items_missing: the keys of the items left.' },
    current: { type: 'array', items: {}, description: 'stale_version: the rows as they are now.' },
  },
};

/** The OpenAPI 3.1 document of `routes`, named as the router names them (operationId). */
export function openApiDocument(routes: Record<string, Route>, options: OpenApiOptions): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [operationId, route] of Object.entries(routes)) {
    const definition = route.definition;
    const success = definition.empty
      ? { '204': { description: 'Done; no content.' } }
      : {
        [String(definition.status ?? 200)]: {
          description: definition.status === 201 ? 'Created.' : definition.status === 202 ? 'Accepted.' : 'OK.',
          content: definition.response && !(definition.response instanceof z.ZodType) && 'file' in definition.response
            ? fileContent(definition.response.file)
            : { 'application/json': { schema: responseSchema(definition.response) } },
        },
      };
    const operation: JsonSchema = {
      operationId,
      summary: definition.summary ?? `${route.method} ${openApiPath(route)}`,
      tags: [tagOf(route)],
      parameters: [
        ...parametersOf(definition.params, 'path'),
        ...parametersOf(definition.query, 'query'),
        ...(route.method === 'POST'
          ? [{
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            description: 'A retried POST with the same key and body is answered from the first (24 h).',
            schema: { type: 'string', maxLength: 255 },
          }]
          : []),
      ],
      ...(definition.body ? { requestBody: { required: true, content: { 'application/json': { schema: inputSchema(definition.body) } } } } : {}),
      responses: { ...success, ...problemResponses(route.method) },
      // Routes about people and about managing the organization take a user's token only.
      ...(definition.usersOnly ? { security: [{ userToken: [] }] } : {}),
    };
    const path = openApiPath(route);
    paths[path] ??= {};
    paths[path][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: options.title, version: options.version, description: options.description },
    servers: [{ url: options.serverUrl }],
    // Either scheme: a user's access token, or an organization API key (`fck_…`).
    security: [{ userToken: [] }, { apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "A signed-in user's Supabase Auth access token.",
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An organization API key (`fck_…`), made by an owner or admin in Settings. It acts in its organization with its role (manager, inspector or viewer), 600 requests a minute with bursts of 60.',
        },
      },
      schemas: { ...responseComponents(Object.values(routes)), Problem: PROBLEM_SCHEMA },
      responses: problemComponents(),
    },
  };
}
