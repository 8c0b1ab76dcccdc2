// The template editor's state (issue 25, part 3), in Node: every change the editor makes goes
// through editorReducer, so what a change does to the draft, the open sections, the messages
// (and which of them it clears), the focus and the announcement is checked here without a browser.
// tests/e2e/templates.test.ts and phone.test.ts check the same editor in Chromium.
import { definitionSchema, type Template } from '@schemas/templates';
import { describe, expect, it } from 'vitest';
import { draftFingerprint, draftFromTemplate, newItemKey, newSectionKey } from '../../web/src/features/templates/utils/draft';
import {
  editorReducer,
  initialEditorState,
  saveStatusText,
  type EditorAction,
  type EditorState,
} from '../../web/src/features/templates/utils/editor-state';

function template(overrides: Partial<Template> = {}): Template {
  return {
    id: 'template-1',
    org_id: 'org-1',
    name: 'Opening checks',
    description: null,
    status: 'draft',
    latest_version: null,
    has_unpublished_changes: true,
    item_count: 3,
    revision: 1,
    archived_at: null,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    definition: definitionSchema.parse({
      sections: [
        {
          key: 'kitchen',
          title: 'Kitchen',
          items: [
            { key: 'handwash', kind: 'pass_fail', label: 'Hand-wash station stocked' },
            { key: 'fridge', kind: 'number', label: 'Fridge temperature', min: 0, max: 5, unit: '°C' },
          ],
        },
        { key: 'storage', title: 'Storage', items: [{ key: 'labels', kind: 'yes_no', label: 'Everything labelled', fail_on: 'no' }] },
      ],
    }),
    ...overrides,
  };
}

/** The state after `actions`, from a fresh editor of `start`. */
function after(actions: EditorAction[], start: EditorState = initialEditorState(template())): EditorState {
  return actions.reduce(editorReducer, start);
}

/** A state with a problem, a message, a notice and an announcement, to see which a change clears. */
function withMessages(state: EditorState = initialEditorState(template(), 'Opening checks was created.')): EditorState {
  return {
    ...after([{ type: 'problems', fieldErrors: { 'definition.sections.0.items.0.label': 'Enter a label.' }, summary: 'Some fields need attention.' }], state),
    announcement: 'Pass / fail item added.',
  };
}

const sectionKeys = (state: EditorState) => state.draft.sections.map((section) => section.key);
const itemKeys = (state: EditorState, section: number) => state.draft.sections[section].items.map((item) => item.key);

describe('the editor opens', () => {
  it('with the template as its draft, the first section open, the notice it was given and nothing else', () => {
    const state = initialEditorState(template(), 'Opening checks was created.');
    expect(state.base).toEqual(template());
    expect(state.draft).toEqual(draftFromTemplate(template()));
    expect(state.openSections).toEqual(['kitchen']);
    expect(state.notice).toBe('Opening checks was created.');
    expect(state).toMatchObject({ errors: {}, message: undefined, conflict: null, announcement: '', saveState: 'idle', previewOpen: false, focus: null });
  });

  it('with no section open when the template has none', () => {
    expect(initialEditorState(template({ definition: { sections: [] } })).openSections).toEqual([]);
  });
});

