// The live organization (issue 4) in two real Chromium profiles against the real stack: what one
// member changes shows up on the other member's open pages without a reload, through the database's
// broadcasts on the private topic org:<id>; presence says who else is looking at a site. Users and
// the organization are made through the API, the second membership straight in the database (the
// invitation flow has its own e2e in organizations.test.ts); everything asserted happens in the UI.
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { closeDb } from '../support/database.ts';
import { createSite, team, type User } from '../support/fixtures.ts';
import { api, orgNav, PASSWORD, siteNames, submitSignIn, UI_TIMEOUT, uniqueSuffix, useBrowser } from './support.ts';

const { openPage } = useBrowser();

// team() writes memberships through the shared connection.
afterAll(closeDb);

interface LiveOrganization {
  id: string;
  slug: string;
  name: string;
  owner: User;
  manager: User;
}

/** An owner's organization with a site, and a manager in it. */
async function organizationOfTwo(): Promise<LiveOrganization & { siteId: string; siteName: string }> {
  const suffix = uniqueSuffix();
  const name = `Live Foods ${suffix}`;
  const { org, owner, members } = await team({
    label: 'live',
    org: name,
    owner: `Ada Owner ${suffix}`,
    members: { manager: ['manager', `Ben Manager ${suffix}`] },
    password: PASSWORD,
  });
  const siteName = `Cold store ${suffix}`;
  const site = await createSite(owner, org.id, { name: siteName });
  return { id: org.id, slug: org.slug, name, owner, manager: members.manager, siteId: site.id, siteName };
}

/** A realtime text frame (vsn 2.0.0: `[join_ref, ref, topic, event, payload]`) of `org:<orgId>`, else null. */
function orgFrame(payload: string | Buffer, orgId: string): unknown[] | null {
  if (typeof payload !== 'string' || !payload.startsWith('[')) return null;
  const frame = JSON.parse(payload) as unknown[];
  return frame[2] === `realtime:org:${orgId}` ? frame : null;
}

/** The server accepting a join: the reply to a join carries the join's own ref as its ref. */
function isAcceptedJoin(frame: unknown[] | null): boolean {
  const reply = frame?.[4] as { status?: string } | undefined;
  return frame?.[3] === 'phx_reply' && frame[0] === frame[1] && reply?.status === 'ok';
}

/** The realtime frames one page sends and receives on `org:<id>`. */
interface OrgWire {
  /** Resolves once the server has accepted a join of the topic. */
  joined: () => Promise<void>;
  /** How many joins of the topic the page has sent. */
  joins: () => number;
  /** How many leaves of the topic the page has sent. */
  leaves: () => number;
}

