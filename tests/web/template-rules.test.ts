// The template editor's side of visibility rules (issue 17, part 3), in Node: a definition with a
// rule of every test survives the editor's draft and comes back as the same body (so opening a
// template never shows "Unsaved changes"), rules read in plain words, and problems of a rule's
// fields are placed beside those fields.
import { definitionSchema, evaluateVisibility, type TemplateDefinition } from '@schemas/templates';
import { describe, expect, it } from 'vitest';
import { draftBody, draftFingerprint, draftFromTemplate } from '../../web/src/features/templates/utils/draft';
import { placeErrors } from '../../web/src/features/templates/utils/field-errors';
import { ruleWords } from '../../web/src/features/templates/utils/rule-format';
import { draftRuleWords } from '../../web/src/features/templates/components/rule-editor';

const definition: TemplateDefinition = definitionSchema.parse({
  sections: [
    {
      key: 'site',
      title: 'Site',
      items: [
        { key: 'kitchen', kind: 'yes_no', label: 'Is there a kitchen?' },
        { key: 'temp', kind: 'number', label: 'Fridge temperature', min: 0, max: 5, unit: '°C' },
        { key: 'hazards', kind: 'multi_choice', label: 'Hazards', options: ['Wet floor', 'Blocked exit'], failing_options: ['Wet floor'] },
        { key: 'grade', kind: 'pass_fail', label: 'Floor', show_when: { match: 'any', conditions: [
          { item: 'kitchen', op: 'equals', value: 'yes' },
          { item: 'temp', op: 'not_equals', value: 4.5 },
          { item: 'hazards', op: 'one_of', values: ['Wet floor', 'Blocked exit'] },
          { item: 'hazards', op: 'none_of', values: ['Blocked exit'] },
        ] } },
      ],
    },
    {
      key: 'kitchen-checks',
      title: 'Kitchen',
      show_when: { match: 'all', conditions: [
        { item: 'temp', op: 'less_than', value: -1 },
        { item: 'temp', op: 'greater_than', value: 10 },
        { item: 'temp', op: 'between', min: 0, max: 5 },
        { item: 'temp', op: 'failed' },
        { item: 'grade', op: 'answered' },
        { item: 'kitchen', op: 'not_answered' },
      ] },
      items: [{ key: 'hood', kind: 'pass_fail', label: 'Hood' }],
    },
  ],
});
const template = { name: 'Diner', description: null, definition };

describe('rules in the template editor', () => {
  it('come back from the draft as the same definition, so a template opens without unsaved changes', () => {
    const draft = draftFromTemplate(template);
    const body = draftBody(draft) as { definition: unknown };
    expect(definitionSchema.parse(body.definition)).toEqual(definition);
    expect(draftFingerprint(draftFromTemplate({ ...template, definition: definitionSchema.parse(body.definition) }))).toBe(draftFingerprint(draft));
  });

  it('send no show_when for an item or section without a rule', () => {
    const body = draftBody(draftFromTemplate(template)) as { definition: { sections: Array<Record<string, unknown> & { items: Record<string, unknown>[] }> } };
    expect(body.definition.sections[0]).not.toHaveProperty('show_when');
    expect(body.definition.sections[0].items[0]).not.toHaveProperty('show_when');
  });

  it('read in plain words, from the definition and from the draft alike', () => {
    const items = new Map(definition.sections.flatMap((section) => section.items).map((item) => [item.key, item]));
    expect(ruleWords(definition.sections[0].items[3].show_when!, (key) => items.get(key))).toBe(
      'Show when “Is there a kitchen?” is Yes or “Fridge temperature” is not 4.5 or “Hazards” includes any of Wet floor or Blocked exit or “Hazards” includes none of Blocked exit',
    );
    expect(ruleWords(definition.sections[1].show_when!, (key) => items.get(key))).toBe(
      'Show when “Fridge temperature” is less than -1 and “Fridge temperature” is more than 10 and “Fridge temperature” is between 0 and 5 and “Fridge temperature” fails and “Floor” is answered and “Is there a kitchen?” is not answered',
    );
    const draft = draftFromTemplate(template);
    const draftItems = new Map(draft.sections.flatMap((section) => section.items).map((item) => [item.key, item]));
    expect(draftRuleWords(draft.sections[1].rule!, draftItems)).toBe(ruleWords(definition.sections[1].show_when!, (key) => items.get(key)));
  });

  it('say nothing for a condition still being filled in', () => {
    const draft = draftFromTemplate(template);
    const items = new Map(draft.sections.flatMap((section) => section.items).map((item) => [item.key, item]));
    expect(draftRuleWords({ match: 'all', conditions: [{ id: 'c', item: 'kitchen', op: 'equals', value: '', values: [], min: '', max: '' }] }, items)).toBeNull();
  });

  it('have their problems placed beside the field, a list\'s answer beside its list', () => {
    const placed = placeErrors({
      'definition.sections.1.show_when.conditions.0.item': 'Choose an item from an earlier section.',
      'definition.sections.0.items.3.show_when.conditions.2.values.1': 'Choose one of the item\'s options.',
      'definition.sections.0.items.3.show_when.match': 'Choose all or any.',
      'definition.sections.0.items.3.show_when': 'Describe the rule as an object with match and conditions, or leave it out.',
    });
    expect(placed.elsewhere).toEqual([]);
    expect(Object.keys(placed.byPath).sort()).toEqual([
      'definition.sections.0.items.3.show_when',
      'definition.sections.0.items.3.show_when.conditions.2.values',
      'definition.sections.0.items.3.show_when.match',
      'definition.sections.1.show_when.conditions.0.item',
    ]);
  });
});

describe('the evaluator the editor preview and the run page share', () => {
  it('shows the kitchen section only when its conditions all hold', () => {
    const hidden = (answers: Record<string, unknown>) => evaluateVisibility(definition, (key) => answers[key]).hiddenSections;
    expect(hidden({})).toEqual(['kitchen-checks']);
    expect(hidden({ temp: 7, grade: 'pass' })).toEqual(['kitchen-checks']);
  });
});
