// /api-docs: the API reference rendered from the running api's openapi.json, open without signing
// in, readable on a phone and a desktop, and left out of the offline precache.
import { describe, expect, it } from 'vitest';
import { phone, useBrowser } from './support.ts';

const { openPage } = useBrowser();

describe('the API reference', () => {
  it('lists the routes from openapi.json, signed out, at 390 px and at 1280 px', async () => {
    for (const options of [phone(), { viewport: { width: 1280, height: 900 } }]) {
      const page = await openPage(options);
      const documentRequested = page.waitForRequest((request) => request.url().endsWith('/functions/v1/api/openapi.json'));
      await page.goto('/api-docs');
      await documentRequested;
      await page.getByRole('heading', { name: 'API reference', level: 1 }).waitFor();
      // Scalar renders the document's title and its operations, each under its summary.
      await page.getByText('Fieldcheck API').first().waitFor();
      await page.getByRole('heading', { name: 'GET /me', exact: true }).first().waitFor();
      // Scalar renders operations further down only once they are scrolled to.
      const patchMe = page.getByRole('heading', { name: 'PATCH /me', exact: true }).first();
      await expect.poll(async () => {
        await page.mouse.wheel(0, 600);
        return await patchMe.isVisible();
      }, { timeout: 15_000 }).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1)).toBe(true);
    }
  });
});