describe('typing', () => {
  it('renames and describes the draft, and "Draft saved." goes, while the problems stay', () => {
    const start = withMessages();
    const state = after(
      [
        { type: 'setName', name: 'Closing checks' },
        { type: 'setDescription', description: 'At the end of the day' },
      ],
      start,
    );
    expect(state.draft.name).toBe('Closing checks');
    expect(state.draft.description).toBe('At the end of the day');
    expect(state.notice).toBeUndefined();
    expect(state.errors).toEqual(start.errors);
    expect(state.message).toBe(start.message);
    expect(state.announcement).toBe(start.announcement);
  });

  it('changes one section’s title or rule, one item’s fields, and nothing else', () => {
    const start = withMessages();
    const rule = { match: 'all' as const, conditions: [] };
    const state = after(
      [
        { type: 'setSectionTitle', section: 1, title: 'Store room' },
        { type: 'setSectionRule', section: 1, rule },
        { type: 'changeItem', section: 0, item: 1, patch: { label: 'Fridge', max: '8' } },
      ],
      start,
    );
    expect(state.draft.sections[1]).toMatchObject({ title: 'Store room', rule });
    expect(state.draft.sections[0].title).toBe('Kitchen');
    expect(state.draft.sections[0].rule).toBeNull();
    expect(state.draft.sections[0].items[1]).toMatchObject({ label: 'Fridge', max: '8', min: '0', unit: '°C' });
    expect(state.draft.sections[0].items[0]).toBe(start.draft.sections[0].items[0]);
    expect(state.draft.sections[1].items).toBe(start.draft.sections[1].items);
    expect(state.notice).toBeUndefined();
    expect(state.errors).toEqual(start.errors);
    expect(state.message).toBe(start.message);
    expect(state.focus).toBeNull();
  });

  it('never changes the state it was given', () => {
    const start = withMessages();
    const copy = structuredClone(start);
    const actions: EditorAction[] = [
      { type: 'setName', name: 'x' },
      { type: 'addSection', key: 'section-new' },
      { type: 'moveSection', section: 0, delta: 1 },
      { type: 'removeSection', section: 0 },
      { type: 'addItem', section: 0, kind: 'text', key: 'text-new' },
      { type: 'changeItem', section: 0, item: 0, patch: { label: 'y' } },
      { type: 'moveItem', section: 0, item: 0, delta: 1 },
      { type: 'removeItem', section: 0, item: 0 },
      { type: 'openSection', key: 'storage' },
      { type: 'saveSent' },
      { type: 'latestLoaded', template: template({ revision: 2 }) },
    ];
    for (const action of actions) editorReducer(start, action);
    expect(start).toEqual(copy);
  });
});