function watchOrgWire(page: Page, orgId: string): OrgWire {
  let joins = 0;
  let leaves = 0;
  let accepted = 0;
  const waiting: Array<() => void> = [];
  page.on('websocket', (socket) => {
    socket.on('framesent', ({ payload }) => {
      const frame = orgFrame(payload, orgId);
      if (frame?.[3] === 'phx_join') joins += 1;
      if (frame?.[3] === 'phx_leave') leaves += 1;
    });
    socket.on('framereceived', ({ payload }) => {
      if (isAcceptedJoin(orgFrame(payload, orgId))) {
        accepted += 1;
        for (const resolve of waiting.splice(0)) resolve();
      }
    });
  });
  return {
    joined: () => (accepted > 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
    joins: () => joins,
    leaves: () => leaves,
  };
}

/** A fresh browser profile signed in as `person`, on the organization's start page, listening live. */
async function signInLive(
  person: User,
  organization: LiveOrganization,
  prepare?: (context: BrowserContext) => Promise<void>,
): Promise<{ page: Page; wire: OrgWire }> {
  const page = await openPage({}, prepare);
  const wire = watchOrgWire(page, organization.id);
  await submitSignIn(page, person.email);
  await page.waitForURL((url) => url.pathname === `/o/${organization.slug}`);
  await page.getByRole('heading', { level: 1, name: organization.name }).waitFor();
  await withTimeout(wire.joined(), `${person.displayName} to join org:${organization.id}`);
  // Set on the window: still there at the end means the page was never reloaded.
  await page.evaluate(() => Object.assign(window, { fieldcheckNotReloaded: true }));
  return { page, wire };
}

/**
 * Passes the realtime WebSocket through the test, so that it can cut the connection and refuse new
 * ones for a while, like a train going through a tunnel.
 */
function realtimeLink(orgId: string) {
  // Each connection as the page sees it, with its onward connection to the stack.
  const connections = new Map<WebSocketRoute, WebSocketRoute>();
  let blocked = false;
  let refused = 0;
  let acceptedJoins = 0;
  return {
    async attach(context: BrowserContext) {
      await context.routeWebSocket(/\/realtime\/v1\/websocket/, (pageSide) => {
        if (blocked) {
          refused += 1;
          void pageSide.close({ code: 1011, reason: 'Unreachable' });
          return;
        }
        const serverSide = pageSide.connectToServer();
        connections.set(pageSide, serverSide);
        pageSide.onMessage((message) => serverSide.send(message));
        serverSide.onMessage((message) => {
          if (isAcceptedJoin(orgFrame(message, orgId))) acceptedJoins += 1;
          pageSide.send(message);
        });
        pageSide.onClose(() => connections.delete(pageSide));
      });
    },
    /** Drops every open connection, both ways, and refuses new ones. */
    async cut() {
      blocked = true;
      for (const [pageSide, serverSide] of [...connections]) {
        await serverSide.close({ code: 1001, reason: 'Going away' });
        await pageSide.close({ code: 1011, reason: 'Connection lost' });
      }
    },
    restore() {
      blocked = false;
    },
    refused: () => refused,
    acceptedJoins: () => acceptedJoins,
  };
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`Timed out waiting for ${what}`)), UI_TIMEOUT)),
  ]);
}

async function expectNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { fieldcheckNotReloaded?: boolean }).fieldcheckNotReloaded)).toBe(true);
}

/** Client-side navigation through the app's own links (a goto would reload the page). */
async function openSites(page: Page, orgName: string) {
  await orgNav(page, orgName).getByRole('link', { name: 'Sites' }).click();
  await page.getByRole('heading', { level: 1, name: 'Sites' }).waitFor();
}

async function openSite(page: Page, orgName: string, siteName: string) {
  await openSites(page, orgName);
  await page.getByRole('list', { name: 'Sites' }).getByRole('link', { name: siteName, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: siteName }).waitFor();
}

function viewersLine(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Also looking at this site:' });
}

