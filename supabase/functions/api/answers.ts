// Answers: `PUT /orgs/{org}/inspections/{id}/answers` saves up to 100 answers in one transaction,
// all or nothing. Every base_version is checked against the rows as the previous batch left them
// (a mismatch is stale_version with the current rows), then each value against its item's kind in
// the pinned template version, then one statement writes the batch. Batches on one inspection run
// one after another: the write locks the inspection and stops if what the batch was checked
// against changed since it was read, and the batch is then checked again under the lock. The
// database repeats the value and state rules and keeps the inspection's score (the triggers on
// public.answers in supabase/schema.sql).
import { z } from 'zod';
import postgres from 'postgres';
import { runAsCaller, type Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { inline } from '../_shared/sql-literal.ts';
import { fieldErrorsOf, route } from '../_shared/http.ts';
import { type Answer, answersBatchSchema, type AnswersSaved, answersSavedSchema } from '../_shared/schemas/answers.ts';
import { idSchema, type Role } from '../_shared/schemas/common.ts';
import type { FieldError } from '../_shared/schemas/errors.ts';
import { canFillInspection, INSPECTION_FILLERS } from '../_shared/schemas/inspections.ts';
import { answerValueSchemaFor, itemsOf, type TemplateDefinition, type TemplateItem } from '../_shared/schemas/templates.ts';
import { iso, requireRole, roleAllowed, roleStatement, userIdOf } from './access.ts';
import {
  type AnswerToSave,
  CHECKED_INSPECTION_COLUMNS,
  currentAnswersStatement,
  lockInspectionStatement,
  saveStatements,
} from './answer-statements.ts';

const answersParams = z.strictObject({ org: idSchema, id: idSchema });

interface LockedInspection {
  status: string;
  status_label: string;
  assignee_id: string | null;
  definition: TemplateDefinition;
}

/** An answers row with its author's name, as postgres.js returns it. */
export interface AnswerRow extends Omit<Answer, 'answered_at'> {
  answered_at: Date;
}

export function answerOf(row: AnswerRow): Answer {
  return {
    item_key: row.item_key,
    value: row.value ?? null,
    note: row.note,
    failed: row.failed,
    answered_by: row.answered_by,
    answered_by_name: row.answered_by_name,
    answered_at: iso(row.answered_at),
    version: row.version,
  };
}

/**
 * The inspection, locked until the transaction ends, with its pinned version's definition; 404
 * unless it is in this organization. Without bind parameters, so that it goes in the same round
 * trip as the statements around it (sql-literal.ts).
 */
async function lockInspection(tx: Tx, orgId: string, id: string): Promise<LockedInspection> {
  const [row] = await tx.unsafe<LockedInspection[]>(lockInspectionStatement(orgId, id).text);
  if (!row) throw ApiError.notFound('inspection');
  return row;
}

type AnswersBatch = z.infer<typeof answersBatchSchema>;
type TotalsRow = { id: string; score: string; max_score: string; failed_count: number; version: number };

/**
 * The checks of a batch against the inspection and its answers as read, in the order the caller
 * meets them (403 assignee, 409 state, 422 values, 409 stale): the batch's rows to write, or the
 * error that refuses it.
 */
function prepareBatch(
  role: Role,
  userId: string | null,
  inspection: LockedInspection,
  currentRows: AnswerRow[],
  body: AnswersBatch,
): AnswerToSave[] {
  if (!canFillInspection(role, userId, inspection)) throw ApiError.forbidden('This inspection is assigned to someone else.');
  if (inspection.status !== 'in_progress') throw ApiError.invalidTransition(inspection.status_label, 'answered');

  // Each value against its item in the pinned version; every problem of the batch at once.
  const items = new Map<string, TemplateItem>(itemsOf(inspection.definition).map((item) => [item.key, item]));
  const errors: FieldError[] = [];
  const values = body.answers.map((answer, i) => {
    const item = items.get(answer.item_key);
    if (!item) {
      errors.push({ field: `answers.${i}.item_key`, message: "This item is not in the inspection's template." });
      return null;
    }
    const parsed = answerValueSchemaFor(item).safeParse(answer.value);
    if (parsed.success) return parsed.data;
    // A signature's signer or image is still the answer's value, as the form shows it.
    const messages = new Set(fieldErrorsOf(parsed.error).map((e) => e.message));
    for (const message of messages) errors.push({ field: `answers.${i}.value`, message });
    return null;
  });
  if (errors.length > 0) throw ApiError.validation(errors);

  const current = new Map(currentRows.map((row) => [row.item_key, row]));
  const stale = body.answers.filter((answer) => (current.get(answer.item_key)?.version ?? null) !== answer.base_version);
  if (stale.length > 0) {
    throw ApiError.staleVersion(stale.flatMap((answer) => {
      const row = current.get(answer.item_key);
      return row ? [answerOf(row)] : [];
    }));
  }

  // An absent note keeps the current one.
  return body.answers.map((answer, i) => ({
    item_key: answer.item_key,
    value: values[i],
    note: answer.note === undefined ? current.get(answer.item_key)?.note ?? null : answer.note,
    version: current.get(answer.item_key)?.version ?? null,
  }));
}

function savedOf(body: AnswersBatch, saved: AnswerRow[], totals: TotalsRow): AnswersSaved {
  const byKey = new Map(saved.map((row) => [row.item_key, row]));
  return {
    answers: body.answers.map((answer) => answerOf(byKey.get(answer.item_key)!)),
    inspection: {
      id: totals.id,
      score: Number(totals.score),
      max_score: Number(totals.max_score),
      failed_count: totals.failed_count,
      version: totals.version,
    },
  };
}

/** SQLSTATE of private.stop_if_changed: what the batch was checked against changed meanwhile. */
const CHANGED_SINCE_READ = 'FC409';

export const saveAnswers = route({
  method: 'PUT',
  response: answersSavedSchema,
  path: '/orgs/:org/inspections/:id/answers',
  params: answersParams,
  body: answersBatchSchema,
  handler: async ({ principal, params, body, db, read }): Promise<AnswersSaved> => {
    const userId = userIdOf(principal);
    const keys = body.answers.map((answer) => answer.item_key);
    const currentAnswers = currentAnswersStatement(params.id, keys);

    // Two round trips (issue 15): read what the batch is checked against, then write it in one
    // message (one implicit transaction) that first locks the inspection and stops if anything
    // it was checked against changed since: its state, its assignee, a version of the batch's
    // answers. Refusals come from the first read, a consistent moment.
    const [roleRows, [inspectionRow], currentRows] = await read([
      roleStatement(params.org),
      inline`
        ${CHECKED_INSPECTION_COLUMNS}
        from public.inspections l join public.template_versions v on v.id = l.template_version_id
        where l.org_id = ${params.org} and l.id = ${params.id}
      `,
      currentAnswers,
    ]);
    const role = roleAllowed(roleRows, INSPECTION_FILLERS);
    if (!inspectionRow) throw ApiError.notFound('inspection');
    const inspection = inspectionRow as LockedInspection;
    const batch = prepareBatch(role, userId, inspection, currentRows as AnswerRow[], body);
    const versions = JSON.stringify(batch.map(({ item_key, version }) => ({ item_key, version })));
    try {
      const [, , saved, [totals]] = await runAsCaller(principal, [
        inline`select private.stop_if_changed(coalesce((
          select l.status <> 'in_progress' or l.assignee_id is distinct from ${inspection.assignee_id}::uuid
          from private.lock_inspection(${params.id}) l where l.org_id = ${params.org}), true))`,
        // A statement of its own, so that it reads the answers after the lock above is held.
        inline`select private.stop_if_changed(exists (
          select 1 from jsonb_to_recordset(${versions}::jsonb) as e (item_key text, version integer)
          left join public.answers a on a.inspection_id = ${params.id} and a.item_key = e.item_key
          where a.version is distinct from e.version))`,
        ...saveStatements(params, batch),
      ]);
      return savedOf(body, saved as AnswerRow[], totals as TotalsRow);
    } catch (error) {
      if (!(error instanceof postgres.PostgresError && error.code === CHANGED_SINCE_READ)) throw error;
    }

    // Someone else saved or moved the inspection in between: the careful way, under the lock,
    // where every check sees the rows as the previous batch left them.
    return await db(async (tx) => {
      const [lockedRole, locked, lockedRows] = await Promise.all([
        requireRole(tx, params.org, INSPECTION_FILLERS),
        lockInspection(tx, params.org, params.id),
        tx.unsafe<AnswerRow[]>(currentAnswers.text),
      ]);
      const lockedBatch = prepareBatch(lockedRole, userId, locked, lockedRows, body);
      const [save, totals] = saveStatements(params, lockedBatch);
      const [saved, [totalsRow]] = await Promise.all([tx.unsafe<AnswerRow[]>(save.text), tx.unsafe<TotalsRow[]>(totals.text)]);
      return savedOf(body, saved, totalsRow);
    });
  },
});
