// The web app's auth screens in a real Chromium against the real stack: sign-up, sign-in and
// sign-out, TOTP enrollment and the /mfa challenge, and password recovery through the mailed link.
import { authErrorMessage } from '../../supabase/functions/_shared/schemas/errors.ts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { uniqueEmail } from '../support/clients.ts';
import { linkFrom, waitForMail } from '../support/mail.ts';
import { stack } from '../support/stack.ts';
import { totpFor, wrongCode } from '../support/totp.ts';
import { PASSWORD, UI_TIMEOUT, pathIs, signUp, submitSignIn, turnOnTotp, useBrowser } from './support.ts';

const { openPage } = useBrowser();

/** Turns on two-factor authentication from the account page; returns the TOTP secret. */
async function enrollTotp(page: Page): Promise<string> {
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  return turnOnTotp(page);
}

/** On /forgot-password, asks for a reset link and returns the link from the mail. */
async function requestResetLink(page: Page, email: string): Promise<string> {
  // Client-side navigation renders in a transition: wait for the screen before typing.
  await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
  const requestedAt = new Date(Date.now() - 1000);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await page.getByRole('status').filter({ hasText: 'Check your inbox' }).waitFor();
  const mail = await waitForMail({ to: email, subject: /password/i, after: requestedAt, timeoutMs: UI_TIMEOUT });
  return linkFrom(mail, /\/auth\/v1\/verify\?/);
}

/** On /reset-password, sets the new password and continues into the app. */
async function chooseNewPassword(page: Page, newPassword: string) {
  await page.getByLabel('New password').fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByRole('status').filter({ hasText: 'Your password has been changed.' }).waitFor();
  await page.getByRole('link', { name: 'Continue to Fieldcheck' }).click();
  await page.waitForURL(pathIs('/orgs'));
}

async function signOutFromAccount(page: Page, everywhere = false) {
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.waitForURL(pathIs('/account'));
  await page.getByRole('button', { name: everywhere ? 'Sign out everywhere' : 'Sign out', exact: true }).click();
  await page.waitForURL(pathIs('/sign-in'));
}

/** The session supabase-js keeps in this page's localStorage. */
async function storedSession(page: Page): Promise<{ access_token: string; refresh_token: string } | null> {
  return page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('sb-') && k.endsWith('-auth-token'));
    return key ? JSON.parse(localStorage.getItem(key)!) : null;
  });
}

/** The claims of the stored session's access token. */
async function storedClaims(page: Page): Promise<Record<string, unknown> | null> {
  const session = await storedSession(page);
  if (!session) return null;
  return JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString('utf8'));
}

