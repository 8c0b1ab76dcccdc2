// The tests a visibility rule may put an item to, by kind (docs/templates.md, "Logic"). No zod:
// the editor offers them and templates.ts checks rules with them; the database's copy is
// private.condition_ops_for.
import type { ItemKind, TemplateItem } from './templates.ts';
import { isScored } from './template-items.ts';

export const CONDITION_OPS = [
  'equals',
  'not_equals',
  'one_of',
  'none_of',
  'less_than',
  'greater_than',
  'between',
  'failed',
  'answered',
  'not_answered',
] as const;

export const RULE_MATCHES = ['all', 'any'] as const;
export const MAX_CONDITIONS = 10;

/**
 * The tests an item of each kind can be put to. Photo items have none: their answer is a photo
 * that arrives separately, and visibility depends on answers only.
 */
const OPS_BY_KIND: Record<ItemKind, readonly (typeof CONDITION_OPS)[number][]> = {
  pass_fail: ['equals', 'not_equals', 'one_of', 'none_of', 'failed', 'answered', 'not_answered'],
  yes_no: ['equals', 'not_equals', 'failed', 'answered', 'not_answered'],
  number: ['equals', 'not_equals', 'less_than', 'greater_than', 'between', 'failed', 'answered', 'not_answered'],
  text: ['answered', 'not_answered'],
  single_choice: ['equals', 'not_equals', 'one_of', 'none_of', 'failed', 'answered', 'not_answered'],
  multi_choice: ['one_of', 'none_of', 'failed', 'answered', 'not_answered'],
  date: ['answered', 'not_answered'],
  photo: [],
  signature: ['answered', 'not_answered'],
};

/** The tests a rule may put `item` to: its kind's, with "failed" only when the item is scored. */
export function conditionOpsFor(item: TemplateItem): (typeof CONDITION_OPS)[number][] {
  return OPS_BY_KIND[item.kind].filter((op) => op !== 'failed' || isScored(item));
}
