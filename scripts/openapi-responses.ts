// `npm run openapi:responses`: JSON Schemas of what the api's routes answer, generated from the
// TypeScript interfaces in supabase/functions/_shared/schemas by ts-json-schema-generator (the
// answers are interfaces, not zod schemas, so zod cannot describe them). Writes
// supabase/functions/_shared/openapi-responses.json, which api/openapi.ts puts under
// components.schemas. The names come from the routes' `response` fields; the API spec test fails
// when the file is behind the code (docs/openapi.md).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  BaseType, type Context, createFormatter, createParser, createProgram, DEFAULT_CONFIG, type Definition, SchemaGenerator,
  type SubNodeParser, type SubTypeFormatter, ts,
} from 'ts-json-schema-generator';

/**
 * Types that are zod's (`z.output<typeof …>`), which this generator cannot read: the document
 * takes their JSON Schema from the zod schema itself (api/openapi.ts), and here they are only a
 * reference to it. Name → the zod schema's export in _shared/schemas.
 */
export const ZOD_TYPES: Record<string, string> = { TemplateDefinition: 'definitionSchema' };

/** A reference to a component schema that zod supplies. */
class ZodComponentType extends BaseType {
  private readonly name: string;
  constructor(name: string) {
    super();
    this.name = name;
  }
  getId(): string {
    return `zod-component-${this.name}`;
  }
  componentName(): string {
    return this.name;
  }
}

class ZodComponentParser implements SubNodeParser {
  supportsNode(node: ts.Node): boolean {
    return ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && Object.hasOwn(ZOD_TYPES, node.typeName.text);
  }
  createType(node: ts.Node, _context: Context): BaseType {
    return new ZodComponentType(((node as ts.TypeReferenceNode).typeName as ts.Identifier).text);
  }
}

class ZodComponentFormatter implements SubTypeFormatter {
  supportsType(type: BaseType): boolean {
    return type instanceof ZodComponentType;
  }
  getDefinition(type: BaseType): Definition {
    // A marker, made a $ref below: the generator checks every $ref against its own definitions.
    return { 'x-zod-component': (type as ZodComponentType).componentName() } as Definition;
  }
  getChildren(): BaseType[] {
    return [];
  }
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apiDir = path.join(root, 'supabase/functions/api');
export const RESPONSE_SCHEMAS_FILE = path.join(root, 'supabase/functions/_shared/openapi-responses.json');

/** The interface names the routes declare: `response: 'Site'` and `response: { list: 'Site' }`. */
export function declaredResponseTypes(): string[] {
  const names = new Set<string>();
  for (const file of readdirSync(apiDir).filter((f) => f.endsWith('.ts'))) {
    const source = readFileSync(path.join(apiDir, file), 'utf8');
    for (const match of source.matchAll(/^\s+response: (?:'(\w+)'|\{ list: '(\w+)' \}),$/gm)) names.add(match[1] ?? match[2]);
  }
  return [...names].sort();
}

/** Every declared type and what it refers to, as OpenAPI component schemas, in a stable order. */
export function generateResponseSchemas(): Record<string, unknown> {
  const config = {
    ...DEFAULT_CONFIG,
    path: path.join(root, 'supabase/functions/_shared/schemas/*.ts'),
    tsconfig: path.join(root, 'tsconfig.json'),
    skipTypeCheck: true,
    expose: 'export' as const,
    topRef: false,
    additionalProperties: false,
  };
  const program = createProgram(config);
  const parser = createParser(program, config, (chain) => chain.addNodeParser(new ZodComponentParser()));
  const formatter = createFormatter(config, (chain) => chain.addTypeFormatter(new ZodComponentFormatter()));
  const generator = new SchemaGenerator(program, parser, formatter, config);
  const schemas: Record<string, unknown> = {};
  for (const name of declaredResponseTypes()) {
    const { $schema: _draft, definitions, ...schema } = generator.createSchema(name) as Record<string, unknown>;
    schemas[name] = schema;
    Object.assign(schemas, definitions ?? {});
  }
  const sorted = Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b)));
  // The generator points at #/definitions; in the document they live in #/components/schemas.
  return JSON.parse(
    JSON.stringify(sorted)
      .replaceAll('"#/definitions/', '"#/components/schemas/')
      .replace(/\{"x-zod-component":"(\w+)"\}/g, '{"$ref":"#/components/schemas/$1"}'),
  );
}

export function responseSchemasFileText(): string {
  return `${JSON.stringify(generateResponseSchemas(), null, 2)}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(RESPONSE_SCHEMAS_FILE, responseSchemasFileText());
  console.log(`Wrote ${path.relative(root, RESPONSE_SCHEMAS_FILE)} (${declaredResponseTypes().length} response types)`);
}
