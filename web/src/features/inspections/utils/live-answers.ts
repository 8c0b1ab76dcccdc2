import type { AnswerEvent } from '@schemas/answers';
import type { Answer } from '../types';

/** Someone else's save of an item this tab is editing. */
export interface ChangedElsewhere {
  name: string;
  at: number;
}

function isObject(value: unknown): value is Record<string, unknown> {
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

interface Context {
  /** The answers this tab holds (the cached inspection's). */
  held: Answer[];
  userId: string;
  /** Display names by user id, from presence. */
  names: ReadonlyMap<string, string>;
  /** Whether the user is editing an item (focused on it, or a change of theirs is not saved yet). */
  isEditing: (itemKey: string) => boolean;
  now: number;
}

/**
 * What a batch of saved answers changes on this tab: the answers it does not hold yet (an answer
 * whose version it already holds is its own save, stored when the save returned), and the items
 * the user is editing that someone else just saved.
 */
export function takeSavedAnswers(events: AnswerEvent[], { held, userId, names, isEditing, now }: Context) {
  const known = new Map(held.map((answer) => [answer.item_key, answer]));
  const fresh: Answer[] = [];
  const changedElsewhere = new Map<string, ChangedElsewhere>();
  for (const event of events) {
    const current = known.get(event.item_key);
    if (current && current.version >= event.version) continue;
    const name =
      (event.answered_by && names.get(event.answered_by)) ??
      (current?.answered_by === event.answered_by ? current?.answered_by_name : null) ??
      null;
    const answer: Answer = {
      item_key: event.item_key,
      value: event.value,
      note: event.note,
      failed: event.failed,
      answered_by: event.answered_by,
      answered_by_name: name,
      answered_at: event.answered_at,
      version: event.version,
    };
    fresh.push(answer);
    known.set(event.item_key, answer);
    if (event.answered_by !== userId && isEditing(event.item_key)) {
      changedElsewhere.set(event.item_key, { name: name ?? 'Someone', at: now });
    }
  }
  return { fresh, changedElsewhere };
}
