// The template editor's state and every change to it, as one reducer over the draft (draft.ts):
// what is typed, which sections are open, the messages and what they are about, a save or publish
// under way, and which control gets the focus next. Pure: the component renders the state and
// dispatches; keys are made by the caller (they are random), and the api calls stay in ../api.
import type { ItemKind, Template } from '@schemas/templates';
import {
  draftFingerprint,
  draftFromTemplate,
  itemName,
  moved,
  newItem,
  newSection,
  sectionName,
  type Draft,
  type DraftItem,
  type DraftRule,
  type DraftSection,
} from './draft';
import { placeErrors, sectionsWithErrors } from './field-errors';
import { itemKindLabels } from './template-format';

export type SaveState = 'idle' | 'saving' | 'publishing';

export interface EditorState {
  /** The server's template this draft started from: its revision goes with every save. */
  base: Template;
  draft: Draft;
  /** Keys of the sections shown open in the accordion. */
  openSections: string[];
  /** Problems of the last save or publish, by the path of the field that shows each. */
  errors: Record<string, string>;
  /** The problem above the editor ("Some fields need attention.", and those with no field). */
  message: string | undefined;
  /** What the last save, publish or load did, until the draft changes. */
  notice: string | undefined;
  /** Someone else saved meanwhile: our save would be refused (stale_version) until we load theirs. */
  conflict: 'changed_elsewhere' | 'stale' | null;
  /** Read out by screen readers: what the last added, moved or removed part was. */
  announcement: string;
  saveState: SaveState;
  previewOpen: boolean;
  /** The control (its `data-focus`) to focus once the change is rendered; a new object each time. */
  focus: { key: string } | null;
}

export type EditorAction =
  // Typing and structure.
  | { type: 'setName'; name: string }
  | { type: 'setDescription'; description: string }
  | { type: 'setSectionTitle'; section: number; title: string }
  | { type: 'setSectionRule'; section: number; rule: DraftRule | null }
  | { type: 'addSection'; key: string }
  | { type: 'moveSection'; section: number; delta: -1 | 1 }
  | { type: 'removeSection'; section: number }
  | { type: 'addItem'; section: number; kind: ItemKind; key: string }
  | { type: 'changeItem'; section: number; item: number; patch: Partial<DraftItem> }
  | { type: 'moveItem'; section: number; item: number; delta: -1 | 1 }
  | { type: 'removeItem'; section: number; item: number }
  // What is shown.
  | { type: 'setOpenSections'; keys: string[] }
  | { type: 'openSection'; key: string }
  | { type: 'togglePreview' }
  | { type: 'focus'; key: string }
  // Saving and publishing.
  | { type: 'saveStarted'; mode: 'saving' | 'publishing' }
  | { type: 'problems'; fieldErrors: Record<string, string>; summary: string | undefined }
  | { type: 'saveSent' }
  | { type: 'saved'; template: Template; sentFingerprint: string }
  | { type: 'saveConflicted' }
  | { type: 'published'; template: Template; savedVersion: number | null }
  | { type: 'saveEnded'; outcome: 'saved' | 'unchanged' | null }
  // The server's template.
  | { type: 'serverChanged'; template: Template }
  | { type: 'latestLoaded'; template: Template };

export function initialEditorState(template: Template, initialNotice?: string): EditorState {
  return {
    base: template,
    draft: draftFromTemplate(template),
    openSections: template.definition.sections.slice(0, 1).map((section) => section.key),
    errors: {},
    message: undefined,
    notice: initialNotice,
    conflict: null,
    announcement: '',
    saveState: 'idle',
    previewOpen: false,
    focus: null,
  };
}

/** `state` with its sections changed: "Draft saved." and the like no longer describe the draft. */
function withSections(state: EditorState, sections: DraftSection[]): EditorState {
  return { ...state, draft: { ...state.draft, sections }, notice: undefined };
}

