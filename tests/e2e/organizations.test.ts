// Organizations, members, invitations and sites in a real Chromium against the real stack: an owner
// builds an organization and invites an inspector through the mailed link; the inspector sees the
// sites read-only. Also the sites list's search, "near me" and archive filter, and the step-up to
// two-factor authentication that an organization requiring it asks for.
import { slugFromName } from '../../supabase/functions/_shared/schemas/organizations.ts';
import { errorCatalogue } from '../../supabase/functions/_shared/schemas/errors.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/clients.ts';
import { linkFrom, listMail, waitForMail } from '../support/mail.ts';
import { stack } from '../support/stack.ts';
import { UI_TIMEOUT, orgNav, pathIs, signUp, siteNames, submitSignUp, turnOnTotp, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function signUpAndCreateOrganization(page: Page, orgName: string): Promise<string> {
  await signUp(page, uniqueEmail('e2e-owner'));
  await page.getByLabel('Organization name').fill(orgName);
  const slug = slugFromName(orgName);
  // The slug is suggested from the name as it is typed.
  expect(await page.getByLabel('Short name for links').inputValue()).toBe(slug);
  await page.getByRole('button', { name: 'Create organization' }).click();
  await page.waitForURL(pathIs(`/o/${slug}`));
  await page.getByRole('heading', { level: 1, name: orgName }).waitFor();
  return slug;
}

interface NewSite {
  name: string;
  address?: string;
  latitude?: string;
  longitude?: string;
  externalRef?: string;
}

/** Adds a site through the form; returns the site page's path. */
async function addSite(page: Page, orgName: string, site: NewSite): Promise<string> {
  await orgNav(page, orgName).getByRole('link', { name: 'Sites' }).click();
  await page.getByRole('link', { name: 'Add site' }).click();
  await page.getByRole('heading', { level: 1, name: 'Add a site' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill(site.name);
  if (site.address) await page.getByLabel('Address').fill(site.address);
  if (site.latitude) await page.getByLabel('Latitude').fill(site.latitude);
  if (site.longitude) await page.getByLabel('Longitude').fill(site.longitude);
  if (site.externalRef) await page.getByLabel('External reference').fill(site.externalRef);
  await page.getByRole('button', { name: 'Add site' }).click();
  await page.getByRole('status').filter({ hasText: `${site.name} was added.` }).waitFor();
  await page.getByRole('heading', { level: 1, name: site.name }).waitFor();
  return new URL(page.url()).pathname;
}

/** Records the Idempotency-Key of every POST the page sends to the api function (but the preview, a read). */
function recordPostKeys(page: Page): Array<{ path: string; key: string | undefined }> {
  const posts: Array<{ path: string; key: string | undefined }> = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (request.method() === 'POST' && pathname.startsWith('/functions/v1/api/') && !pathname.endsWith('/invitations/preview')) {
      posts.push({ path: pathname, key: request.headers()['idempotency-key'] });
    }
  });
  return posts;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The row of the members table whose header cell holds `text`. */
function memberRow(page: Page, text: string) {
  return page.getByRole('row').filter({ has: page.getByRole('rowheader') }).filter({ hasText: text });
}

describe('organizations in the web app', () => {
  it('an owner signs up, creates an organization, invites a second user who accepts from the mail link, adds a site; the second user, as inspector, sees it and cannot edit it', async () => {
    const owner = await openPage();
    const ownerPosts = recordPostKeys(owner);
    const orgName = `Acme Foods ${uniqueSuffix()}`;
    const slug = await signUpAndCreateOrganization(owner, orgName);
    // The header's switcher names the current organization.
    await owner.getByRole('button', { name: `Organization: ${orgName}` }).waitFor();

    // Invite the inspector from the members page.
    const inspectorEmail = uniqueEmail('e2e-inspector');
    await orgNav(owner, orgName).getByRole('link', { name: 'Members' }).click();
    await owner.waitForURL(pathIs(`/o/${slug}/members`));
    const invitedAt = new Date(Date.now() - 1000);
    await owner.getByLabel('Email address').fill(inspectorEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption('inspector');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByRole('status').filter({ hasText: `We've sent an invitation to ${inspectorEmail}.` }).waitFor();
    await owner.getByRole('list', { name: 'Pending invitations' }).getByText(inspectorEmail).waitFor();
    const firstLink = linkFrom(
      await waitForMail({ to: inspectorEmail, subject: new RegExp(escapeRegExp(orgName)), after: invitedAt, timeoutMs: UI_TIMEOUT }),
      /\/invitations\/[A-Za-z0-9_-]+$/,
    );
    // "It never arrived": the owner sends it again, which mails a new link and retires the first.
    await owner.getByRole('button', { name: `Send the invitation for ${inspectorEmail} again` }).click();
    await owner.getByRole('status').filter({ hasText: `We've sent the invitation to ${inspectorEmail} again, with a new link.` }).waitFor();
    let link = '';
    await expect.poll(async () => {
      const links = (await listMail()).filter((m) => m.to.includes(inspectorEmail.toLowerCase())).map((m) => linkFrom(m, /\/invitations\/[A-Za-z0-9_-]+$/));
      link = links.find((candidate) => candidate !== firstLink) ?? '';
      return link;
    }, { timeout: UI_TIMEOUT }).not.toBe('');

    // The owner adds a site with a position.
    const siteName = `North warehouse ${uniqueSuffix()}`;
    const sitePath = await addSite(owner, orgName, {
      name: siteName,
      address: '1 Dock Road, London',
      latitude: '51.5072',
      longitude: '-0.1276',
      externalRef: `WH-${uniqueSuffix()}`,
    });

    // The invitee opens the mailed link signed out, signs up from it and comes back to accept.
    expect(new URL(link).origin).toBe(new URL(stack.WEB_URL).origin);
    const inspector = await openPage();
    const inspectorPosts = recordPostKeys(inspector);
    await inspector.goto(link);
    await inspector.getByRole('heading', { name: "You're invited" }).waitFor();
    await inspector.getByRole('link', { name: 'Create an account' }).click();
    await inspector.waitForURL(pathIs('/sign-up'));
    await submitSignUp(inspector, inspectorEmail);
    await inspector.waitForURL(pathIs(new URL(link).pathname));
    const details = inspector.getByRole('definition');
    await details.filter({ hasText: orgName }).waitFor();
    await details.filter({ hasText: inspectorEmail }).waitFor();
    await details.filter({ hasText: /^Inspector$/ }).waitFor();
    await inspector.getByRole('button', { name: 'Accept invitation' }).click();
    await inspector.waitForURL(pathIs(`/o/${slug}`));
    await inspector.getByRole('heading', { level: 1, name: orgName }).waitFor();
    await inspector.getByText("You're an inspector here.").waitFor();

    // The inspector sees the site, with its map link, and no way to add or change sites.
    await orgNav(inspector, orgName).getByRole('link', { name: 'Sites' }).click();
    await inspector.waitForURL(pathIs(`/o/${slug}/sites`));
    const siteLink = inspector.getByRole('list', { name: 'Sites' }).getByRole('link', { name: siteName, exact: true });
    await siteLink.waitFor();
    expect(await inspector.getByRole('link', { name: `Open map for ${siteName} (opens in a new tab)` }).getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=51.5072&mlon=-0.1276#map=17/51.5072/-0.1276',
    );
    expect(await inspector.getByRole('link', { name: 'Add site' }).count()).toBe(0);
    await siteLink.click();
    await inspector.waitForURL(pathIs(sitePath));
    await inspector.getByRole('heading', { level: 1, name: siteName }).waitFor();
    await inspector.getByText('1 Dock Road, London').waitFor();
    expect(await inspector.getByRole('textbox').count()).toBe(0);
    expect(await inspector.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await inspector.getByRole('button', { name: 'Archive site' }).count()).toBe(0);
    // Typing the new-site address gives a refusal, not a form.
    await inspector.goto(`/o/${slug}/sites/new`);
    await inspector.getByRole('alert').filter({ hasText: errorCatalogue.forbidden.title }).waitFor();
    expect(await inspector.getByRole('textbox').count()).toBe(0);

    // Both see both members with their roles; only the owner can change roles or invite.
    await inspector.goto(`/o/${slug}/members`);
    await memberRow(inspector, inspectorEmail).getByText('Inspector', { exact: true }).waitFor();
    await memberRow(inspector, '(you)').waitFor();
    expect(await inspector.getByRole('row').filter({ hasText: 'Owner' }).count()).toBe(1);
    expect(await inspector.getByRole('combobox').count()).toBe(0);
    expect(await inspector.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    // With a membership, the start page opens the organization used last.
    await inspector.goto('/');
    await inspector.waitForURL(pathIs(`/o/${slug}`));

    await owner.goto(`/o/${slug}/members`);
    const inspectorRole = memberRow(owner, inspectorEmail).getByRole('combobox');
    await expect.poll(() => inspectorRole.inputValue(), { timeout: UI_TIMEOUT }).toBe('inspector');
    expect(await owner.getByRole('row').filter({ has: owner.getByRole('rowheader') }).count()).toBe(2);
    // The accepted invitation no longer waits.
    await owner.getByText('No invitations are waiting for an answer.').waitFor();

    // Every POST (create organization, invite, send again, add site, accept) carried its own Idempotency-Key.
    const posts = [...ownerPosts, ...inspectorPosts];
    expect(posts.map((post) => post.path.replace(/[0-9a-f-]{36}/g, ':id'))).toEqual([
      '/functions/v1/api/orgs',
      '/functions/v1/api/orgs/:id/invitations',
      '/functions/v1/api/orgs/:id/invitations/:id/resend',
      '/functions/v1/api/orgs/:id/sites',
      '/functions/v1/api/invitations/accept',
    ]);
    for (const post of posts) expect(post.key).toMatch(UUID);
    expect(new Set(posts.map((post) => post.key)).size).toBe(posts.length);
  });

  it('the sites list searches as you type, sorts by distance from the browser position and filters archived sites', async () => {
    // The browser reports a position in central London.
    const owner = await openPage({ geolocation: { latitude: 51.5033, longitude: -0.1196 }, permissions: ['geolocation'] });
    const orgName = `Survey Co ${uniqueSuffix()}`;
    const slug = await signUpAndCreateOrganization(owner, orgName);
    const farPath = await addSite(owner, orgName, { name: 'Alpha depot', address: 'Leeds', latitude: '53.8008', longitude: '-1.5491' });
    await addSite(owner, orgName, { name: 'Zulu yard', address: 'Lambeth, London', latitude: '51.5010', longitude: '-0.1160' });
    await addSite(owner, orgName, { name: 'Mobile unit' });

    await owner.goto(`/o/${slug}/sites`);
    const list = owner.getByRole('list', { name: 'Sites' });
    const names = siteNames(owner);
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Alpha depot', 'Mobile unit', 'Zulu yard']);

    await owner.getByLabel('Search sites').fill('lond');
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Zulu yard']);
    await owner.getByLabel('Search sites').fill('');
    await expect.poll(names, { timeout: UI_TIMEOUT }).toHaveLength(3);

    await owner.getByRole('button', { name: 'Near me' }).click();
    await owner.getByRole('status').filter({ hasText: 'nearest first' }).waitFor();
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Zulu yard', 'Alpha depot', 'Mobile unit']);
    await list.getByText(/^\d+ m away$/).waitFor();
    await list.getByText(/km away$/).waitFor();
    await list.getByText('No position recorded').waitFor();

    // Archiving moves a site from the active list to the archived one.
    await owner.goto(farPath);
    await owner.getByRole('button', { name: 'Archive site' }).click();
    await owner.getByRole('button', { name: 'Yes, archive' }).click();
    await owner.getByRole('status').filter({ hasText: 'The site was archived.' }).waitFor();
    await owner.goto(`/o/${slug}/sites`);
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Mobile unit', 'Zulu yard']);
    await owner.getByLabel('Show').selectOption('true');
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Alpha depot']);
    await owner.getByLabel('Show').selectOption('all');
    await expect.poll(names, { timeout: UI_TIMEOUT }).toEqual(['Alpha depot', 'Mobile unit', 'Zulu yard']);
  });

  it('problems show beside their fields: a taken slug and external reference from the API, a bad latitude before any request', async () => {
    const owner = await openPage();
    const orgName = `Field Ops ${uniqueSuffix()}`;
    const slug = await signUpAndCreateOrganization(owner, orgName);

    // Same slug again: 409 duplicate, worded by the catalogue, beside the slug field.
    await owner.getByRole('link', { name: 'Organizations', exact: true }).click();
    await owner.getByLabel('Organization name').fill(`${orgName} two`);
    await owner.getByLabel('Short name for links').fill(slug);
    await owner.getByRole('button', { name: 'Create organization' }).click();
    await owner.getByText('An organization with that slug already exists.').waitFor();
    expect(await owner.getByLabel('Short name for links').getAttribute('aria-invalid')).toBe('true');
    expect(new URL(owner.url()).pathname).toBe('/orgs');

    const externalRef = `REF-${uniqueSuffix()}`;
    await owner.goto(`/o/${slug}`);
    await addSite(owner, orgName, { name: 'First site', externalRef });
    await orgNav(owner, orgName).getByRole('link', { name: 'Sites' }).click();
    await owner.getByRole('link', { name: 'Add site' }).click();
    await owner.getByLabel('Name', { exact: true }).fill('Second site');
    await owner.getByLabel('Latitude').fill('95');
    await owner.getByLabel('Longitude').fill('10');
    await owner.getByLabel('External reference').fill(externalRef);
    let siteCreations = 0;
    owner.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/orgs\/[^/]+\/sites$/.test(new URL(request.url()).pathname)) siteCreations += 1;
    });
    await owner.getByRole('button', { name: 'Add site' }).click();
    // Checked by the shared schema in the browser: nothing is sent.
    await owner.getByText('Enter a latitude from -90 to 90.').waitFor();
    expect(await owner.getByLabel('Latitude').getAttribute('aria-invalid')).toBe('true');
    expect(siteCreations).toBe(0);

    await owner.getByLabel('Latitude').fill('45');
    await owner.getByRole('button', { name: 'Add site' }).click();
    await owner.getByText('A site with that external ref already exists.').waitFor();
    expect(siteCreations).toBe(1);
    expect(await owner.getByLabel('External reference').getAttribute('aria-invalid')).toBe('true');
    expect(await owner.getByLabel('Latitude').getAttribute('aria-invalid')).toBeNull();
  });

  it('requiring two-factor authentication without an authenticator sends the owner to set one up, and the setting saves after', async () => {
    const owner = await openPage();
    const orgName = `Secure Labs ${uniqueSuffix()}`;
    const slug = await signUpAndCreateOrganization(owner, orgName);
    await orgNav(owner, orgName).getByRole('link', { name: 'Settings' }).click();
    await owner.waitForURL(pathIs(`/o/${slug}/settings`));

    const requireMfa = owner.getByLabel('Require two-factor authentication');
    await requireMfa.check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    // An aal1 session may not turn it on; with no authenticator there is no code to ask for yet.
    await owner.waitForURL(pathIs('/account'));
    await owner.getByRole('alert').filter({ hasText: 'This organization requires two-factor authentication.' }).waitFor();

    await turnOnTotp(owner);

    await owner.getByRole('link', { name: 'Back to where you were' }).click();
    await owner.waitForURL(pathIs(`/o/${slug}/settings`));
    await owner.getByLabel('Require two-factor authentication').check();
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByRole('status').filter({ hasText: 'The settings have been saved.' }).waitFor();
    await owner.reload();
    await expect.poll(() => owner.getByLabel('Require two-factor authentication').isChecked(), { timeout: UI_TIMEOUT }).toBe(true);
  });
});
