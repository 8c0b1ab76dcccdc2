// Webhooks in Settings (issue 13 parts 5 and 6): an admin makes an API key and a webhook to a
// receiver this test starts on loopback, sends a test event, and sees it delivered in the log;
// at 390 px and at 1280 px. The receiver verifies the signature with the standardwebhooks library.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver, verified } from '../api/webhooks/support.ts';
import { api, person, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('webhooks in Settings', () => {
  it('an admin creates a key and a webhook, sends a test event and sees the delivery in the log', async () => {
    const owner = await person('hooks-owner', 'Hana Owner');
    const org = await api<{ id: string; slug: string }>(owner.client, 'orgs', 'POST', { name: `Hook Co ${uniqueSuffix()}` });
    for (const [size, options] of [['phone', phone()], ['desktop', { viewport: { width: 1280, height: 900 } }]] as const) {
      const page = await openPage(options);
      await page.goto('/');
      await signInToOrganization(page, owner.email, org.slug);
      await page.goto(`/o/${org.slug}/settings`);

      const keys = page.getByRole('region', { name: 'API keys' });
      await keys.getByLabel('Name').fill(`Warehouse ${size}`);
      await keys.getByRole('button', { name: 'Create key' }).click();
      await keys.getByLabel('Your new key').waitFor();
      await keys.getByRole('button', { name: 'I have stored it' }).click();

      const hooks = page.getByRole('region', { name: 'Webhooks' });
      // A URL webhooks never go to is refused beside the field.
      await hooks.getByLabel('Endpoint URL').fill('http://169.254.169.254/latest');
      await hooks.getByRole('button', { name: 'Add endpoint' }).click();
      await hooks.getByText(/cloud metadata address/).waitFor();

      const url = `${receiver.url}?from=${size}`;
      await hooks.getByLabel('Endpoint URL').fill(url);
      await hooks.getByRole('radio', { name: 'Only the events I choose' }).check();
      await hooks.getByRole('checkbox', { name: 'inspection.submitted' }).check();
      await hooks.getByRole('button', { name: 'Add endpoint' }).click();
      await hooks.getByText(`The endpoint ${url} was added. Copy this signing secret now — it won't be shown again.`).waitFor();
      const secret = await hooks.getByLabel('Signing secret').inputValue();
      expect(secret).toMatch(/^whsec_/);
      await hooks.getByRole('button', { name: 'I have stored it' }).click();

      const item = hooks.getByRole('listitem').filter({ hasText: url });
      await item.getByText('On · inspection.submitted').waitFor();
      await item.getByRole('button', { name: 'Send test event' }).click();
      await item.getByText('A test event is on its way. It shows in the delivery log.').waitFor();
      const log = item.getByRole('list', { name: 'Deliveries' });
      await log.getByText('Delivered').waitFor({ timeout: 20_000 });
      await log.getByText('answered 200').waitFor();
      const delivery = receiver.received.find((r) => r.path.endsWith(`?from=${size}`));
      expect(verified(secret, delivery!)).toMatchObject({ type: 'webhook.test' });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    }
  });

  it('an endpoint whose answer was lost, added again, is made once; the screen says its secret was lost and how to get one', async () => {
    const owner = await person('hooks-lost', 'Lena Owner');
    const org = await api<{ id: string; slug: string }>(owner.client, 'orgs', 'POST', { name: `Lost Hook Co ${uniqueSuffix()}` });
    const page = await openPage(phone());
    await page.goto('/');
    await signInToOrganization(page, owner.email, org.slug);
    await page.goto(`/o/${org.slug}/settings`);
    // The first answer never reaches the page (the network drops it after the server has made the
    // endpoint); the second press sends the same request with the same Idempotency-Key.
    let dropped = false;
    await page.route('**/functions/v1/api/orgs/*/webhooks', async (route) => {
      if (route.request().method() !== 'POST' || dropped) return await route.continue();
      dropped = true;
      await route.fetch();
      await route.abort('failed');
    });
    const hooks = page.getByRole('region', { name: 'Webhooks' });
    const url = `${receiver.url}?from=lost`;
    await hooks.getByLabel('Endpoint URL').fill(url);
    await hooks.getByRole('button', { name: 'Add endpoint' }).click();
    await hooks.getByRole('alert').waitFor();
    await hooks.getByRole('button', { name: 'Add endpoint' }).click();
    await hooks.getByText(`The endpoint ${url} was added, but its signing secret was lost on the way. Replace its secret below to get a new one.`).waitFor();
    expect(await hooks.getByLabel('Signing secret').count()).toBe(0);
    await hooks.getByRole('button', { name: 'OK', exact: true }).click();
    const items = hooks.getByRole('listitem').filter({ hasText: url });
    await items.first().waitFor();
    expect(await items.count()).toBe(1);
    // Replacing the secret shows a new one.
    await items.getByRole('button', { name: `Replace the secret of ${url}` }).click();
    await items.getByRole('button', { name: 'Yes, replace' }).click();
    await hooks.getByText(`The secret of ${url} was replaced. Copy this signing secret now — it won't be shown again.`).waitFor();
    expect(await hooks.getByLabel('Signing secret').inputValue()).toMatch(/^whsec_/);
  });
});
