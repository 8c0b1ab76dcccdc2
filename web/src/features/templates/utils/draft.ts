import {
  DEFAULT_WEIGHT,
  KEY_PATTERN,
  type ItemKind,
  type Template,
  type TemplateDefinition,
  type TemplateItem,
} from '@schemas/templates';
import { numberField } from '../../../lib/form-values';

/** One answer option as the editor holds it: `id` keeps its row (and focus) while its text is renamed. */
export interface DraftOption {
  id: string;
  text: string;
  fails: boolean;
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
}

export interface DraftSection {
  key: string;
  title: string;
  items: DraftItem[];
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

// The settings of the kinds an item is not: what a new item or another kind's item starts with.
const noKindSettings: Pick<DraftItem, 'failOn' | 'min' | 'max' | 'unit' | 'options' | 'maxPhotos'> = {
  failOn: '',
  min: '',
  max: '',
  unit: '',
  options: [],
  maxPhotos: '1',
};

function draftItem(item: TemplateItem): DraftItem {
  const base: DraftItem = {
    ...noKindSettings,
    key: item.key,
    kind: item.kind,
    label: item.label,
    help: item.help ?? '',
    required: item.required,
    weight: String(item.weight),
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
  return definition.sections.map((section) => ({ key: section.key, title: section.title, items: section.items.map(draftItem) }));
}

export function draftFromTemplate(template: Pick<Template, 'name' | 'description' | 'definition'>): Draft {
  return { name: template.name, description: template.description ?? '', sections: draftFromDefinition(template.definition) };
}

/** The item as the API takes it: exactly its kind's keys, numbers parsed, empty optional text as null. */
function itemBody(item: DraftItem): Record<string, unknown> {
  const base = {
    key: item.key,
    kind: item.kind,
    label: item.label,
    help: item.help,
    required: item.required,
    weight: numberField(item.weight),
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
  return { sections: sections.map((section) => ({ key: section.key, title: section.title, items: section.items.map(itemBody) })) };
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

export function newSection(title: string, taken: Set<string>): DraftSection {
  return { key: newKey('section', taken), title, items: [] };
}

export function newItem(kind: ItemKind, taken: Set<string>): DraftItem {
  const choice = kind === 'single_choice' || kind === 'multi_choice';
  return {
    ...noKindSettings,
    key: newKey(kind.replace('_', '-'), taken),
    kind,
    label: '',
    help: '',
    required: false,
    weight: String(DEFAULT_WEIGHT),
    options: choice ? [newOption()] : [],
  };
}

/** `list` with the entry at `index` moved by `delta` places (clamped to the ends). */
export function moved<T>(list: readonly T[], index: number, delta: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, index + delta));
  const copy = [...list];
  const [entry] = copy.splice(index, 1);
  copy.splice(target, 0, entry);
  return copy;
}
