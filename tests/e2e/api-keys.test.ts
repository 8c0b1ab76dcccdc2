// API keys in Settings (issue 13 part 5, keys): an admin makes a key at 390 px and at 1280 px,
// sees its secret once with a copy button, the key calls the API, and revoking it there stops it.
import { describe, expect, it } from 'vitest';
import { stack } from '../support/stack.ts';
import { api, person, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

/** A call of the api with the key, as another service would make it (plain HTTP, loopback only). */
async function callWithKey(secret: string, route: string): Promise<number> {
  const response = await fetch(`${stack.FUNCTIONS_URL}/api/${route}`, { headers: { authorization: `Bearer ${secret}` } });
  await response.arrayBuffer();
  return response.status;
}

describe('API keys in Settings', () => {
  it('an admin creates a key, copies its secret shown once, the key works, and revoking it stops it; at 390 px and 1280 px', async () => {
    const owner = await person('keys-owner', 'Olive Owner');
    const org = await api<{ id: string; slug: string }>(owner.client, 'orgs', 'POST', { name: `Key Co ${uniqueSuffix()}` });
    for (const [size, options] of [['phone', phone()], ['desktop', { viewport: { width: 1280, height: 900 } }]] as const) {
      const page = await openPage(options, (context) => context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.WEB_URL }));
      await page.goto('/');
      await signInToOrganization(page, owner.email, org.slug);
      await page.goto(`/o/${org.slug}/settings`);
      const panel = page.getByRole('region', { name: 'API keys' });
      await panel.getByText('No keys yet.').or(panel.getByRole('list', { name: 'API keys' })).first().waitFor();

      // Bad input first: no name.
      await panel.getByRole('button', { name: 'Create key' }).click();
      await panel.getByText('Enter a name, e.g. the service that will use the key.').waitFor();

      const name = `Warehouse ${size}`;
      await panel.getByLabel('Name').fill(name);
      await panel.getByLabel('Role').selectOption('manager');
      await panel.getByText('A manager key creates sites and templates').waitFor();
      await panel.getByRole('button', { name: 'Create key' }).click();
      await panel.getByText(`The key "${name}" was created. Copy this key now — it won't be shown again.`).waitFor();
      const secret = await panel.getByLabel('Your new key').inputValue();
      expect(secret).toMatch(/^fck_[A-Za-z0-9_-]{43}$/);
      await panel.getByRole('button', { name: 'Copy', exact: true }).click();
      await panel.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);

      // The key works as a manager of this organization.
      expect(await callWithKey(secret, `orgs/${org.id}/sites`)).toBe(200);

      await panel.getByRole('button', { name: 'I have stored it' }).click();
      await expect.poll(() => panel.getByLabel('Your new key').count()).toBe(0);
      const row = panel.getByRole('listitem').filter({ hasText: name });
      await row.getByText(secret.slice(0, 12)).waitFor();
      await expect.poll(() => row.textContent()).toContain('Manager · Active');
      await row.getByRole('button', { name: `Revoke the key ${name}` }).click();
      await row.getByRole('button', { name: 'Yes, revoke' }).click();
      await panel.getByText(`${name} was revoked.`).waitFor();
      await expect.poll(() => row.textContent()).toContain('Manager · Revoked');
      expect(await callWithKey(secret, `orgs/${org.id}/sites`)).toBe(401);
    }
  });
});
