// Templates: `GET·POST /orgs/{org}/templates`, `GET·PATCH /orgs/{org}/templates/{id}`,
// `POST …/{id}/publish`, `POST …/{id}/archive`, `GET …/{id}/versions/{n}`. Every member reads
// them; owners, admins and managers build them. The database numbers versions, keeps them
// immutable and refuses edits of archived templates; these routes only choose the status code.
import { z } from 'zod';
import { containsPattern, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline } from '../_shared/sql-literal.ts';
import { route } from '../_shared/http.ts';
import { decodeCursor, pageOf } from '../_shared/pagination.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import {
  type Template,
  TEMPLATE_MANAGERS,
  templateCreateSchema,
  type TemplateDefinition,
  templateListQuerySchema,
  templateSchema,
  type TemplateStatus,
  type TemplateSummary,
  templateSummarySchema,
  templateUpdateSchema,
  type TemplateVersion,
  templateVersionSchema,
  withoutEmptyRules,
} from '../_shared/schemas/templates.ts';
import { iso, requireRole } from './access.ts';
import { orgParams } from './orgs.ts';

/** A templates row as selected below: the API's summary with timestamps still as dates. */
type TemplateRow = Omit<TemplateSummary, 'archived_at' | 'created_at' | 'updated_at'> & {
  definition?: TemplateDefinition;
  archived_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type TemplateVersionRow = Omit<TemplateVersion, 'published_at'> & { published_at: Date };

const templateParams = z.strictObject({ org: idSchema, id: idSchema });
const versionParams = templateParams.extend({
  n: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, { error: 'Use a version number: 1, 2, 3 …' })
    .transform(Number),
});

/**
 * The summary columns of `public.templates` by its own name (no alias: postgres.js builds an
 * insert only right after `insert into <table>`); the derived ones come from the database's rules.
 */
const summaryColumns = (tx: Tx) => tx`
  templates.id, templates.org_id, templates.name, templates.description, templates.status, templates.latest_version,
  templates.revision, templates.archived_at, templates.created_at, templates.updated_at,
  private.template_item_count(templates.definition) as item_count,
  private.has_unpublished_changes(templates) as has_unpublished_changes
`;
const templateColumns = (tx: Tx) => tx`${summaryColumns(tx)}, templates.definition`;

/** Versions as the API returns them; also the `template` of an inspection's detail. */
export const SELECT_TEMPLATE_VERSIONS = inline`
  select v.id, v.template_id, v.org_id, v.version, v.name, v.description, v.definition, v.published_by, v.published_at
  from public.template_versions v
`;
export const selectTemplateVersions = (tx: Tx) => tx.unsafe(SELECT_TEMPLATE_VERSIONS.text);

export function templateVersionOf(row: TemplateVersionRow): TemplateVersion {
  return { ...row, published_at: iso(row.published_at) };
}

function summaryOf(row: TemplateRow): TemplateSummary {
  return {
    id: row.id,
    org_id: row.org_id,
    name: row.name,
    description: row.description,
    status: row.status,
    latest_version: row.latest_version,
    has_unpublished_changes: row.has_unpublished_changes,
    item_count: row.item_count,
    revision: row.revision,
    archived_at: iso(row.archived_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function templateOf(row: TemplateRow): Template {
  return { ...summaryOf(row), definition: row.definition as TemplateDefinition };
}

/** The template, locked for the rest of the transaction when it is about to change. */
async function readTemplate(tx: Tx, orgId: string, id: string, { lock = false } = {}): Promise<TemplateRow> {
  const [row] = await tx<TemplateRow[]>`
    select ${templateColumns(tx)} from public.templates
    where templates.org_id = ${orgId} and templates.id = ${id}
    ${lock ? tx`for update` : tx``}
  `;
  if (!row) throw ApiError.notFound('template');
  return row;
}

/** The list's statuses: active means drafts and published ones, archived ones kept apart. */
function statusesOf(status: 'active' | TemplateStatus): TemplateStatus[] {
  return status === 'active' ? ['draft', 'published'] : [status];
}

export const listTemplates = route({
  method: 'GET',
  response: { list: templateSummarySchema },
  path: '/orgs/:org/templates',
  params: orgParams,
  query: templateListQuerySchema,
  handler: async ({ params, query, db }) => {
    const after = decodeCursor(query.cursor, ['string', 'uuid']);
    const rows = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await tx<TemplateRow[]>`
        select ${summaryColumns(tx)} from public.templates
        where templates.org_id = ${params.org} and templates.status = any(${statusesOf(query.status)}::public.template_status[])
          and ${query.q ? tx`templates.name ilike ${containsPattern(query.q)}` : tx`true`}
          and ${after ? tx`(templates.name, templates.id) > (${after[0] as string}, ${after[1] as string}::uuid)` : tx`true`}
        order by templates.name, templates.id
        limit ${query.limit + 1}
      `;
    });
    return pageOf(rows, query.limit, summaryOf, (row) => [row.name, row.id]);
  },
});

export const createTemplate = route({
  method: 'POST',
  response: templateSchema,
  path: '/orgs/:org/templates',
  params: orgParams,
  body: templateCreateSchema,
  status: 201,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, TEMPLATE_MANAGERS);
      const columns: Record<string, unknown> = { org_id: params.org, name: body.name };
      if (body.description !== undefined) columns.description = body.description;
      if (body.definition !== undefined) columns.definition = tx.json(withoutEmptyRules(body.definition));
      const [row] = await tx<TemplateRow[]>`insert into public.templates ${tx(columns)} returning ${templateColumns(tx)}`;
      return templateOf(row);
    });
  },
});

