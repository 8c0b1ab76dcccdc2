import type { AnswerEvent } from '@schemas/answers';
import type { Answer } from '../types';

/** Someone else's save of an item this tab is editing. */
export interface ChangedElsewhere {
  name: string;
  at: number;
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
    const answer: Answer = { ...event, answered_by_name: name };
    fresh.push(answer);
    known.set(event.item_key, answer);
    if (event.answered_by !== userId && isEditing(event.item_key)) {
      changedElsewhere.set(event.item_key, { name: name ?? 'Someone', at: now });
    }
  }
  return { fresh, changedElsewhere };
}
