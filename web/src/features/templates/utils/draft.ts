import {
  DEFAULT_WEIGHT,
  KEY_PATTERN,
  type ConditionOp,
  type ItemKind,
  type Template,
  type TemplateDefinition,
  type TemplateItem,
  type VisibilityCondition,
  type VisibilityRule,
} from '@schemas/templates';
import { numberField } from '@/lib/form-values';

/** One answer option as the editor holds it: `id` keeps its row (and focus) while its text is renamed. */
export interface DraftOption {
  id: string;
  text: string;
  fails: boolean;
}

/**
 * One condition of a rule as the editor holds it: every test's fields at once (changing the test
 * keeps them), numbers as typed. `id` keeps its row (and focus) while it is edited.
 */
export interface DraftCondition {
  id: string;
  item: string;
  op: ConditionOp | '';
  value: string;
  values: string[];
  min: string;
  max: string;
}

/** A visibility rule: show the item or section when all (or any) of its conditions hold. */
export interface DraftRule {
  match: 'all' | 'any';
  conditions: DraftCondition[];
}

/**
 * An item as the editor holds it: every kind's settings at once (switching screens keeps them),
 * and numbers as typed, so "1." or "-" can be on the way to a number.
 */
export interface DraftItem {
  key: string;
  kind: ItemKind;
  label: string;
  help: string;
  required: boolean;
  weight: string;
  failOn: '' | 'yes' | 'no';
  min: string;
  max: string;
  unit: string;
  options: DraftOption[];
  maxPhotos: string;
  rule: DraftRule | null;
}

export interface DraftSection {
  key: string;
  title: string;
  items: DraftItem[];
  rule: DraftRule | null;
}

export interface Draft {
  name: string;
  description: string;
  sections: DraftSection[];
}

let optionCounter = 0;

function optionId(): string {
  optionCounter += 1;
  return `option-${optionCounter}`;
}

export function newOption(text = '', fails = false): DraftOption {
  return { id: optionId(), text, fails };
}

export function newCondition(item = ''): DraftCondition {
  return { id: optionId(), item, op: '', value: '', values: [], min: '', max: '' };
}

function draftCondition(condition: VisibilityCondition): DraftCondition {
  const draft = newCondition(condition.item);
  draft.op = condition.op;
  if ('value' in condition) draft.value = String(condition.value);
  if ('values' in condition) draft.values = [...condition.values];
  if ('min' in condition) {
    draft.min = String(condition.min);
    draft.max = String(condition.max);
  }
  return draft;
}

function draftRule(rule: VisibilityRule | null | undefined): DraftRule | null {
  return rule ? { match: rule.match, conditions: rule.conditions.map(draftCondition) } : null;
}

// The settings of the kinds an item is not: what a new item or another kind's item starts with.
const noKindSettings: Pick<DraftItem, 'failOn' | 'min' | 'max' | 'unit' | 'options' | 'maxPhotos'> = {
  failOn: '',
  min: '',
  max: '',
  unit: '',
  options: [],
  maxPhotos: '1',
};

/** Every item of the draft by key, for the rules that test them. */
export function draftItemsByKey(sections: DraftSection[]): Map<string, DraftItem> {
  return new Map(sections.flatMap((section) => section.items.map((item) => [item.key, item] as const)));
}

function draftItem(item: TemplateItem): DraftItem {
  const base: DraftItem = {
    ...noKindSettings,
    key: item.key,
    kind: item.kind,
    label: item.label,
    help: item.help ?? '',
    required: item.required,
    weight: String(item.weight),
    rule: draftRule(item.show_when),
  };
  switch (item.kind) {
    case 'yes_no':
      return { ...base, failOn: item.fail_on ?? '' };
    case 'number':
      return { ...base, min: item.min === null ? '' : String(item.min), max: item.max === null ? '' : String(item.max), unit: item.unit ?? '' };
    case 'single_choice':
    case 'multi_choice':
      return { ...base, options: item.options.map((text) => newOption(text, item.failing_options.includes(text))) };
    case 'photo':
      return { ...base, maxPhotos: String(item.max_photos) };
    default:
      return base;
  }
}

function draftFromDefinition(definition: TemplateDefinition): DraftSection[] {
  return definition.sections.map((section) => ({
    key: section.key,
    title: section.title,
    items: section.items.map(draftItem),
    rule: draftRule(section.show_when),
  }));
}

export function draftFromTemplate(template: Pick<Template, 'name' | 'description' | 'definition'>): Draft {
  return { name: template.name, description: template.description ?? '', sections: draftFromDefinition(template.definition) };
}

