import type { TemplateItem } from '@schemas/templates';
import type { Answer, Attachment } from '../types';

type AnswerCheck = (item: TemplateItem, value: unknown) => string | null;
let loadedCheck: AnswerCheck | null = null;
let loadingCheck: Promise<AnswerCheck> | null = null;

/**
 * Loads the answer checks (the api's own zod schemas, and zod): not part of the run page's first
 * load (docs/offline.md, "Weight"); the page asks for them once it is shown or first touched.
 */
export function loadAnswerChecks(): Promise<AnswerCheck> {
  loadingCheck ??= import('./answer-checks').then(({ answerValueProblem: check }) => (loadedCheck = check));
  return loadingCheck;
}

/**
 * Why `value` can't be saved for `item` (the message the API would give), or null. Before the
 * checks have loaded (the first moments of a first visit), null: the api checks every answer
 * too, and a refusal is shown on its item.
 */
export function answerValueProblem(item: TemplateItem, value: unknown): string | null {
  if (loadedCheck) return loadedCheck(item, value);
  void loadAnswerChecks().catch(() => undefined);
  return null;
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
