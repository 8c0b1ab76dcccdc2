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

const passFailWords: Record<string, string> = { pass: 'Pass', fail: 'Fail', na: 'N/A' };

/** A value in words, for "Ada saved: …". */
export function describeValue(item: TemplateItem, value: unknown): string {
  if (value === null || value === undefined) return 'no answer';
  switch (item.kind) {
    case 'pass_fail':
      return passFailWords[String(value)] ?? String(value);
    case 'yes_no':
      return value === 'yes' ? 'Yes' : 'No';
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
