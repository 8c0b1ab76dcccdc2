// The first load's weight (issue 12, part 6; docs/offline.md "Weight"): the gzip size of every
// script a first visit fetches until the page shows its content, in the production build the
// suite serves. A size, not a time: it does not depend on the machine. Each page is held to the
// issue's 150 KB, so a change that makes the first load heavier fails here, not in a bench run.
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, person, phone, signInToOrganization, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();
const BUDGET_KB = 150;

/** Gzip KB of the app's scripts `page` fetches while `load` runs. */
async function scriptKb(page: Page, load: () => Promise<void>): Promise<number> {
  const sizes: Array<Promise<number>> = [];
  const seen = new Set<string>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (response.request().resourceType() !== 'script' || !url.pathname.startsWith('/assets/') || seen.has(url.pathname)) return;
    seen.add(url.pathname);
    sizes.push(response.body().then((body) => gzipSync(body, { level: 9 }).length, () => 0));
  });
  await load();
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  return bytes / 1024;
}

describe('the first load', () => {
  it(`of sign-in, the dashboard and the run page carries at most ${BUDGET_KB} KB of gzipped JavaScript`, async () => {
    const suffix = uniqueSuffix();
    const inspector = await person('weight-inspector', `Wes Weight ${suffix}`);
    const organization = await api<{ id: string; slug: string }>(inspector.client, 'orgs', 'POST', { name: `Weigh Station ${suffix}` });
    const site = await api<{ id: string }>(inspector.client, `orgs/${organization.id}/sites`, 'POST', { name: `Scale house ${suffix}` });
    const definition = { sections: [{ key: 's', title: 'Scale', items: [{ key: 'level', kind: 'pass_fail', label: 'Scale is level', help: null, required: true, weight: 1 }] }] };
    const template = await api<{ id: string }>(inspector.client, `orgs/${organization.id}/templates`, 'POST', { name: `Scale check ${suffix}`, definition });
    await api(inspector.client, `orgs/${organization.id}/templates/${template.id}/publish`, 'POST');
    const inspection = await api<{ id: string }>(inspector.client, `orgs/${organization.id}/inspections`, 'POST', {
      site_id: site.id,
      template_id: template.id,
      assignee_id: inspector.userId,
      title: `Scale walk ${suffix}`,
    });
    await api(inspector.client, `orgs/${organization.id}/inspections/${inspection.id}/start`, 'POST', {});

    // A first visit: no cache, no service worker.
    const signIn = await openPage({ ...phone(), serviceWorkers: 'block' });
    const signInKb = await scriptKb(signIn, async () => {
      await signIn.goto('/sign-in');
      await signIn.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    });
    await signInToOrganization(signIn, inspector.email, organization.slug);
    const session = await signIn.context().storageState();

    const dashboard = await openPage({ ...phone(), serviceWorkers: 'block', storageState: session });
    const dashboardKb = await scriptKb(dashboard, async () => {
      await dashboard.goto(`/o/${organization.slug}`);
      await dashboard.getByRole('link', { name: /My open actions/ }).waitFor();
    });

    const run = await openPage({ ...phone(), serviceWorkers: 'block', storageState: session });
    const runKb = await scriptKb(run, async () => {
      await run.goto(`/o/${organization.slug}/inspections/${inspection.id}`);
      await run.getByRole('group', { name: 'Scale is level', exact: true }).waitFor();
    });

    console.log(`first load, gzipped JS: sign-in ${signInKb.toFixed(2)} KB, dashboard ${dashboardKb.toFixed(2)} KB, run page ${runKb.toFixed(2)} KB`);
    expect(signInKb).toBeGreaterThan(0);
    expect(signInKb).toBeLessThanOrEqual(BUDGET_KB);
    expect(dashboardKb).toBeLessThanOrEqual(BUDGET_KB);
    expect(runKb).toBeLessThanOrEqual(BUDGET_KB);
  });
});
