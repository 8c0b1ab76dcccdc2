// The compliance table of a site's page (and a schedule's): choosing another period keeps the
// keyboard on the Period select, so a keyboard user can step through the periods.
import { describe, expect, it } from 'vitest';
import { api, isFocused, person, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

describe('the compliance table', () => {
  it('keeps the focus on the Period select when the period changes', async () => {
    const suffix = uniqueSuffix();
    const manager = await person('compliance-manager', `Cora Compliance ${suffix}`);
    const organization = await api<{ id: string; slug: string }>(manager.client, 'orgs', 'POST', { name: `Tally Works ${suffix}` });
    const site = await api<{ id: string }>(manager.client, `orgs/${organization.id}/sites`, 'POST', { name: `Counting house ${suffix}` });

    const page = await openPage({ viewport: { width: 1280, height: 900 } });
    await signInToOrganization(page, manager.email, organization.slug);
    await page.goto(`/o/${organization.slug}/sites/${site.id}`);
    const compliance = page.getByRole('region', { name: 'Compliance' });
    const period = compliance.getByRole('combobox', { name: 'Period' });
    await period.focus();
    await period.selectOption('7');
    await compliance.getByText(/^No occurrence of a schedule was due here in this period\.$/).waitFor();
    expect(await period.inputValue()).toBe('7');
    expect(await isFocused(period)).toBe(true);

    // From the keyboard: the next period, and the focus stays for the one after.
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => period.inputValue()).toBe('30');
    expect(await isFocused(period)).toBe(true);
  });
});
