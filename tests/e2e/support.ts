// What the browser tests share: one Chromium per test file, a fresh profile per page, screenshots
// of a failed flow, and the app's own steps to sign up, sign in and turn on an authenticator.
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import type { Browser, BrowserContext, BrowserContextOptions, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { launchBrowser } from '../support/browser.ts';
import { newUser, type User } from '../support/fixtures.ts';
import { stack } from '../support/stack.ts';
import { totpFor } from '../support/totp.ts';

export const PASSWORD = 'inspect-sites-42';
export const UI_TIMEOUT = 15_000;
const resultsDir = path.resolve(import.meta.dirname, '..', '..', 'test-results', 'e2e');

/**
 * Launches Chromium for the calling test file (call it at the top level: it registers the file's
 * hooks) and closes every page opened by a test once that test ends.
 */
export function useBrowser() {
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterEach(async ({ task }) => {
    const failed = task.result?.state === 'fail';
    const file = path.basename(task.file.name, '.test.ts');
    for (const [profile, context] of contexts.splice(0).entries()) {
      // A failed flow leaves a screenshot of each page of each profile in test-results/e2e/ for diagnosis.
      if (failed) {
        for (const [index, page] of context.pages().entries()) {
          const name = `${file}-${task.name.replace(/\W+/g, '-').slice(0, 60)}-${profile}-${index}.png`;
          await page.screenshot({ path: path.join(resultsDir, name), fullPage: true }).catch(() => undefined);
        }
      }
      await context.close();
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** A page in a fresh browser profile (own localStorage, so its own session); `prepare` runs before the page opens. */
  async function openPage(options: BrowserContextOptions = {}, prepare?: (context: BrowserContext) => Promise<void>): Promise<Page> {
    const context = await browser.newContext({ baseURL: stack.WEB_URL, viewport: { width: 1100, height: 900 }, ...options });
    contexts.push(context);
    await prepare?.(context);
    const page = await context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT);
    return page;
  }

  return { openPage };
}

export function pathIs(expected: string | RegExp) {
  return (url: URL) => (typeof expected === 'string' ? url.pathname === expected : expected.test(url.pathname));
}

export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Fills the sign-up form on the current page and sends it. */
export async function submitSignUp(page: Page, email: string, password = PASSWORD) {
  await page.getByRole('heading', { name: 'Create your account' }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** Signs up a new user, who lands on /orgs without organizations. */
export async function signUp(page: Page, email: string) {
  await page.goto('/sign-up');
  await submitSignUp(page, email);
  await page.waitForURL(pathIs('/orgs'));
  await page.getByRole('heading', { name: 'Create an organization' }).waitFor();
}

/** Opens /sign-in and sends the form; where it leads is up to the caller. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** On the account page, sets up an authenticator app with its first code; returns the TOTP secret. */
export async function turnOnTotp(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
  await page.getByLabel('6-digit code from the app').fill(totpFor(secret).generate());
  await page.getByRole('button', { name: 'Verify and turn on' }).click();
  await page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
  return secret;
}

/** The navigation of an organization's pages, named after the organization. */
export function orgNav(page: Page, orgName: string) {
  return page.getByRole('navigation', { name: orgName });
}

/** Reads the names in the sites list, for polling until they are as expected. */
export function siteNames(page: Page) {
  return () => page.getByRole('list', { name: 'Sites' }).getByRole('link').filter({ hasNotText: 'Open map' }).allTextContents();
}

/**
 * A phone-sized touch screen (390 × 844, like a current iPhone) for the on-site pages; with a
 * `position`, the browser shares it as the device's location without asking.
 */
export function phone(position?: { latitude: number; longitude: number }): BrowserContextOptions {
  return {
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    ...(position ? { geolocation: { ...position, accuracy: 10 }, permissions: ['geolocation'] } : {}),
  };
}

/** Signs in through the form and waits for the organization's start page (the user's only organization). */
export async function signInToOrganization(page: Page, email: string, orgSlug: string) {
  await submitSignIn(page, email);
  await page.waitForURL(pathIs(`/o/${orgSlug}`));
}

/** Set-up through the api function (what a test arranges, not what it asserts); throws on any error. */
export async function api<T>(client: SupabaseClient, route: string, method: 'GET' | 'POST' | 'PATCH' = 'GET', body?: Record<string, unknown>): Promise<T> {
  const { data, error } = await client.functions.invoke<T>(`api/${route}`, { method, body });
  if (error) throw new Error(`${method} ${route} failed: ${await error.context?.text?.()}`);
  return data as T;
}

/** A new user (tests/support/fixtures.ts) who signs in in the browser with PASSWORD, shown as `displayName`. */
export function person(label: string, displayName: string): Promise<User> {
  return newUser(label, displayName, { password: PASSWORD });
}

/** Whether the element is the page's focused one. */
export async function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}
