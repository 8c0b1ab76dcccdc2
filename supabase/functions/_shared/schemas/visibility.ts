// Which items and sections of a template show, given the answers so far (docs/templates.md,
// "Logic"). No zod, and nothing but the evaluator: the run page evaluates it on every change,
// and its first load carries no validation library (the tests a rule may use are in
// visibility-rules.ts, for the editor and the schema). The database evaluates the same rules in private.template_visibility; a
// property test (tests/api/templates/visibility-property.test.ts) holds the two to one meaning.
import type { TemplateDefinition, TemplateItem, VisibilityCondition, VisibilityRule } from './templates.ts';
import { itemFails } from './template-items.ts';

const isGiven = (value: unknown) => value !== null && value !== undefined;

/** The options an answer holds: one for a single choice, each for a multiple choice. */
function chosen(value: unknown): unknown[] {
  return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
}

/**
 * Whether one condition holds for `value`, the answer of the item it tests (null when unanswered
 * or hidden). Every test but "not answered" needs an answer: "is not Yes" does not hold for an
 * item nobody has answered yet.
 */
export function conditionHolds(condition: VisibilityCondition, item: TemplateItem | undefined, value: unknown): boolean {
  if (condition.op === 'answered') return isGiven(value);
  if (condition.op === 'not_answered') return !isGiven(value);
  if (!isGiven(value)) return false;
  switch (condition.op) {
    case 'equals':
      return typeof value === typeof condition.value && value === condition.value;
    case 'not_equals':
      return !(typeof value === typeof condition.value && value === condition.value);
    case 'one_of':
      return chosen(value).some((option) => typeof option === 'string' && condition.values.includes(option));
    case 'none_of':
      return !chosen(value).some((option) => typeof option === 'string' && condition.values.includes(option));
    case 'less_than':
      return typeof value === 'number' && value < condition.value;
    case 'greater_than':
      return typeof value === 'number' && value > condition.value;
    case 'between':
      return typeof value === 'number' && value >= condition.min && value <= condition.max;
    case 'failed':
      return item !== undefined && itemFails(item, value) === true;
  }
}

/** Whether a rule holds; no rule always does. `valueOf` gives the answer of an earlier, visible item. */
export function ruleHolds(
  rule: VisibilityRule | null | undefined,
  itemOf: (key: string) => TemplateItem | undefined,
  valueOf: (key: string) => unknown,
): boolean {
  if (!rule) return true;
  const holds = (condition: VisibilityCondition) => conditionHolds(condition, itemOf(condition.item), valueOf(condition.item));
  return rule.match === 'any' ? rule.conditions.some(holds) : rule.conditions.every(holds);
}

export interface Visibility {
  /** Sections whose rule does not hold, in definition order. */
  hiddenSections: string[];
  /** Items hidden by their own rule or their section's, in definition order. */
  hiddenItems: string[];
}

/**
 * Which sections and items are hidden for these answers. One pass in definition order: rules
 * test only earlier items, and a hidden item's answer counts as no answer for the rules after it
 * (hiding cascades), though it stays stored. `answerOf` gives an item's saved value, or
 * null / undefined when there is none.
 */
export function evaluateVisibility(definition: TemplateDefinition, answerOf: (key: string) => unknown): Visibility {
  const items = new Map<string, TemplateItem>();
  for (const section of definition.sections) for (const item of section.items) if (!items.has(item.key)) items.set(item.key, item);
  const hidden = new Set<string>();
  const hiddenSections: string[] = [];
  const hiddenItems: string[] = [];
  const itemOf = (key: string) => items.get(key);
  const valueOf = (key: string) => (hidden.has(key) ? null : (answerOf(key) ?? null));
  for (const section of definition.sections) {
    const sectionShown = ruleHolds(section.show_when, itemOf, valueOf);
    if (!sectionShown) hiddenSections.push(section.key);
    for (const item of section.items) {
      if (!sectionShown || !ruleHolds(item.show_when, itemOf, valueOf)) {
        hidden.add(item.key);
        hiddenItems.push(item.key);
      }
    }
  }
  return { hiddenSections, hiddenItems };
}
