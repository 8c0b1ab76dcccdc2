// The run page's handling of `answers_saved` (docs/realtime.md; web/src/features/inspections/
// utils/answers-saved-event.ts and live-answers.ts): which payloads it accepts (the same the
// shared zod schema accepts), which answers of a batch it stores (not those whose version it holds already: its own save), and
// which items it marks as changed elsewhere (only those the user is editing, saved by someone else).
import { describe, expect, it } from 'vitest';
import { type AnswerEvent, answersSavedEventSchema } from '../../supabase/functions/_shared/schemas/answers';
import { answersOfEvent } from '../../web/src/features/inspections/utils/answers-saved-event';
import { takeSavedAnswers } from '../../web/src/features/inspections/utils/live-answers';
import type { Answer } from '../../web/src/features/inspections/types';

const INSPECTION = '6f1c2a4e-8d3b-4c5a-9e7f-0a1b2c3d4e5f';
const ME = 'user-me';
const COLLEAGUE = 'user-colleague';

function event(itemKey: string, value: unknown, version: number, by = COLLEAGUE): AnswerEvent {
  return { item_key: itemKey, value, note: null, failed: null, answered_by: by, answered_at: '2026-11-26T10:00:00.000Z', version };
}

function held(itemKey: string, value: unknown, version: number, by = ME, name = 'Me'): Answer {
  return { ...event(itemKey, value, version, by), answered_by_name: name };
}

const context = (answers: Answer[], editing: string[] = []) => ({
  held: answers,
  userId: ME,
  names: new Map([[COLLEAGUE, 'Cleo Colleague']]),
  isEditing: (key: string) => editing.includes(key),
  now: 1000,
});

describe('answers_saved on the run page', () => {
  it('accepts a batch for this inspection, as the shared schema does, and nothing else', () => {
    const payload = { inspection_id: INSPECTION, answers: [event('floor', 'pass', 2), event('temp', 4, 1)], id: 'message-id' };
    expect(answersOfEvent(payload, INSPECTION)).toEqual(payload.answers);
    expect(answersSavedEventSchema.safeParse(payload).success).toBe(true);

    expect(answersOfEvent(payload, 'another-inspection'), 'another inspection').toBeNull();
    expect(answersOfEvent({ ...payload, answers: 'floor' }, INSPECTION), 'answers not a list').toBeNull();
    expect(answersOfEvent({ ...payload, answers: [{ item_key: 'floor', value: 'pass' }] }, INSPECTION), 'an answer without a version').toBeNull();
    expect(answersOfEvent({ inspection_id: INSPECTION, item_key: 'floor', version: 1 }, INSPECTION), 'the old one-answer event').toBeNull();
  });

  it('stores the answers it does not hold, and skips its own save by version', () => {
    const mine = held('floor', 'pass', 2);
    const { fresh, changedElsewhere } = takeSavedAnswers(
      [event('floor', 'pass', 2, ME), event('temp', 4, 1), event('remarks', 'Mopped', 3)],
      context([mine, held('remarks', 'Dusty', 2, COLLEAGUE, 'Cleo C.')]),
    );
    expect(fresh.map((a) => [a.item_key, a.value, a.version])).toEqual([['temp', 4, 1], ['remarks', 'Mopped', 3]]);
    // The name comes from presence, else from the answer held when the same person saved it.
    expect(fresh.map((a) => a.answered_by_name)).toEqual(['Cleo Colleague', 'Cleo Colleague']);
    expect(changedElsewhere.size).toBe(0);
  });

  it('leaves out a version older than one it holds or has just taken', () => {
    const { fresh } = takeSavedAnswers(
      [event('floor', 'fail', 1), event('temp', 5, 3), event('temp', 3, 2)],
      context([held('floor', 'pass', 2)]),
    );
    expect(fresh.map((a) => [a.item_key, a.version])).toEqual([['temp', 3]]);
  });

  it('marks only the items the user is editing that someone else saved as changed elsewhere', () => {
    const { changedElsewhere } = takeSavedAnswers(
      [event('floor', 'fail', 3), event('temp', 4, 1), event('remarks', 'Mine from another tab', 2, ME)],
      context([held('floor', 'pass', 2)], ['floor', 'remarks']),
    );
    expect([...changedElsewhere]).toEqual([['floor', { name: 'Cleo Colleague', at: 1000 }]]);
  });

  it('says "Someone" when it cannot name who saved', () => {
    const { changedElsewhere } = takeSavedAnswers([event('floor', 'fail', 1, 'user-unknown')], context([], ['floor']));
    expect(changedElsewhere.get('floor')?.name).toBe('Someone');
  });
});
