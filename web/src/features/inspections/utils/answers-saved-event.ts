import type { AnswerEvent } from '@schemas/answers';

// Read only by the lazily loaded inspection channel, so the run page's first load does not carry it.

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** What the run page reads of an answer; answersSavedEventSchema (schemas/answers.ts) describes it whole, without zod here. */
function isAnswerEvent(value: unknown): value is AnswerEvent {
  return isObject(value) && typeof value.item_key === 'string' && Number.isInteger(value.version) && typeof value.answered_at === 'string';
}

/** The answers of an `answers_saved` payload for this inspection, or null when it is not one. */
export function answersOfEvent(payload: unknown, inspectionId: string): AnswerEvent[] | null {
  if (!isObject(payload) || payload.inspection_id !== inspectionId || !Array.isArray(payload.answers)) return null;
  return payload.answers.every(isAnswerEvent) ? payload.answers : null;
}
