// The four routes of a photo kind, made once for both: inspection photos (attachments.ts) and the
// photos that prove an action's fix (action-attachments.ts). `POST …/attachments` checks a photo in
// and hands out a signed upload URL, `POST …/{att}/confirm` checks what arrived (size, magic bytes,
// pixels), `GET …/{att}/url` signs a download and `DELETE …/{att}` removes it. What differs between
// the kinds is only the table, the parent the photos belong to (an inspection, an action) and who
// may change photos there and when (`EvidenceKind`); the checks and Storage calls are evidence.ts's.
// A user's Storage calls carry their own token: Storage signs an upload URL only for the path of a
// pending photo of the caller (the storage.objects policies in supabase/schema.sql), so the row is
// committed first. An API key's carry the service role, for the object of a row RLS let the key
// write (evidence.ts storageCallerOf).
import { z } from 'zod';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { type Route, route } from '../_shared/http.ts';
import { type AttachmentUrl, attachmentUrlSchema, type PhotoUpload } from '../_shared/schemas/attachments.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import { requireRole, userIdOf } from './access.ts';
import {
  checkUploadedPhoto,
  photoPath,
  type PhotoRow,
  type PhotoTable,
  removePhoto,
  requireAcceptablePhoto,
  signDownload,
  signUpload,
  storageCallerOf,
} from './evidence.ts';

/** What a photo is checked in with: its declared type and size, and what else the kind needs. */
type CheckIn = { content_type: string; byte_size: number };

type ParentParams = { org: string; id: string };
type PhotoParams = ParentParams & { att: string };

/** A photo kind: its table, its parent, who may change its photos, and its answers. */
export interface EvidenceKind<Row extends PhotoRow, Body extends CheckIn, Answer> {
  table: PhotoTable;
  /** The parent's collection in the path (`inspections`) and the column naming it in a row (`inspection_id`). */
  parent: { path: string; column: string };
  /** The check-in's body. */
  body: z.ZodType<Body>;
  /** A photo as the api answers it, and the check-in's answer (the photo and where to upload it). */
  answer: z.ZodType<Answer>;
  upload: z.ZodType<{ attachment: Answer; upload: PhotoUpload }>;
  answerOf: (row: Row) => Answer;
  /**
   * The caller's standing on the parent: 404 outside the organization or for another
   * organization's parent, 403 for those who may not change its photos. Early, so the caller gets
   * the right error before Storage is asked anything; SQL decides again. Returns the check that
   * photos may change now (409 once the parent moved on), run after the photo's own checks.
   */
  requireChanger: (tx: Tx, userId: string | null, orgId: string, parentId: string) => Promise<() => void>;
  /** Where a new photo's object goes (a folder of the bucket) and the row's own columns. */
  placeOf: (params: ParentParams, body: Body) => { folder: string; columns: Record<string, string> };
}

/** The routes of `kind`, under `/orgs/:org/<parent>/:id/attachments`. */
export function evidenceRoutes<Row extends PhotoRow, Body extends CheckIn, Answer>(
  kind: EvidenceKind<Row, Body, Answer>,
): { create: Route; confirm: Route; url: Route; remove: Route } {
  const base = `/orgs/:org/${kind.parent.path}/:id/attachments`;
  const parentParams = z.strictObject({ org: idSchema, id: idSchema });
  const photoParams = z.strictObject({ org: idSchema, id: idSchema, att: idSchema });
  const rows = (tx: Tx) => tx('public.' + kind.table);

  async function readPhoto(tx: Tx, params: PhotoParams): Promise<Row> {
    const [row] = await tx<Row[]>`
      select * from ${rows(tx)}
      where org_id = ${params.org} and ${tx(kind.parent.column)} = ${params.id} and id = ${params.att}
    `;
    if (!row) throw ApiError.notFound('photo');
    return row;
  }

  const create = route({
    method: 'POST',
    response: kind.upload,
    path: base,
    params: parentParams,
    body: kind.body,
    status: 201,
    // Storage must see the committed row when it checks the caller may upload to its path.
    commitsOwnWork: true,
    handler: async ({ req, principal, params, body, db }) => {
      const userId = userIdOf(principal);
      const row = await db(async (tx) => {
        const requireChangeable = await kind.requireChanger(tx, userId, params.org, params.id);
        const contentType = requireAcceptablePhoto(body);
        requireChangeable();
        const { folder, columns } = kind.placeOf(params, body);
        const [inserted] = await tx<Row[]>`
          insert into ${rows(tx)} ${tx({
            org_id: params.org,
            [kind.parent.column]: params.id,
            ...columns,
            object_path: photoPath(folder, contentType),
            content_type: contentType,
            byte_size: body.byte_size,
          })}
          returning *
        `;
        return inserted;
      });
      try {
        return { attachment: kind.answerOf(row), upload: await signUpload(storageCallerOf(req, principal), row.object_path) };
      } catch (error) {
        await db((tx) => tx`delete from ${rows(tx)} where id = ${row.id}`);
        throw error;
      }
    },
  });

  const confirm = route({
    method: 'POST',
    response: kind.answer,
    path: `${base}/:att/confirm`,
    params: photoParams,
    // Storage is read between the checks and the update; no transaction is held open meanwhile.
    commitsOwnWork: true,
    handler: async ({ req, principal, params, db }) => {
      const userId = userIdOf(principal);
      const row = await db(async (tx) => {
        const requireChangeable = await kind.requireChanger(tx, userId, params.org, params.id);
        const found = await readPhoto(tx, params);
        if (found.confirmed_at === null) requireChangeable();
        return found;
      });
      if (row.confirmed_at !== null) return kind.answerOf(row);
      await checkUploadedPhoto(storageCallerOf(req, principal), db, kind.table, row);
      return await db(async (tx) => {
        const [confirmed] = await tx<Row[]>`update ${rows(tx)} set confirmed_at = now() where id = ${row.id} returning *`;
        if (!confirmed) throw ApiError.forbidden();
        return kind.answerOf(confirmed);
      });
    },
  });

  const url = route({
    method: 'GET',
    response: attachmentUrlSchema,
    path: `${base}/:att/url`,
    params: photoParams,
    handler: async ({ req, principal, params, db }): Promise<AttachmentUrl> => {
      const row = await db(async (tx) => {
        await requireRole(tx, params.org);
        return await readPhoto(tx, params);
      });
      // A pending photo may not be there yet, and is not evidence until it was checked.
      if (row.confirmed_at === null) throw ApiError.notFound('photo');
      return await signDownload(storageCallerOf(req, principal), row.object_path);
    },
  });

  const remove = route({
    method: 'DELETE',
    empty: true,
    path: `${base}/:att`,
    params: photoParams,
    handler: async ({ req, principal, params, db }): Promise<undefined> => {
      const userId = userIdOf(principal);
      await removePhoto(storageCallerOf(req, principal), db, kind.table, async (tx) => {
        const requireChangeable = await kind.requireChanger(tx, userId, params.org, params.id);
        const row = await readPhoto(tx, params);
        requireChangeable();
        return row;
      });
      return undefined;
    },
  });

  return { create, confirm, url, remove };
}