async function refreshStatus(refreshToken: string): Promise<{ status: number; refreshToken?: string }> {
  const response = await fetch(`${stack.API_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: stack.PUBLISHABLE_KEY, 'content-type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  });
  const body = (await response.json()) as { refresh_token?: string };
  return { status: response.status, refreshToken: body.refresh_token };
}

describe('web auth flows', () => {
  it('a visitor signs up, lands signed in, signs out, is refused a wrong password and signs back in', async () => {
    const page = await openPage();
    const email = uniqueEmail('e2e-signup');

    await page.goto('/account');
    await page.waitForURL(pathIs('/sign-in'));

    await signUp(page, email);
    expect((await storedClaims(page))?.email).toBe(email);

    await signOutFromAccount(page);
    expect(await storedClaims(page)).toBeNull();
    // Signed out, the app sends visitors back to sign in.
    await page.goto('/');
    await page.waitForURL(pathIs('/sign-in'));

    await submitSignIn(page, email, 'not-the-password-1');
    await expect(page.getByRole('alert').filter({ hasText: authErrorMessage('invalid_credentials') }).waitFor()).resolves.toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    await submitSignIn(page, email, PASSWORD);
    await page.waitForURL(pathIs('/orgs'));
    expect((await storedClaims(page))?.aal).toBe('aal1');
  });

  it('sign-up shows the catalogue wording beside the field for a taken email and a weak password', async () => {
    const page = await openPage();
    const email = uniqueEmail('e2e-taken');
    await signUp(page, email);
    await signOutFromAccount(page);

    await page.goto('/sign-up');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const password = page.getByLabel('Password', { exact: true });
    await page.getByText(authErrorMessage('weak_password')).waitFor();
    expect(await password.getAttribute('aria-invalid')).toBe('true');

    await password.fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText(authErrorMessage('user_already_exists')).waitFor();
    expect(await page.getByLabel('Email', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/sign-up');
  });

  it('the display name is saved through PATCH /me and read back through GET /me', async () => {
    const page = await openPage();
    await signUp(page, uniqueEmail('e2e-profile'));
    await page.getByRole('link', { name: 'Account', exact: true }).click();

    const name = page.getByLabel('Display name');
    await name.fill('   ');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByText('Enter a display name.').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');

    await name.fill('Ada Inspector');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('status').filter({ hasText: 'Your name has been saved.' }).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await expect.poll(() => page.getByLabel('Display name').inputValue(), { timeout: UI_TIMEOUT }).toBe('Ada Inspector');
    await page.getByRole('link', { name: 'Organizations', exact: true }).click();
    await page.getByRole('heading', { name: 'Welcome, Ada Inspector' }).waitFor();
  });

  it('after enrolling TOTP, the next sign-in stops at /mfa until the current code is entered, then reaches aal2', async () => {
    const page = await openPage();
    const email = uniqueEmail('e2e-mfa');
    await signUp(page, email);
    await page.getByRole('link', { name: 'Account', exact: true }).click();

    await page.getByRole('button', { name: 'Set up authenticator app' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}=*$/);
    const qrCode = page.getByRole('img', { name: /QR code/ });
    expect(await qrCode.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // The image must really decode, not just be present.
    const decoded = () =>
      qrCode.evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      });
    await expect.poll(decoded).toBe(true);
    const totp = totpFor(secret);

    // A wrong code is refused with the catalogue's wording, beside the field.
    const codeField = page.getByLabel('6-digit code from the app');
    await codeField.fill(wrongCode(secret));
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByText(authErrorMessage('mfa_verification_failed')).waitFor();
    expect((await storedClaims(page))?.aal).toBe('aal1');

    await codeField.fill(totp.generate());
    await page.getByRole('button', { name: 'Verify and turn on' }).click();
    await page.getByRole('status').filter({ hasText: 'Two-factor authentication is on.' }).waitFor();
    await page.getByRole('list', { name: 'Authenticators' }).getByText('Authenticator app').waitFor();
    expect((await storedClaims(page))?.aal).toBe('aal2');

    await signOutFromAccount(page);
    await submitSignIn(page, email, PASSWORD);
    await page.waitForURL(pathIs('/mfa'));
    expect((await storedClaims(page))?.aal).toBe('aal1');

    // An aal1 session can't reach signed-in screens by typing their address.
    await page.goto('/account');
    await page.waitForURL(pathIs('/mfa'));

    await page.getByLabel('Authentication code').fill(totp.generate());
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
    // The guard sends the user on to where they were going.
    await page.waitForURL(pathIs('/account'));
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    const claims = await storedClaims(page);
    expect(claims?.aal).toBe('aal2');
    expect((claims?.amr as Array<{ method: string }>).map((entry) => entry.method)).toContain('totp');
    await page.getByRole('list', { name: 'Authenticators' }).getByRole('button', { name: /Remove/ }).waitFor();
  });

  it('forgot password: the mailed link opens /reset-password, the new password signs in and the old one no longer does', async () => {
    const page = await openPage();
    const email = uniqueEmail('e2e-recovery');
    const newPassword = 'brand-new-route-77';
    await signUp(page, email);
    await signOutFromAccount(page);

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(pathIs('/forgot-password'));
    const link = await requestResetLink(page, email);
    expect(new URL(link).searchParams.get('type')).toBe('recovery');

    // The link goes through the auth server, which redirects to /reset-password#access_token=…&type=recovery.
    await page.goto(link);
    await page.waitForURL(pathIs('/reset-password'));
    await page.getByText(`For ${email}.`).waitFor();
    expect((await storedClaims(page))?.email).toBe(email);

    await chooseNewPassword(page, newPassword);
    await signOutFromAccount(page);

    // A used link can't be opened twice.
    await page.goto(link);
    await page.waitForURL(pathIs('/reset-password'));
    await page.getByRole('alert').filter({ hasText: authErrorMessage('otp_expired') }).waitFor();

    await submitSignIn(page, email, PASSWORD);
    await page.getByRole('alert').filter({ hasText: authErrorMessage('invalid_credentials') }).waitFor();

    await submitSignIn(page, email, newPassword);
    await page.waitForURL(pathIs('/orgs'));
    expect((await storedClaims(page))?.email).toBe(email);
  });

  it('with two-factor authentication on, a forgotten password is reset only after the authenticator code', async () => {
    const page = await openPage();
    const email = uniqueEmail('e2e-mfa-recovery');
    const newPassword = 'code-comes-first-31';
    await signUp(page, email);
    const totp = totpFor(await enrollTotp(page));
    await signOutFromAccount(page);

    await page.goto('/forgot-password');
    await page.goto(await requestResetLink(page, email));
    // The link signs in at aal1; Auth changes a password only at aal2 when MFA is on.
    await page.waitForURL(pathIs('/mfa'));
    expect((await storedClaims(page))?.aal).toBe('aal1');
    await page.getByLabel('Authentication code').fill(totp.generate());
    await page.getByRole('button', { name: 'Verify', exact: true }).click();

    await page.waitForURL(pathIs('/reset-password'));
    expect((await storedClaims(page))?.aal).toBe('aal2');
    await chooseNewPassword(page, newPassword);
    await signOutFromAccount(page);

    // The new password works, and still asks for the code.
    await submitSignIn(page, email, newPassword);
    await page.waitForURL(pathIs('/mfa'));
  });

  it('sign out everywhere ends the session in another browser too', async () => {
    const first = await openPage();
    const second = await openPage();
    const email = uniqueEmail('e2e-global');
    await signUp(first, email);
    await submitSignIn(second, email, PASSWORD);
    await second.waitForURL(pathIs('/orgs'));

    // Allowed side: the other browser's session can be refreshed while it is alive.
    const before = await refreshStatus((await storedSession(second))!.refresh_token);
    expect(before.status).toBe(200);

    await signOutFromAccount(first, true);
    expect(await storedSession(first)).toBeNull();

    // Denied side: signing out everywhere revoked the other browser's session and its refresh tokens.
    const after = await refreshStatus(before.refreshToken!);
    expect(after.status).toBeGreaterThanOrEqual(400);
    expect(after.status).toBeLessThan(500);
  });
});
