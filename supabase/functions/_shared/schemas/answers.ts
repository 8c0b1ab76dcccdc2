// Answers (`PUT /orgs/{org}/inspections/{id}/answers`): a batch of up to 100 answers saved in one
// transaction, each with the row version the client last saw (optimistic concurrency). The value
// is checked against its item's kind by answerValueSchemaFor (templates.ts) once the inspection's
// pinned version is known; the database repeats every rule (private.answer_value_problem).
import { z } from 'zod';
import { optionalTextSchema } from './common.ts';
import { keySchema } from './templates.ts';

export const MAX_ANSWERS_PER_BATCH = 100;
export const NOTE_MAX_LENGTH = 2000;

export const noteSchema = optionalTextSchema(NOTE_MAX_LENGTH);

export const answerInputSchema = z.strictObject({
  item_key: keySchema,
  // Any JSON here; its shape depends on the item and is checked against it by the route.
  value: z.unknown().refine((value) => value !== undefined, { error: 'Send a value, or null to clear the answer.' }),
  /** Absent keeps the current note; null or empty clears it. */
  note: noteSchema.optional(),
  /** The answer's version the client last saw; null when it saw no answer for the item. */
  base_version: z
    .number({ error: 'Send the version you last saw, or null for a new answer.' })
    .int({ error: 'Send the version you last saw, or null for a new answer.' })
    .min(1, { error: 'Send the version you last saw, or null for a new answer.' })
    .nullable(),
});

export const answersBatchSchema = z.strictObject({
  answers: z
    .array(answerInputSchema, { error: 'Send a list of answers.' })
    .min(1, { error: 'Send at least one answer.' })
    .max(MAX_ANSWERS_PER_BATCH, { error: `Send at most ${MAX_ANSWERS_PER_BATCH} answers at a time.` })
    .superRefine((answers, ctx) => {
      const seen = new Set<string>();
      answers.forEach((answer, i) => {
        if (seen.has(answer.item_key)) {
          ctx.addIssue({ code: 'custom', path: [i, 'item_key'], message: 'Answer each item once per request.' });
        }
        seen.add(answer.item_key);
      });
    }),
});

export type AnswerInput = z.infer<typeof answerInputSchema>;
export type AnswersBatch = z.infer<typeof answersBatchSchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const answerSchema = z.object({
  item_key: z.string(),
  value: z.unknown(),
  note: z.string().nullable(),
  failed: z.boolean().nullable().describe('Null when the item is not scored or not answered.'),
  answered_by: z.string().nullable(),
  answered_by_name: z.string().nullable(),
  answered_at: z.string(),
  version: z.number(),
}).meta({
  id: 'Answer',
  description: 'One saved answer as the API returns it (and, without answered_by_name, as answers_saved carries it).',
});

export const inspectionScoreSchema = z.object({
  id: z.string(),
  score: z.number(),
  max_score: z.number(),
  failed_count: z.number(),
  version: z.number(),
}).meta({ id: 'InspectionScore', description: "The inspection's totals after a save." });

export const answersSavedSchema = z.object({
  answers: z.array(answerSchema),
  inspection: inspectionScoreSchema,
}).meta({ id: 'AnswersSaved' });

export type Answer = z.output<typeof answerSchema>;
export type InspectionScore = z.output<typeof inspectionScoreSchema>;
export type AnswersSaved = z.output<typeof answersSavedSchema>;

/** One answer of `answers_saved`: the API's Answer without answered_by_name. */
export const answerEventSchema = z.object({
  item_key: z.string(),
  value: z.unknown(),
  note: z.string().nullable(),
  failed: z.boolean().nullable(),
  answered_by: z.string().nullable(),
  /** ISO 8601 UTC with milliseconds, as the API writes it. */
  answered_at: z.string(),
  version: z.number().int().min(1),
});

/**
 * The `answers_saved` event on `inspection:<id>` (docs/realtime.md): the answers one statement
 * saved, in the order it wrote them (for `PUT …/answers`: the batch's changed answers, then its
 * new ones in the request's order); a batch too large for one Realtime message comes as several.
 * Realtime adds the message's own `id`, which is no answer's; unknown keys are left out.
 */
export const answersSavedEventSchema = z.object({
  inspection_id: z.string(),
  answers: z.array(answerEventSchema).min(1),
});

export type AnswerEvent = Omit<Answer, 'answered_by_name'>;