/** A condition as the API takes it: the fields of its test, a number when it tests a number item. */
export function conditionBody(condition: DraftCondition, items: Map<string, DraftItem>): Record<string, unknown> {
  const base = { item: condition.item, op: condition.op };
  switch (condition.op) {
    case 'equals':
    case 'not_equals':
      return { ...base, value: items.get(condition.item)?.kind === 'number' ? numberField(condition.value) : condition.value };
    case 'one_of':
    case 'none_of':
      return { ...base, values: condition.values };
    case 'less_than':
    case 'greater_than':
      return { ...base, value: numberField(condition.value) };
    case 'between':
      return { ...base, min: numberField(condition.min), max: numberField(condition.max) };
    default:
      return base;
  }
}

/** The rule as the API takes it; no key at all when there is none. */
function ruleBody(rule: DraftRule | null, items: Map<string, DraftItem>): { show_when?: unknown } {
  return rule ? { show_when: { match: rule.match, conditions: rule.conditions.map((condition) => conditionBody(condition, items)) } } : {};
}

/** The item as the API takes it: exactly its kind's keys, numbers parsed, empty optional text as null. */
function itemBody(item: DraftItem, items: Map<string, DraftItem>): Record<string, unknown> {
  const base = {
    key: item.key,
    kind: item.kind,
    label: item.label,
    help: item.help,
    required: item.required,
    weight: numberField(item.weight),
    ...ruleBody(item.rule, items),
  };
  switch (item.kind) {
    case 'yes_no':
      return { ...base, fail_on: item.failOn === '' ? null : item.failOn };
    case 'number':
      return { ...base, min: numberField(item.min, null), max: numberField(item.max, null), unit: item.unit.trim() === '' ? null : item.unit };
    case 'single_choice':
    case 'multi_choice':
      return {
        ...base,
        options: item.options.map((option) => option.text),
        // Trimmed like the options themselves, so a failing " Dirty" still names the option "Dirty".
        failing_options: item.options.filter((option) => option.fails).map((option) => option.text.trim()),
      };
    case 'photo':
      return { ...base, max_photos: numberField(item.maxPhotos) };
    default:
      return base;
  }
}

/** The definition as typed; the shared schema decides whether it is valid. */
function definitionBody(sections: DraftSection[]): unknown {
  const items = draftItemsByKey(sections);
  return {
    sections: sections.map((section) => ({
      key: section.key,
      title: section.title,
      ...ruleBody(section.rule, items),
      items: section.items.map((item) => itemBody(item, items)),
    })),
  };
}

/** What a save sends (PATCH without base_revision), and what "unsaved changes" compares. */
export function draftBody(draft: Draft) {
  return { name: draft.name, description: draft.description, definition: definitionBody(draft.sections) };
}

/** The same text for the same content: option ids and other editor-only state left out. */
export function draftFingerprint(draft: Draft): string {
  return JSON.stringify(draftBody(draft));
}

export function keysOf(sections: DraftSection[]): Set<string> {
  const keys = new Set<string>();
  for (const section of sections) {
    keys.add(section.key);
    for (const item of section.items) keys.add(item.key);
  }
  return keys;
}

/**
 * A key for a new section or item: random, so two editors never collide, and never changed after,
 * because answers and later versions refer to items by key.
 */
function newKey(prefix: string, taken: Set<string>): string {
  for (;;) {
    const random = Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => (byte % 36).toString(36)).join('');
    const key = `${prefix}-${random}`;
    if (KEY_PATTERN.test(key) && !taken.has(key)) return key;
  }
}

/** A key no section or item of `sections` has, for a new section. */
export function newSectionKey(sections: DraftSection[]): string {
  return newKey('section', keysOf(sections));
}

/** A key no section or item of `sections` has, for a new item of `kind`. */
export function newItemKey(kind: ItemKind, sections: DraftSection[]): string {
  return newKey(kind.replace('_', '-'), keysOf(sections));
}

export function newSection(title: string, key: string): DraftSection {
  return { key, title, items: [], rule: null };
}

export function newItem(kind: ItemKind, key: string): DraftItem {
  const choice = kind === 'single_choice' || kind === 'multi_choice';
  return {
    ...noKindSettings,
    key,
    kind,
    label: '',
    help: '',
    required: false,
    weight: String(DEFAULT_WEIGHT),
    options: choice ? [newOption()] : [],
    rule: null,
  };
}

/** The title used by the section's controls and trigger while the title field is empty. */
export function sectionName(section: DraftSection, index: number): string {
  return section.title.trim() || `Section ${index + 1}`;
}

/** The name an item's controls use: its label, or its place while it has none. */
export function itemName(item: DraftItem, position: number): string {
  return item.label.trim() || `item ${position}`;
}

/** `list` with the entry at `index` moved by `delta` places (clamped to the ends). */
export function moved<T>(list: readonly T[], index: number, delta: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, index + delta));
  const copy = [...list];
  const [entry] = copy.splice(index, 1);
  copy.splice(target, 0, entry);
  return copy;
}
