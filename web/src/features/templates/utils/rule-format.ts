// Visibility rules in plain words (docs/templates.md, "Logic"): "Show when “Is there a kitchen?”
// is Yes". Shared by the rule editor, the read-only view and the preview.
import { answerText } from '@schemas/answer-text';
import type { ConditionOp, ItemKind, VisibilityCondition, VisibilityRule } from '@schemas/templates';

/** What an item needs to be named and offered in a rule: the draft's or the definition's. */
export interface RuleItem {
  key: string;
  kind: ItemKind;
  label: string;
}

const OP_WORDS: Record<ConditionOp, string> = {
  equals: 'is',
  not_equals: 'is not',
  one_of: 'is one of',
  none_of: 'is none of',
  less_than: 'is less than',
  greater_than: 'is more than',
  between: 'is between',
  failed: 'fails',
  answered: 'is answered',
  not_answered: 'is not answered',
};

/** A test in words for an item of `kind`: a multiple choice "includes any of", not "is one of". */
export function opWords(op: ConditionOp, kind: ItemKind | undefined): string {
  if (kind === 'multi_choice' && op === 'one_of') return 'includes any of';
  if (kind === 'multi_choice' && op === 'none_of') return 'includes none of';
  return OP_WORDS[op];
}

/** The answers an item can be compared with, as [value, words]: pass / fail / n/a, yes / no, or its options. */
export function answerChoicesOf(item: { kind: ItemKind; options?: readonly string[] }): Array<[string, string]> {
  switch (item.kind) {
    case 'pass_fail':
      return ['pass', 'fail', 'na'].map((value) => [value, answerText(item, value)]);
    case 'yes_no':
      return ['yes', 'no'].map((value) => [value, answerText(item, value)]);
    case 'single_choice':
    case 'multi_choice':
      return (item.options ?? []).map((option) => [option, option]);
    default:
      return [];
  }
}

function answerWords(kind: ItemKind | undefined, value: string | number): string {
  if (typeof value === 'number') return String(value);
  // Other kinds' values read as they are (answerText would add a unit or sign a signature).
  return kind === 'pass_fail' || kind === 'yes_no' ? answerText({ kind }, value) : value;
}

function listWords(words: string[], joiner: 'or' | 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${joiner} ${words[words.length - 1]}`;
}

/** One condition in words: "“Fridge temperature” is between 0 and 5". */
export function conditionWords(condition: VisibilityCondition, itemOf: (key: string) => RuleItem | undefined): string {
  const item = itemOf(condition.item);
  const name = `“${item?.label.trim() || condition.item}”`;
  const test = opWords(condition.op, item?.kind);
  switch (condition.op) {
    case 'equals':
    case 'not_equals':
    case 'less_than':
    case 'greater_than':
      return `${name} ${test} ${answerWords(item?.kind, condition.value)}`;
    case 'one_of':
    case 'none_of':
      return `${name} ${test} ${listWords(condition.values.map((value) => answerWords(item?.kind, value)), 'or')}`;
    case 'between':
      return `${name} ${test} ${condition.min} and ${condition.max}`;
    default:
      return `${name} ${test}`;
  }
}

/** A rule in words: "Show when “Is there a kitchen?” is Yes and “Grade” is one of A or B". */
export function ruleWords(rule: VisibilityRule, itemOf: (key: string) => RuleItem | undefined): string {
  const parts = rule.conditions.map((condition) => conditionWords(condition, itemOf));
  return `Show when ${parts.join(rule.match === 'any' ? ' or ' : ' and ')}`;
}