describe('adding, moving and removing', () => {
  it('adds a section at the end, titled by its place, open, with the focus on its title, and says so', () => {
    const start = withMessages();
    const key = newSectionKey(start.draft.sections);
    const state = after([{ type: 'addSection', key }], start);
    expect(sectionKeys(state)).toEqual(['kitchen', 'storage', key]);
    expect(state.draft.sections[2]).toEqual({ key, title: 'Section 3', items: [], rule: null });
    expect(state.openSections).toEqual(['kitchen', key]);
    expect(state.focus).toEqual({ key: `section:${key}:title` });
    expect(state.announcement).toBe('Section 3 added.');
    // The old problems' paths point at other places after a change of structure.
    expect(state).toMatchObject({ errors: {}, message: undefined, notice: undefined });
  });

  it('makes keys no section or item has, in the pattern the api takes', () => {
    const { sections } = initialEditorState(template()).draft;
    const keys = new Set(Array.from({ length: 50 }, () => newSectionKey(sections)));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^section-[a-z0-9]{6}$/);
    expect(newItemKey('single_choice', sections)).toMatch(/^single-choice-[a-z0-9]{6}$/);
  });

  it('moves a section, keeps the focus on the button that moved it, and says where it went', () => {
    const start = withMessages();
    const down = after([{ type: 'moveSection', section: 0, delta: 1 }], start);
    expect(sectionKeys(down)).toEqual(['storage', 'kitchen']);
    expect(down.focus).toEqual({ key: 'section:kitchen:down' });
    expect(down.announcement).toBe('Kitchen moved to position 2 of 2.');
    expect(down).toMatchObject({ errors: {}, message: undefined, notice: undefined });

    const up = after([{ type: 'moveSection', section: 1, delta: -1 }], down);
    expect(sectionKeys(up)).toEqual(['kitchen', 'storage']);
    expect(up.focus).toEqual({ key: 'section:kitchen:up' });
    expect(up.announcement).toBe('Kitchen moved to position 1 of 2.');
  });

  it('names an untitled section by its place', () => {
    const state = after([
      { type: 'setSectionTitle', section: 1, title: '  ' },
      { type: 'moveSection', section: 1, delta: -1 },
    ]);
    expect(state.announcement).toBe('Section 2 moved to position 1 of 2.');
  });

  it('removes a section and moves the focus to the one that took its place, opening it', () => {
    const start = withMessages();
    const state = after([{ type: 'removeSection', section: 0 }], start);
    expect(sectionKeys(state)).toEqual(['storage']);
    expect(state.focus).toEqual({ key: 'section:storage:title' });
    expect(state.openSections).toEqual(['kitchen', 'storage']);
    expect(state.announcement).toBe('Kitchen removed.');
    expect(state).toMatchObject({ errors: {}, message: undefined, notice: undefined });
  });

  it('removing the last section moves the focus to the one before, and the only one to "Add section"', () => {
    const last = after([{ type: 'removeSection', section: 1 }]);
    expect(last.focus).toEqual({ key: 'section:kitchen:title' });
    expect(last.openSections).toEqual(['kitchen']);
    const none = after([{ type: 'removeSection', section: 0 }], last);
    expect(none.draft.sections).toEqual([]);
    expect(none.focus).toEqual({ key: 'template:add-section' });
    expect(none.announcement).toBe('Kitchen removed.');
  });

  it('adds an item of the kind chosen at the end of its section, with the focus on its label', () => {
    const start = withMessages();
    const key = newItemKey('single_choice', start.draft.sections);
    const state = after([{ type: 'addItem', section: 1, kind: 'single_choice', key }], start);
    expect(itemKeys(state, 1)).toEqual(['labels', key]);
    expect(state.draft.sections[1].items[1]).toMatchObject({ key, kind: 'single_choice', label: '', required: false, weight: '1', rule: null });
    // A choice item starts with one empty option to type into.
    expect(state.draft.sections[1].items[1].options).toEqual([expect.objectContaining({ text: '', fails: false })]);
    expect(state.focus).toEqual({ key: `item:${key}:label` });
    expect(state.announcement).toBe('Single choice item added.');
    expect(state).toMatchObject({ errors: {}, message: undefined, notice: undefined });
    expect(after([{ type: 'addItem', section: 0, kind: 'photo', key: 'photo-abcdef' }]).draft.sections[0].items[2].options).toEqual([]);
  });

  it('moves an item within its section and says where it went, naming an unlabelled one by its place', () => {
    const start = withMessages();
    const state = after([{ type: 'moveItem', section: 0, item: 0, delta: 1 }], start);
    expect(itemKeys(state, 0)).toEqual(['fridge', 'handwash']);
    expect(state.focus).toEqual({ key: 'item:handwash:down' });
    expect(state.announcement).toBe('Hand-wash station stocked moved to position 2 of 2.');
    expect(state).toMatchObject({ errors: {}, message: undefined, notice: undefined });
    const unlabelled = after([
      { type: 'changeItem', section: 0, item: 1, patch: { label: '' } },
      { type: 'moveItem', section: 0, item: 1, delta: -1 },
    ]);
    expect(unlabelled.announcement).toBe('item 2 moved to position 1 of 2.');
    expect(unlabelled.focus).toEqual({ key: 'item:fridge:up' });
  });

  it('removes an item and moves the focus to the next, the one before, or the section’s "Add item"', () => {
    const start = withMessages();
    const first = after([{ type: 'removeItem', section: 0, item: 0 }], start);
    expect(itemKeys(first, 0)).toEqual(['fridge']);
    expect(first.focus).toEqual({ key: 'item:fridge:label' });
    expect(first.announcement).toBe('Hand-wash station stocked removed.');
    expect(first).toMatchObject({ errors: {}, message: undefined, notice: undefined });
    expect(after([{ type: 'removeItem', section: 0, item: 1 }]).focus).toEqual({ key: 'item:handwash:label' });
    const only = after([{ type: 'removeItem', section: 1, item: 0 }]);
    expect(only.draft.sections[1].items).toEqual([]);
    expect(only.focus).toEqual({ key: 'section:storage:add-item' });
  });
});

describe('what is shown', () => {
  it('asks for the focus again with a new request each time, even for the same control', () => {
    const once = after([{ type: 'focus', key: 'option:fridge:1' }]);
    const twice = after([{ type: 'focus', key: 'option:fridge:1' }], once);
    expect(twice.focus).toEqual(once.focus);
    expect(twice.focus).not.toBe(once.focus);
  });

  it('opens a section once, sets the open ones, and toggles the preview', () => {
    const state = after([
      { type: 'openSection', key: 'storage' },
      { type: 'openSection', key: 'storage' },
    ]);
    expect(state.openSections).toEqual(['kitchen', 'storage']);
    expect(after([{ type: 'setOpenSections', keys: [] }], state).openSections).toEqual([]);
    expect(after([{ type: 'togglePreview' }]).previewOpen).toBe(true);
    expect(after([{ type: 'togglePreview' }, { type: 'togglePreview' }]).previewOpen).toBe(false);
  });
});

