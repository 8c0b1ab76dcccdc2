// Conditional logic through the API (issue 17, parts 2 and 5): a template whose kitchen section
// and thermometer photo show only when earlier answers call for them. Saving a rule that tests a
// missing or later item, or an option that does not exist, is a 422 on the field and changes
// nothing; a required item that is hidden does not block submit; a failed item that is hidden
// opens no action and counts for nothing, though its answer is kept; lists and the detail count
// only the items that show, and the dashboard's failed items leave out hidden ones.
import { beforeAll, describe, expect, it } from 'vitest';
import { templateSnapshot } from '../templates/support.ts';
import {
  templatePath, templatesPath, answerItems, createPublishedTemplate, inspectionPath, inspectionsPath, inspectionWorldAndStranger,
  type PublishedTemplate, startInspection,
} from '../../support/fixtures.ts';
import { call, expectProblem, expectStatus, patch, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';

const KITCHEN_YES = { match: 'all', conditions: [{ item: 'has_kitchen', op: 'equals', value: 'yes' }] };

/** "Is there a kitchen?" → a kitchen section; a failing fridge temperature → a required photo of the thermometer. */
const LOGIC_DEFINITION = {
  sections: [
    {
      key: 'site',
      title: 'Site',
      items: [
        { key: 'has_kitchen', kind: 'yes_no', label: 'Is there a kitchen?', help: null, required: true, weight: 0, fail_on: null },
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
      ],
    },
    {
      key: 'kitchen',
      title: 'Kitchen',
      show_when: KITCHEN_YES,
      items: [
        { key: 'fridge_temp', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 2, min: 0, max: 5, unit: '°C' },
        {
          key: 'thermometer', kind: 'photo', label: 'Photo of the thermometer', help: null, required: true, weight: 0, max_photos: 1,
          show_when: { match: 'any', conditions: [{ item: 'fridge_temp', op: 'failed' }] },
        },
        { key: 'hood', kind: 'pass_fail', label: 'Extractor hood is clean', help: null, required: true, weight: 1 },
      ],
    },
  ],
};

describe('conditional logic', () => {
  const { world } = inspectionWorldAndStranger();
  let template: PublishedTemplate;

  beforeAll(async () => {
    template = await createPublishedTemplate(world.manager, world.org.id, LOGIC_DEFINITION, `Logic audit ${Date.now()}`);
  });

  async function running(): Promise<string> {
    const scheduled = expectStatus(await post(world.manager.client, inspectionsPath(world.org.id), { site_id: world.site.id, template_id: template.id }), 201);
    await startInspection(world, scheduled.id, world.inspector);
    return scheduled.id;
  }

  describe('rules in a template', () => {
    it('stores a rule as given, and a null rule as none', async () => {
      const definition = structuredClone(LOGIC_DEFINITION) as any;
      definition.sections[0].items[1].show_when = null;
      const created = expectStatus(await post(world.manager.client, templatesPath(world.org.id), { name: 'With logic', definition }), 201);
      expect(created.definition.sections[1].show_when).toEqual(KITCHEN_YES);
      expect(created.definition.sections[0].items[1]).not.toHaveProperty('show_when');
      expect(created.definition.sections[1].items[1].show_when).toEqual({ match: 'any', conditions: [{ item: 'fridge_temp', op: 'failed' }] });
    });

    const refusals: Array<[string, (definition: any) => void, string, string]> = [
      ['an item that does not exist', (d) => (d.sections[1].show_when.conditions[0].item = 'has_garden'),
        'definition.sections.1.show_when.conditions.0.item', 'Choose an item of this template.'],
      ['an item of its own section', (d) => (d.sections[1].show_when.conditions[0].item = 'hood'),
        'definition.sections.1.show_when.conditions.0.item', 'Choose an item from an earlier section.'],
      ['a later item', (d) => (d.sections[1].items[1].show_when.conditions[0].item = 'hood'),
        'definition.sections.1.items.1.show_when.conditions.0.item', 'Choose an item that comes before this one.'],
      ['an answer the item cannot have', (d) => (d.sections[1].show_when.conditions[0].value = 'maybe'),
        'definition.sections.1.show_when.conditions.0.value', 'Choose yes or no.'],
      ['a test that does not fit the item', (d) => (d.sections[1].show_when.conditions[0] = { item: 'has_kitchen', op: 'greater_than', value: 1 }),
        'definition.sections.1.show_when.conditions.0.op', 'Choose a condition that fits a yes / no item: equals, not_equals, answered, not_answered.'],
    ];
    for (const [what, spoil, field, message] of refusals) {
      it(`refuses a rule testing ${what}, on the field, and changes nothing`, async () => {
        const draft = expectStatus(await post(world.manager.client, templatesPath(world.org.id), { name: `Draft ${what}`, definition: LOGIC_DEFINITION }), 201);
        const before = await templateSnapshot(world.org.id);
        const definition = structuredClone(LOGIC_DEFINITION) as any;
        spoil(definition);
        const outcome = await patch(world.manager.client, templatePath(world.org.id, draft.id), { definition, base_revision: draft.revision });
        const problem = expectProblem(outcome, 422, 'validation_failed', [field]);
        expect(problem.errors[0].message).toBe(message);
        expect(await templateSnapshot(world.org.id)).toEqual(before);
      });
    }
  });

  describe('an inspection', () => {
    it('counts only the items that show, and says which are hidden', async () => {
      const id = await running();
      let detail = expectStatus(await call(world.manager.client, inspectionPath(world.org.id, id)), 200);
      expect(detail).toMatchObject({ item_count: 2, answered_count: 0, hidden_item_keys: ['fridge_temp', 'thermometer', 'hood'] });

      await answerItems(world, id, world.inspector, { has_kitchen: 'yes', fridge_temp: 9 });
      detail = expectStatus(await call(world.manager.client, inspectionPath(world.org.id, id)), 200);
      expect(detail).toMatchObject({ item_count: 5, answered_count: 2, hidden_item_keys: [], failed_count: 1, score: 0, max_score: 2 });

      const list = expectStatus(await call(world.manager.client, `${inspectionsPath(world.org.id)}?limit=200`), 200);
      expect(list.data.find((row: { id: string }) => row.id === id)).toMatchObject({ item_count: 5, answered_count: 2, hidden_item_keys: [] });
    });

    it('keeps an answer given while its item showed, but leaves it out once hidden', async () => {
      const id = await running();
      await answerItems(world, id, world.inspector, { has_kitchen: 'yes', fridge_temp: 9, hood: 'fail', floor: 'pass' });
      const dashboardBefore = expectStatus(await call(world.manager.client, `orgs/${world.org.id}/dashboard`), 200);
      await answerItems(world, id, world.inspector, { has_kitchen: 'no' });

      const detail = expectStatus(await call(world.manager.client, inspectionPath(world.org.id, id)), 200);
      expect(detail).toMatchObject({ hidden_item_keys: ['fridge_temp', 'thermometer', 'hood'], failed_count: 0, score: 1, max_score: 1, item_count: 2, answered_count: 2 });
      const kept = Object.fromEntries(detail.answers.map((answer: { item_key: string; value: unknown }) => [answer.item_key, answer.value]));
      expect(kept).toMatchObject({ fridge_temp: 9, hood: 'fail' });
      const dashboardAfter = expectStatus(await call(world.manager.client, `orgs/${world.org.id}/dashboard`), 200);
      expect(dashboardAfter.failed_items_this_week).toBe(dashboardBefore.failed_items_this_week - 2);
    });

    it('submits with a required item hidden, and opens no action for a hidden failed item', async () => {
      const id = await running();
      await answerItems(world, id, world.inspector, { has_kitchen: 'yes', fridge_temp: 9, hood: 'fail' });
      await answerItems(world, id, world.inspector, { has_kitchen: 'no', floor: 'fail' });
      const submitted = expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
      expect(submitted.status).toBe('submitted');
      const actions = await db()`select item_key from public.actions where inspection_id = ${id} order by item_key`;
      expect(actions.map((row) => row.item_key)).toEqual(['floor']);
    });

    it('refuses submit while a required item that shows is unanswered, listing only what shows', async () => {
      const id = await running();
      await answerItems(world, id, world.inspector, { has_kitchen: 'yes', floor: 'pass', fridge_temp: 9 });
      const before = await db()`select status, version from public.inspections where id = ${id}`;
      const problem = expectProblem(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 422, 'required_items_missing');
      expect(problem.missing).toEqual(['thermometer', 'hood']);
      expect(await db()`select status, version from public.inspections where id = ${id}`).toEqual(before);

      // A passing temperature hides the photo again: only the hood is left.
      await answerItems(world, id, world.inspector, { fridge_temp: 4 });
      const again = expectProblem(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 422, 'required_items_missing');
      expect(again.missing).toEqual(['hood']);
    });
  });
});
