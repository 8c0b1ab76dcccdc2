import { answerValueSchemaFor, type TemplateItem } from '@schemas/templates';

/** Why `value` can't be saved for `item` (the message the API would give), or null. Loaded on demand (answer-values.ts). */
export function answerValueProblem(item: TemplateItem, value: unknown): string | null {
  const result = answerValueSchemaFor(item).safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Check this answer.');
}
