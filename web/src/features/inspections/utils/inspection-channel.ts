import type { AnswerEvent } from '@schemas/answers';
import { watchPrivateChannel, type PrivateChannelListener, type PrivateChannelWatch } from '@/lib/private-channel';
import { answersOfEvent, isObject } from './answers-saved-event';

/** For the run page's live hook, which loads it with the channel rather than on the first load. */
export { takeSavedAnswers } from './live-answers';

export interface InspectionUpdatedEvent {
  id: string;
  status: string;
  score: number | null;
  max_score: number | null;
  failed_count: number;
  version: number;
}

export interface AttachmentChangedEvent {
  id: string;
  item_key: string;
  action: 'created' | 'confirmed' | 'deleted';
}

/** What a tab shares on the inspection's channel: who it is and which item it is on. */
export interface InspectionPresence {
  user_id: string;
  display_name: string;
  item_key: string | null;
}

/** One broadcast on `inspection:<id>`, by its event name. */
export type InspectionEvent =
  /** The answers one statement saved (a batch), in the order written. */
  | { event: 'answers_saved'; answers: AnswerEvent[] }
  | { event: 'inspection_updated'; update: InspectionUpdatedEvent }
  | { event: 'attachment_changed'; change: AttachmentChangedEvent };

/** `onRefused` may mean the inspection is gone, or the user was removed from its organization. */
export type InspectionChannelListener = PrivateChannelListener<InspectionEvent, InspectionPresence>;

function parseEvent(event: string, payload: unknown, inspectionId: string): InspectionEvent | null {
  if (!isObject(payload)) return null;
  if (event === 'answers_saved') {
    const answers = answersOfEvent(payload, inspectionId);
    return answers ? { event, answers } : null;
  }
  if (event === 'inspection_updated' && payload.id === inspectionId) {
    return { event, update: payload as unknown as InspectionUpdatedEvent };
  }
  if (event === 'attachment_changed' && typeof payload.item_key === 'string') {
    return { event, change: payload as unknown as AttachmentChangedEvent };
  }
  return null;
}

function parsePresence(meta: unknown): InspectionPresence | null {
  if (!isObject(meta) || typeof meta.user_id !== 'string' || typeof meta.display_name !== 'string') return null;
  return { user_id: meta.user_id, display_name: meta.display_name, item_key: typeof meta.item_key === 'string' ? meta.item_key : null };
}

/** Listens to the private topic `inspection:<id>` as `userId`, with this tab's presence (which item it is on). */
export function watchInspectionChannel(
  inspectionId: string,
  userId: string,
  listener: InspectionChannelListener,
): PrivateChannelWatch<InspectionPresence> {
  const topic = {
    name: `inspection:${inspectionId}`,
    parseEvent: (event: string, payload: unknown) => parseEvent(event, payload, inspectionId),
    parsePresence,
  };
  return watchPrivateChannel(topic, userId, listener);
}
