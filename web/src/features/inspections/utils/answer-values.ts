import { answerValueSchemaFor, type TemplateItem } from '@schemas/templates';
import type { Answer, Attachment } from '../types';

/** Why `value` can't be saved for `item` (the message the API would give), or null. */
export function answerValueProblem(item: TemplateItem, value: unknown): string | null {
  const result = answerValueSchemaFor(item).safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Check this answer.');
}

/** Required-item rule of submit: a value, or for a photo item at least one confirmed photo. */
export function isAnswered(item: TemplateItem, value: unknown, attachments: Attachment[]): boolean {
  if (item.kind === 'photo') return attachments.some((attachment) => attachment.item_key === item.key && attachment.status === 'confirmed');
  return value !== null && value !== undefined;
}

export interface AnswerChoice {
  value: string;
  label: string;
}

export const passFailChoices: AnswerChoice[] = [
  { value: 'pass', label: 'Pass' },
  { value: 'fail', label: 'Fail' },
  { value: 'na', label: 'N/A' },
];
export const yesNoChoices: AnswerChoice[] = [
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

function choiceLabel(choices: AnswerChoice[], value: unknown): string {
  return choices.find((choice) => choice.value === value)?.label ?? String(value);
}

/** A value in words, for "Ada saved: …". */
export function describeValue(item: TemplateItem, value: unknown): string {
  if (value === null || value === undefined) return 'no answer';
  switch (item.kind) {
    case 'pass_fail':
      return choiceLabel(passFailChoices, value);
    case 'yes_no':
      return choiceLabel(yesNoChoices, value);
    case 'number':
      return item.unit ? `${String(value)} ${item.unit}` : String(value);
    case 'multi_choice':
      return Array.isArray(value) ? value.join(', ') : String(value);
    case 'signature': {
      const signer = (value as { signer?: unknown }).signer;
      return typeof signer === 'string' ? `signed by ${signer}` : 'a signature';
    }
    default:
      return String(value);
  }
}

/** The answers of an inspection by item key. */
export function answersByKey(answers: Answer[]): Map<string, Answer> {
  return new Map(answers.map((answer) => [answer.item_key, answer]));
}

/** Saved rows put into an inspection's answers, newest version winning. */
export function mergeAnswers(answers: Answer[], incoming: Answer[]): Answer[] {
  const byKey = answersByKey(answers);
  for (const answer of incoming) {
    const known = byKey.get(answer.item_key);
    if (!known || known.version <= answer.version) byKey.set(answer.item_key, { ...answer, answered_by_name: answer.answered_by_name ?? known?.answered_by_name ?? null });
  }
  return [...byKey.values()];
}