describe('saving and publishing', () => {
  it('a save or publish starts by clearing the notice and the announcement about the editing before it', () => {
    const start = withMessages();
    const state = after([{ type: 'saveStarted', mode: 'publishing' }], start);
    expect(state.saveState).toBe('publishing');
    expect(state.notice).toBeUndefined();
    expect(state.announcement).toBe('');
  });

  it('shows each problem at its place, the rest above, and opens the sections that hold one', () => {
    const start = after([{ type: 'setOpenSections', keys: ['kitchen'] }]);
    const state = after(
      [
        {
          type: 'problems',
          fieldErrors: {
            'definition.sections.1.items.0.label': 'Enter a label.',
            'definition.sections.1.key': 'Keys must be unique.',
            base_revision: 'Reload the template.',
          },
          summary: 'Some fields need attention.',
        },
      ],
      start,
    );
    expect(state.errors).toEqual({ 'definition.sections.1.items.0.label': 'Enter a label.', 'definition.sections.1': 'Keys must be unique.' });
    expect(state.message).toBe('Some fields need attention. Reload the template.');
    expect(state.openSections).toEqual(['kitchen', 'storage']);
    expect(after([{ type: 'problems', fieldErrors: {}, summary: undefined }]).message).toBeUndefined();
  });

  it('a save sent clears the problems of the one before', () => {
    const state = after([{ type: 'saveSent' }], withMessages());
    expect(state.errors).toEqual({});
    expect(state.message).toBeUndefined();
  });

  it('takes the saved template as its base and the server’s words, unless typed on meanwhile', () => {
    const start = after([{ type: 'setName', name: '  Closing checks ' }]);
    const sentFingerprint = draftFingerprint(start.draft);
    const saved = template({ name: 'Closing checks', revision: 2 });
    const state = after([{ type: 'saved', template: saved, sentFingerprint }], start);
    expect(state.base).toBe(saved);
    expect(state.draft.name).toBe('Closing checks');

    const typedOn = after([{ type: 'setName', name: '  Closing checks 2' }], start);
    const kept = after([{ type: 'saved', template: saved, sentFingerprint }], typedOn);
    expect(kept.base).toBe(saved);
    expect(kept.draft).toBe(typedOn.draft);

    // The same words: the draft (and its option ids, and the focus) stays as it is.
    const same = after([{ type: 'setName', name: 'Closing checks' }]);
    expect(after([{ type: 'saved', template: saved, sentFingerprint: draftFingerprint(same.draft) }], same).draft).toBe(same.draft);
  });

  it('a save refused as stale shows the conflict', () => {
    expect(after([{ type: 'saveConflicted' }]).conflict).toBe('stale');
  });

  it('says a new version was published, or that nothing had changed since the last one', () => {
    const start = withMessages();
    const published = template({ latest_version: 2, revision: 3 });
    const state = after([{ type: 'published', template: published, savedVersion: 1 }], start);
    expect(state.base).toBe(published);
    expect(state.notice).toBe('Version 2 published.');
    expect(state.errors).toEqual({});
    expect(state.message).toBeUndefined();
    expect(after([{ type: 'published', template: published, savedVersion: 2 }]).notice).toBe(
      'Nothing changed since version 2, so no new version was published.',
    );
  });

  it('ends a save saying what it did, or leaving the notice as it is when it did not save', () => {
    const busy = after([{ type: 'saveStarted', mode: 'saving' }]);
    expect(after([{ type: 'saveEnded', outcome: 'saved' }], busy)).toMatchObject({ saveState: 'idle', notice: 'Draft saved.' });
    expect(after([{ type: 'saveEnded', outcome: 'unchanged' }], busy)).toMatchObject({ saveState: 'idle', notice: 'No changes to save.' });
    const published = after([{ type: 'published', template: template({ latest_version: 1 }), savedVersion: null }], busy);
    expect(after([{ type: 'saveEnded', outcome: null }], published)).toMatchObject({ saveState: 'idle', notice: 'Version 1 published.' });
  });

  it('"Draft saved." goes once the draft changes', () => {
    const saved = after([{ type: 'saveStarted', mode: 'saving' }, { type: 'saveEnded', outcome: 'saved' }]);
    for (const action of [
      { type: 'setName', name: 'x' },
      { type: 'setDescription', description: 'x' },
      { type: 'setSectionTitle', section: 0, title: 'x' },
      { type: 'setSectionRule', section: 0, rule: null },
      { type: 'changeItem', section: 0, item: 0, patch: { label: 'x' } },
      { type: 'addSection', key: 'section-aaaaaa' },
      { type: 'addItem', section: 0, kind: 'text', key: 'text-aaaaaa' },
      { type: 'moveSection', section: 0, delta: 1 },
      { type: 'removeItem', section: 0, item: 0 },
    ] satisfies EditorAction[]) {
      expect(editorReducer(saved, action).notice, action.type).toBeUndefined();
    }
    // Opening a section or the preview is not a change of the draft.
    expect(after([{ type: 'openSection', key: 'storage' }, { type: 'togglePreview' }], saved).notice).toBe('Draft saved.');
  });
});