describe('live organization pages', () => {
  let org: Awaited<ReturnType<typeof organizationOfTwo>>;

  beforeEach(async () => {
    org = await organizationOfTwo();
  });

  it("a site renamed or added by one member appears in the other's open list and site page without a reload, over one subscription that signing out ends", async () => {
    const owner = await signInLive(org.owner, org);
    const manager = await signInLive(org.manager, org);

    // The owner renames the site while the manager looks at the list.
    await openSites(manager.page, org.name);
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual([org.siteName]);
    await openSite(owner.page, org.name, org.siteName);
    const renamed = `${org.siteName} (north)`;
    await owner.page.getByLabel('Name', { exact: true }).fill(renamed);
    await owner.page.getByRole('button', { name: 'Save changes' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Your changes have been saved.' }).waitFor();
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual([renamed]);

    // On the site's own page the heading follows; the manager's open form offers the new version rather than overwriting it.
    await openSite(manager.page, org.name, renamed);
    const renamedAgain = `${org.siteName} (north gate)`;
    await owner.page.getByLabel('Name', { exact: true }).fill(renamedAgain);
    await owner.page.getByRole('button', { name: 'Save changes' }).click();
    await manager.page.getByRole('heading', { level: 1, name: renamedAgain }).waitFor();
    await manager.page.getByText('Someone else changed this site while you had it open.').waitFor();
    expect(await manager.page.getByLabel('Name', { exact: true }).inputValue()).toBe(renamed);
    await manager.page.getByRole('button', { name: 'Show the latest version' }).click();
    expect(await manager.page.getByLabel('Name', { exact: true }).inputValue()).toBe(renamedAgain);
    expect(await manager.page.getByText('Someone else changed this site while you had it open.').count()).toBe(0);

    // A site added by the owner joins the manager's list.
    await openSites(manager.page, org.name);
    await orgNav(owner.page, org.name).getByRole('link', { name: 'Sites' }).click();
    await owner.page.getByRole('link', { name: 'Add site' }).click();
    await owner.page.getByLabel('Name', { exact: true }).fill('Annex');
    await owner.page.getByRole('button', { name: 'Add site' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'Annex was added.' }).waitFor();
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual(['Annex', renamedAgain]);

    await expectNotReloaded(manager.page);
    // One subscription for the whole visit, through every page of the organization.
    expect(manager.wire.joins()).toBe(1);
    expect(manager.wire.leaves()).toBe(0);

    // Signing out in another tab of the same browser ends this tab's subscription too.
    const accountTab = await manager.page.context().newPage();
    await accountTab.goto('/account');
    await accountTab.getByRole('button', { name: 'Sign out', exact: true }).click();
    await manager.page.waitForURL((url) => url.pathname === '/sign-in');
    await expect.poll(() => manager.wire.leaves(), { timeout: UI_TIMEOUT }).toBe(1);
    expect(manager.wire.joins()).toBe(1);
  });

  it('a role lowered by the owner takes away edit controls at once, and a removed member is sent to their organizations with a notice', async () => {
    const owner = await signInLive(org.owner, org);
    const manager = await signInLive(org.manager, org);
    await openSite(manager.page, org.name, org.siteName);
    await manager.page.getByRole('button', { name: 'Save changes' }).waitFor();

    await orgNav(owner.page, org.name).getByRole('link', { name: 'Members' }).click();
    await owner.page.getByLabel(`Role of ${org.manager.displayName}`).selectOption('viewer');
    await owner.page.getByRole('status').filter({ hasText: `${org.manager.displayName} is now viewer.` }).waitFor();

    // The manager's page turns read-only: no form, no archive, the details as text.
    await manager.page.getByRole('term').filter({ hasText: 'Address' }).waitFor();
    expect(await manager.page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    expect(await manager.page.getByRole('button', { name: 'Archive site' }).count()).toBe(0);
    expect(await manager.page.getByRole('textbox').count()).toBe(0);
    await openSites(manager.page, org.name);
    expect(await manager.page.getByRole('link', { name: 'Add site' }).count()).toBe(0);
    await expectNotReloaded(manager.page);

    // Removed: the organization's pages are no longer theirs.
    await owner.page.getByRole('button', { name: `Remove ${org.manager.displayName}` }).click();
    await owner.page.getByRole('button', { name: 'Yes, remove' }).click();
    await manager.page.waitForURL((url) => url.pathname === '/orgs');
    await manager.page.getByRole('status').filter({ hasText: `You were removed from ${org.name}.` }).waitFor();
    await expect.poll(() => manager.wire.leaves(), { timeout: UI_TIMEOUT }).toBe(1);
    await expectNotReloaded(manager.page);
  });

  it("renaming the organization updates the other member's header, and deleting it sends them to their organizations", async () => {
    const owner = await signInLive(org.owner, org);
    const manager = await signInLive(org.manager, org);
    await manager.page.getByRole('button', { name: `Organization: ${org.name}` }).waitFor();

    await orgNav(owner.page, org.name).getByRole('link', { name: 'Settings' }).click();
    const newName = `${org.name} Group`;
    await owner.page.getByLabel('Organization name').fill(newName);
    await owner.page.getByRole('button', { name: 'Save settings' }).click();
    await owner.page.getByRole('status').filter({ hasText: 'The settings have been saved.' }).waitFor();

    await manager.page.getByRole('button', { name: `Organization: ${newName}` }).waitFor();
    await manager.page.getByRole('heading', { level: 1, name: newName }).waitFor();
    await manager.page.getByRole('navigation', { name: newName }).waitFor();
    await expectNotReloaded(manager.page);

    await owner.page.getByRole('button', { name: 'Delete organization' }).click();
    await owner.page.getByLabel(`Type ${newName} to confirm`).fill(newName);
    await owner.page.getByRole('button', { name: 'Delete organization permanently' }).click();
    await manager.page.waitForURL((url) => url.pathname === '/orgs');
    await manager.page.getByRole('status').filter({ hasText: `${newName} was deleted.` }).waitFor();
    await expectNotReloaded(manager.page);
  });

  it('after a lost connection the page joins again and shows what changed while it was away', async () => {
    const link = realtimeLink(org.id);
    const manager = await signInLive(org.manager, org, (context) => link.attach(context));
    await openSites(manager.page, org.name);
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual([org.siteName]);
    expect(link.acceptedJoins()).toBe(1);

    await link.cut();
    // While the page is away, the owner renames the site: its broadcast reaches nobody in that tab.
    const renamed = `${org.siteName} (while away)`;
    await api(org.owner.client, `orgs/${org.id}/sites/${org.siteId}`, 'PATCH', { name: renamed });
    await expect.poll(() => link.refused(), { timeout: UI_TIMEOUT }).toBeGreaterThan(0);
    expect(await siteNames(manager.page)()).toEqual([org.siteName]);

    link.restore();
    // At least one new join: a retry made while the link was down is queued and sent (then left) on reconnect too.
    await expect.poll(() => link.acceptedJoins(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2);
    // Joined again: everything of the organization is read again, so the missed rename shows.
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual([renamed]);
    // And the channel is live again.
    await api(org.owner.client, `orgs/${org.id}/sites`, 'POST', { name: 'Annex' });
    await expect.poll(siteNames(manager.page), { timeout: UI_TIMEOUT }).toEqual(['Annex', renamed]);
    await expectNotReloaded(manager.page);
  });

  it('two members on the same site each see the other, and the name goes when one of them leaves the page', async () => {
    const owner = await signInLive(org.owner, org);
    const manager = await signInLive(org.manager, org);

    await openSite(owner.page, org.name, org.siteName);
    expect(await viewersLine(owner.page).count()).toBe(0);
    await openSite(manager.page, org.name, org.siteName);
    await viewersLine(owner.page).filter({ hasText: `Also looking at this site: ${org.manager.displayName}` }).waitFor();
    await viewersLine(manager.page).filter({ hasText: `Also looking at this site: ${org.owner.displayName}` }).waitFor();
    // Nobody is listed as looking at themselves.
    expect(await viewersLine(owner.page).filter({ hasText: org.owner.displayName }).count()).toBe(0);

    // Another site of the organization: the presence there is separate.
    await api(org.owner.client, `orgs/${org.id}/sites`, 'POST', { name: 'Annex' });
    await openSite(owner.page, org.name, 'Annex');
    expect(await viewersLine(owner.page).count()).toBe(0);
    await expect.poll(() => viewersLine(manager.page).count(), { timeout: UI_TIMEOUT }).toBe(0);

    // Back on the same site, then the manager leaves the page for the list.
    await openSite(owner.page, org.name, org.siteName);
    await viewersLine(manager.page).filter({ hasText: org.owner.displayName }).waitFor();
    await openSites(manager.page, org.name);
    await expect.poll(() => viewersLine(owner.page).count(), { timeout: UI_TIMEOUT }).toBe(0);
    await expectNotReloaded(owner.page);
  });
});