/**
 * A change of structure (a part added, moved or removed): the old problems' paths point at other
 * places now, so they go too.
 */
function restructured(state: EditorState, sections: DraftSection[]): EditorState {
  return { ...withSections(state, sections), errors: {}, message: undefined };
}

function replaced<T>(list: readonly T[], index: number, change: (entry: T) => T): T[] {
  return list.map((entry, i) => (i === index ? change(entry) : entry));
}

function opened(open: string[], key: string): string[] {
  return open.includes(key) ? open : [...open, key];
}

function focusOn(key: string): { key: string } {
  return { key };
}

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { sections } = state.draft;
  switch (action.type) {
    case 'setName':
      return { ...state, draft: { ...state.draft, name: action.name }, notice: undefined };
    case 'setDescription':
      return { ...state, draft: { ...state.draft, description: action.description }, notice: undefined };
    case 'setSectionTitle':
      return withSections(state, replaced(sections, action.section, (section) => ({ ...section, title: action.title })));
    case 'setSectionRule':
      return withSections(state, replaced(sections, action.section, (section) => ({ ...section, rule: action.rule })));
    case 'addSection': {
      const section = newSection(`Section ${sections.length + 1}`, action.key);
      return {
        ...restructured(state, [...sections, section]),
        openSections: [...state.openSections, section.key],
        focus: focusOn(`section:${section.key}:title`),
        announcement: `${section.title} added.`,
      };
    }
    case 'moveSection': {
      const section = sections[action.section];
      return {
        ...restructured(state, moved(sections, action.section, action.delta)),
        focus: focusOn(`section:${section.key}:${action.delta < 0 ? 'up' : 'down'}`),
        announcement: `${sectionName(section, action.section)} moved to position ${action.section + action.delta + 1} of ${sections.length}.`,
      };
    }
    case 'removeSection': {
      const section = sections[action.section];
      // The focus goes to the section that took its place, or the one before, or "Add section".
      const next = sections[action.section + 1] ?? sections[action.section - 1];
      return {
        ...restructured(state, sections.filter((_, i) => i !== action.section)),
        openSections: next ? opened(state.openSections, next.key) : state.openSections,
        focus: focusOn(next ? `section:${next.key}:title` : 'template:add-section'),
        announcement: `${sectionName(section, action.section)} removed.`,
      };
    }
    case 'addItem': {
      const item = newItem(action.kind, action.key);
      return {
        ...restructured(
          state,
          replaced(sections, action.section, (section) => ({ ...section, items: [...section.items, item] })),
        ),
        focus: focusOn(`item:${item.key}:label`),
        announcement: `${itemKindLabels[action.kind]} item added.`,
      };
    }
    case 'changeItem':
      return withSections(
        state,
        replaced(sections, action.section, (section) => ({
          ...section,
          items: replaced(section.items, action.item, (item) => ({ ...item, ...action.patch })),
        })),
      );
    case 'moveItem': {
      const { items } = sections[action.section];
      const item = items[action.item];
      return {
        ...restructured(
          state,
          replaced(sections, action.section, (section) => ({ ...section, items: moved(section.items, action.item, action.delta) })),
        ),
        focus: focusOn(`item:${item.key}:${action.delta < 0 ? 'up' : 'down'}`),
        announcement: `${itemName(item, action.item + 1)} moved to position ${action.item + action.delta + 1} of ${items.length}.`,
      };
    }
    case 'removeItem': {
      const section = sections[action.section];
      const item = section.items[action.item];
      const next = section.items[action.item + 1] ?? section.items[action.item - 1];
      return {
        ...restructured(
          state,
          replaced(sections, action.section, (current) => ({ ...current, items: current.items.filter((_, i) => i !== action.item) })),
        ),
        focus: focusOn(next ? `item:${next.key}:label` : `section:${section.key}:add-item`),
        announcement: `${itemName(item, action.item + 1)} removed.`,
      };
    }

    case 'setOpenSections':
      return { ...state, openSections: action.keys };
    case 'openSection':
      return { ...state, openSections: opened(state.openSections, action.key) };
    case 'togglePreview':
      return { ...state, previewOpen: !state.previewOpen };
    case 'focus':
      return { ...state, focus: focusOn(action.key) };

    case 'saveStarted':
      // "… item added." was about the editing before this save, not after it.
      return { ...state, saveState: action.mode, notice: undefined, announcement: '' };
    case 'problems': {
      const placed = placeErrors(action.fieldErrors);
      const invalidSections = sectionsWithErrors(placed.byPath);
      const keys = sections.filter((_, index) => invalidSections.has(index)).map((section) => section.key);
      return {
        ...state,
        errors: placed.byPath,
        message: [action.summary, ...placed.elsewhere].filter(Boolean).join(' ') || undefined,
        // The sections with problems open, so that the first problem can get the focus.
        openSections: [...new Set([...state.openSections, ...keys])],
      };
    }
    case 'saveSent':
      return { ...state, errors: {}, message: undefined };
    case 'saved': {
      // The server's words replace ours (trimmed, numbers as numbers) unless we typed on meanwhile.
      const savedDraft = draftFromTemplate(action.template);
      const replace = draftFingerprint(state.draft) === action.sentFingerprint && draftFingerprint(savedDraft) !== action.sentFingerprint;
      return { ...state, base: action.template, draft: replace ? savedDraft : state.draft };
    }
    case 'saveConflicted':
      return { ...state, conflict: 'stale' };
    case 'published': {
      const version = action.template.latest_version;
      return {
        ...state,
        base: action.template,
        errors: {},
        message: undefined,
        notice:
          version !== action.savedVersion
            ? `Version ${version} published.`
            : `Nothing changed since version ${version}, so no new version was published.`,
      };
    }
    case 'saveEnded':
      return {
        ...state,
        saveState: 'idle',
        notice: action.outcome === 'saved' ? 'Draft saved.' : action.outcome === 'unchanged' ? 'No changes to save.' : state.notice,
      };

    case 'serverChanged':
      return withServerTemplate(state, action.template);
    case 'latestLoaded':
      return {
        ...state,
        base: action.template,
        draft: draftFromTemplate(action.template),
        conflict: null,
        errors: {},
        message: undefined,
        announcement: '',
        notice: 'Showing the latest saved version.',
      };
  }
}