describe('the server’s template changes', () => {
  const newer = (overrides: Partial<Template> = {}) => template({ revision: 2, ...overrides });

  it('is not taken while a save is under way, nor when it is older or the same object', () => {
    const start = initialEditorState(template({ revision: 3 }));
    expect(after([{ type: 'serverChanged', template: start.base }], start)).toBe(start);
    expect(after([{ type: 'serverChanged', template: template({ revision: 2, name: 'Old' }) }], start)).toBe(start);
    const busy = after([{ type: 'saveStarted', mode: 'saving' }], start);
    expect(after([{ type: 'serverChanged', template: template({ revision: 4, name: 'New' }) }], busy)).toBe(busy);
  });

  it('of the same revision becomes the base, the draft left as typed', () => {
    const start = after([{ type: 'setName', name: 'Typing' }]);
    const same = template({ has_unpublished_changes: false });
    const state = after([{ type: 'serverChanged', template: same }], start);
    expect(state.base).toBe(same);
    expect(state.draft).toBe(start.draft);
  });

  it('replaces a draft without unsaved changes', () => {
    const theirs = newer({ name: 'Their name' });
    const state = after([{ type: 'serverChanged', template: theirs }]);
    expect(state.base).toBe(theirs);
    expect(state.draft.name).toBe('Their name');
    expect(state.conflict).toBeNull();
  });

  it('that says what we typed becomes the base, with no conflict', () => {
    const start = after([{ type: 'setName', name: 'Both' }]);
    const theirs = newer({ name: 'Both' });
    const state = after([{ type: 'serverChanged', template: theirs }], start);
    expect(state.base).toBe(theirs);
    expect(state.draft).toBe(start.draft);
    expect(state.conflict).toBeNull();
  });

  it('that differs from unsaved changes is a conflict, the draft kept, and a stale save stays said so', () => {
    const start = after([{ type: 'setName', name: 'Ours' }]);
    const state = after([{ type: 'serverChanged', template: newer({ name: 'Theirs' }) }], start);
    expect(state.conflict).toBe('changed_elsewhere');
    expect(state.draft).toBe(start.draft);
    expect(state.base).toBe(start.base);
    const stale = after([{ type: 'saveConflicted' }, { type: 'serverChanged', template: newer({ name: 'Theirs' }) }], start);
    expect(stale.conflict).toBe('stale');
  });

  it('loading the latest replaces the draft and clears the conflict and every message', () => {
    const start = after([{ type: 'setName', name: 'Ours' }, { type: 'saveConflicted' }], withMessages());
    const latest = newer({ name: 'Theirs' });
    const state = after([{ type: 'latestLoaded', template: latest }], start);
    expect(state.base).toBe(latest);
    expect(state.draft).toEqual(draftFromTemplate(latest));
    expect(state).toMatchObject({ conflict: null, errors: {}, message: undefined, announcement: '', notice: 'Showing the latest saved version.' });
  });
});

describe('the save bar', () => {
  const base = template();
  it('says what is under way, then whether the draft is saved and published', () => {
    expect(saveStatusText({ base, saveState: 'saving' }, true)).toBe('Saving…');
    expect(saveStatusText({ base, saveState: 'publishing' }, false)).toBe('Publishing…');
    expect(saveStatusText({ base, saveState: 'idle' }, true)).toBe('Unsaved changes');
    expect(saveStatusText({ base, saveState: 'idle' }, false)).toBe('Saved as a draft, not published yet');
    expect(saveStatusText({ base: template({ latest_version: 2 }), saveState: 'idle' }, false)).toBe('Saved; changes since version 2 are not published');
    expect(saveStatusText({ base: template({ latest_version: 2, has_unpublished_changes: false }), saveState: 'idle' }, false)).toBe(
      'Saved and published as version 2',
    );
  });
});