export const getTemplate = route({
  method: 'GET',
  response: templateSchema,
  path: '/orgs/:org/templates/:id',
  params: templateParams,
  handler: async ({ params, db }) => {
    return templateOf(await db((tx) => readTemplate(tx, params.org, params.id)));
  },
});

export const updateTemplate = route({
  method: 'PATCH',
  response: templateSchema,
  path: '/orgs/:org/templates/:id',
  params: templateParams,
  body: templateUpdateSchema,
  handler: async ({ params, body, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, TEMPLATE_MANAGERS);
      const current = await readTemplate(tx, params.org, params.id, { lock: true });
      if (body.base_revision !== undefined && body.base_revision !== current.revision) {
        throw ApiError.staleVersion([templateOf(current)]);
      }
      const changes: Record<string, unknown> = {};
      if (body.name !== undefined) changes.name = body.name;
      if (body.description !== undefined) changes.description = body.description;
      if (body.definition !== undefined) changes.definition = tx.json(withoutEmptyRules(body.definition));
      const [row] = await tx<TemplateRow[]>`
        update public.templates set ${tx(changes)}
        where templates.org_id = ${params.org} and templates.id = ${params.id}
        returning ${templateColumns(tx)}
      `;
      return templateOf(row);
    });
  },
});

export const publishTemplate = route({
  method: 'POST',
  response: templateSchema,
  path: '/orgs/:org/templates/:id/publish',
  params: templateParams,
  handler: async ({ params, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, TEMPLATE_MANAGERS);
      await readTemplate(tx, params.org, params.id);
      // The database copies the draft, numbers it and moves the pointer; an unchanged draft inserts nothing.
      await tx`insert into public.template_versions (template_id) values (${params.id})`;
      return templateOf(await readTemplate(tx, params.org, params.id));
    });
  },
});

export const archiveTemplate = route({
  method: 'POST',
  response: templateSchema,
  path: '/orgs/:org/templates/:id/archive',
  params: templateParams,
  handler: async ({ params, db }) => {
    return await db(async (tx) => {
      await requireRole(tx, params.org, TEMPLATE_MANAGERS);
      const current = await readTemplate(tx, params.org, params.id, { lock: true });
      // Archiving again keeps the date it was first archived.
      if (current.status === 'archived') return templateOf(current);
      const [row] = await tx<TemplateRow[]>`
        update public.templates set status = 'archived'
        where templates.org_id = ${params.org} and templates.id = ${params.id}
        returning ${templateColumns(tx)}
      `;
      return templateOf(row);
    });
  },
});

export const getTemplateVersion = route({
  method: 'GET',
  response: templateVersionSchema,
  path: '/orgs/:org/templates/:id/versions/:n',
  params: versionParams,
  handler: async ({ params, db }) => {
    const [row] = await db((tx) =>
      tx<TemplateVersionRow[]>`
        ${selectTemplateVersions(tx)}
        where v.org_id = ${params.org} and v.template_id = ${params.id} and v.version = ${params.n}
      `
    );
    if (!row) throw ApiError.notFound('template version');
    return templateVersionOf(row);
  },
});