/**
 * The server's template changed (our own save, or someone else's through the live events): a
 * newer one replaces an unchanged draft, and one that differs from ours while we have unsaved
 * changes is a conflict. Nothing happens while a save is under way: its answer decides.
 */
function withServerTemplate(state: EditorState, template: Template): EditorState {
  const { base } = state;
  if (state.saveState !== 'idle' || template === base || template.revision < base.revision) return state;
  if (template.revision === base.revision) return { ...state, base: template };
  const theirs = draftFromTemplate(template);
  const ours = draftFingerprint(state.draft);
  if (draftFingerprint(theirs) === ours) return { ...state, base: template };
  if (ours === draftFingerprint(draftFromTemplate(base))) return { ...state, base: template, draft: theirs };
  return state.conflict ? state : { ...state, conflict: 'changed_elsewhere' };
}

/** What the save bar says about the draft. */
export function saveStatusText(state: Pick<EditorState, 'base' | 'saveState'>, dirty: boolean): string {
  const { base } = state;
  if (state.saveState === 'publishing') return 'Publishing…';
  if (state.saveState === 'saving') return 'Saving…';
  if (dirty) return 'Unsaved changes';
  if (base.latest_version === null) return 'Saved as a draft, not published yet';
  if (base.has_unpublished_changes) return `Saved; changes since version ${base.latest_version} are not published`;
  return `Saved and published as version ${base.latest_version}`;
}
