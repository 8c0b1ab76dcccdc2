// The template editor (issue 5) in real Chromium against the real stack: its sections are an
// accordion driven from the keyboard, problems show beside the field they are about, and only
// managers get an editor. The organization, its members and the templates are made through the
// API and SQL; everything asserted happens in the UI.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { closeDb } from '../support/database.ts';
import { team, type User } from '../support/fixtures.ts';
import { api, isFocused, PASSWORD, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

// team() writes memberships through the shared connection.
afterAll(closeDb);

interface Editors {
  orgId: string;
  slug: string;
  manager: User;
  inspector: User;
}

/** An owner's organization with a manager and an inspector. */
async function organization(): Promise<Editors> {
  const suffix = uniqueSuffix();
  const { org, members } = await team({
    label: 'tpl',
    org: `Template Works ${suffix}`,
    owner: `Ada Owner ${suffix}`,
    members: { manager: ['manager', `Ben Manager ${suffix}`], inspector: ['inspector', `Ivy Inspector ${suffix}`] },
    password: PASSWORD,
  });
  return { orgId: org.id, slug: org.slug, ...members };
}

const twoSections = {
  sections: [
    {
      key: 'kitchen',
      title: 'Kitchen',
      items: [
        { key: 'handwash', kind: 'pass_fail', label: 'Hand-wash station stocked', help: null, required: true, weight: 1 },
        { key: 'fridge', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 1, min: 0, max: 5, unit: '°C' },
      ],
    },
    {
      key: 'storage',
      title: 'Storage',
      items: [{ key: 'labels', kind: 'yes_no', label: 'Everything labelled', help: null, required: false, weight: 1, fail_on: 'no' }],
    },
  ],
};

async function createTemplate(editors: Editors, definition: unknown = twoSections, publish = false): Promise<{ id: string; name: string }> {
  const name = `Opening checks ${uniqueSuffix()}`;
  const template = await api<{ id: string }>(editors.manager.client, `orgs/${editors.orgId}/templates`, 'POST', { name, definition });
  if (publish) await api(editors.manager.client, `orgs/${editors.orgId}/templates/${template.id}/publish`, 'POST');
  return { id: template.id, name };
}

async function openTemplate(page: Page, editors: Editors, email: string, template: { id: string; name: string }) {
  await signInToOrganization(page, email, editors.slug);
  await page.goto(`/o/${editors.slug}/templates/${template.id}`);
  await page.getByRole('heading', { level: 1, name: template.name }).waitFor();
}

/** The text of the elements that describe a control (its hint and error), by aria-describedby. */
async function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

describe('the template editor', () => {
  let editors: Editors;

  beforeEach(async () => {
    editors = await organization();
  });

  it('opens and closes its sections from the keyboard, with aria-expanded following', async () => {
    const template = await createTemplate(editors);
    const page = await openPage();
    await openTemplate(page, editors, editors.manager.email, template);

    const kitchen = page.getByRole('button', { name: /^Kitchen\s*2 items$/ });
    const storage = page.getByRole('button', { name: /^Storage\s*1 item$/ });
    // The first section starts open, the others closed.
    expect(await kitchen.getAttribute('aria-expanded')).toBe('true');
    expect(await storage.getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('region', { name: /^Kitchen/ }).getByRole('group', { name: 'Item 1 · Pass / fail', exact: true }).waitFor();

    await kitchen.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => kitchen.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('region', { name: /^Kitchen/ }).count()).toBe(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => kitchen.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('region', { name: /^Kitchen/ }).waitFor();

    // Arrow keys move between the section headers; Space opens the one with focus.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => isFocused(storage)).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => storage.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('region', { name: /^Storage/ }).getByRole('group', { name: 'Item 1 · Yes / no', exact: true }).waitFor();
    // Several sections can be open at once.
    expect(await kitchen.getAttribute('aria-expanded')).toBe('true');
    // The trigger controls the region it names.
    const controlled = await storage.getAttribute('aria-controls');
    expect(await page.getByRole('region', { name: /^Storage/ }).getAttribute('id')).toBe(controlled);
  });

  it('shows each problem beside its field: an empty label, and a choice item without options, which is neither saved nor published', async () => {
    const template = await createTemplate(editors);
    const page = await openPage();
    await openTemplate(page, editors, editors.manager.email, template);
    const kitchen = page.getByRole('region', { name: /^Kitchen/ });

    // An item added without a label: saving shows the problem at the label and moves focus there.
    await kitchen.getByLabel('New item kind').selectOption({ label: 'Pass / fail' });
    await kitchen.getByRole('button', { name: 'Add item' }).click();
    const unlabelled = kitchen.getByRole('group', { name: 'Item 3 · Pass / fail', exact: true });
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('alert').filter({ hasText: 'Some fields need attention.' }).waitFor();
    const label = unlabelled.getByLabel('Label', { exact: true });
    await expect.poll(() => label.getAttribute('aria-invalid')).toBe('true');
    expect(await descriptionOf(label)).toContain('Enter a label.');
    await expect.poll(() => isFocused(label)).toBe(true);
    // Only that field: its neighbours are fine.
    expect(await kitchen.getByRole('group', { name: 'Item 1 · Pass / fail', exact: true }).getByLabel('Label', { exact: true }).getAttribute('aria-invalid')).toBeNull();
    // The section's header says it needs attention, and nothing was saved.
    await page.getByRole('button', { name: /^Kitchen\s*Needs attention/ }).waitFor();
    await page.locator('.template-save-state').filter({ hasText: 'Unsaved changes' }).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Draft saved.' }).count()).toBe(0);
    await label.fill('Floor dry');

    // A choice item whose only option is removed: publishing shows the problem at its options.
    await kitchen.getByLabel('New item kind').selectOption({ label: 'Single choice' });
    await kitchen.getByRole('button', { name: 'Add item' }).click();
    const choice = kitchen.getByRole('group', { name: 'Item 4 · Single choice', exact: true });
    await choice.getByLabel('Label', { exact: true }).fill('Floor condition');
    await choice.getByRole('button', { name: 'Remove option 1' }).click();
    expect(await choice.getByLabel('Option 1', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('alert').filter({ hasText: 'Some fields need attention.' }).waitFor();
    const options = choice.getByRole('group', { name: 'Options', exact: true });
    await options.getByRole('alert').filter({ hasText: 'Add at least one option.' }).waitFor();
    await expect.poll(() => descriptionOf(options)).toContain('Add at least one option.');
    expect(await page.getByRole('status').filter({ hasText: /published/ }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Published versions' }).count()).toBe(0);

    // Fixed, it publishes: version 1, with the problems gone.
    await choice.getByRole('button', { name: 'Add option' }).click();
    await choice.getByLabel('Option 1', { exact: true }).fill('Dry');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 published.' }).waitFor();
    expect(await page.locator('.template-editor .field-error').count()).toBe(0);
    await page.getByRole('heading', { name: 'Published versions' }).waitFor();
  });

  it('shows an inspector the template read-only, without the editor', async () => {
    const template = await createTemplate(editors, twoSections, true);
    const page = await openPage();
    await openTemplate(page, editors, editors.inspector.email, template);

    await page.getByText('Only owners, admins and managers can change templates.').waitFor();
    await page.getByText('Hand-wash station stocked').first().waitFor();
    await page.getByRole('heading', { name: 'Published versions' }).waitFor();
    expect(await page.getByRole('button', { name: 'Save draft' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Publish' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Add section' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Archive template' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);
    expect(await page.getByRole('form', { name: 'Template editor' }).count()).toBe(0);
    // Nor can an inspector start a new template from the list.
    await page.getByRole('link', { name: 'Back to templates' }).click();
    await page.getByRole('heading', { level: 1, name: 'Templates' }).waitFor();
    await page.getByRole('list', { name: 'Templates' }).getByRole('link', { name: new RegExp(template.name) }).waitFor();
    expect(await page.getByRole('button', { name: 'New template' }).count()).toBe(0);
  });
});
