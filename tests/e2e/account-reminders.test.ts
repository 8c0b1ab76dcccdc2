// The account page's reminder emails (issue 26 part 5; docs/schedules.md, "Reminders"), in
// Chromium at 390 px and at 1280 px: each kind is a labelled checkbox with its hint, all on at
// first; switched and saved from the keyboard alone; the page says what was saved; the choice is
// stored (the api's row) and shown again after a reload; nothing scrolls sideways; axe finds
// nothing in the section.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import postgres from 'postgres';
import { afterAll, expect, it } from 'vitest';
import { stack } from '../support/stack.ts';
import { isFocused, person, phone, submitSignIn, useBrowser } from './support.ts';

const sql = postgres(stack.DB_URL, { max: 1, onnotice: () => {} });
const { openPage } = useBrowser();
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

afterAll(async () => {
  await sql.end();
});

async function axeViolationsIn(page: Page, selector: string): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  return await page.evaluate(async (selector) => {
    const axe = (window as unknown as { axe: { run: (context: Element, options: object) => Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run(document.querySelector(selector)!, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } });
    return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
  }, selector);
}

const screens = [
  ['a phone, 390 px wide', phone()],
  ['a desktop, 1280 px wide', { viewport: { width: 1280, height: 900 } }],
] as const;

for (const [screen, options] of screens) {
  it(`on ${screen}: reminder emails are switched and saved from the keyboard, the page says what was saved, and it stays saved`, async () => {
    const me = await person('reminders', 'Rhea Reminder');
    const page = await openPage(options);
    await submitSignIn(page, me.email);
    await page.waitForURL((url) => url.pathname !== '/sign-in');
    await page.goto('/account');
    const section = page.getByRole('region', { name: 'Reminder emails' });
    const group = section.getByRole('group', { name: 'Email me about scheduled inspections' });
    const boxes = {
      opened: group.getByRole('checkbox', { name: 'When a scheduled inspection opens' }),
      dueSoon: group.getByRole('checkbox', { name: '24 hours before one is due' }),
      missed: group.getByRole('checkbox', { name: 'When one is missed' }),
      digest: group.getByRole('checkbox', { name: "Daily digest of yesterday's missed inspections" }),
    };
    await boxes.opened.waitFor();
    for (const box of Object.values(boxes)) expect(await box.isChecked()).toBe(true);
    // Each box is described by its hint, which a screen reader reads with it.
    const hintId = await boxes.dueSoon.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${hintId}"]`).textContent()).toBe('If it has not been submitted yet.');

    // Keyboard only: focus the first box, move with Tab, switch with Space, save with Enter.
    await boxes.opened.focus();
    await page.keyboard.press('Tab');
    expect(await isFocused(boxes.dueSoon)).toBe(true);
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    const save = section.getByRole('button', { name: 'Save reminder emails' });
    expect(await isFocused(save)).toBe(true);
    await page.keyboard.press('Enter');
    await section.getByRole('status').filter({ hasText: 'Saved. You get 2 of the 4 reminder emails.' }).waitFor();

    const [row] = await sql`
      select occurrence_opened, occurrence_due_soon, occurrence_missed, missed_digest from public.notification_preferences where user_id = ${me.userId}
    `;
    expect(row).toEqual({ occurrence_opened: true, occurrence_due_soon: false, occurrence_missed: true, missed_digest: false });
    // A change after saving takes the "saved" message away: it no longer describes the boxes.
    await boxes.missed.click();
    await expect.poll(() => section.getByRole('status').count()).toBe(0);

    await page.reload();
    await boxes.opened.waitFor();
    expect([await boxes.opened.isChecked(), await boxes.dueSoon.isChecked(), await boxes.missed.isChecked(), await boxes.digest.isChecked()])
      .toEqual([true, false, true, false]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    expect(await axeViolationsIn(page, 'section[aria-labelledby="reminders-heading"]')).toEqual([]);
  });
}
