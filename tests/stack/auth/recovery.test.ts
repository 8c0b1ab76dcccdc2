// Password recovery: the mail (through MailDev), the 6-digit code with verifyOtp, and the
// emailed link that redirects back to the app with the session in the URL fragment.
import { describe, expect, it } from 'vitest';
import { createTestClient, signedInClient, uniqueEmail } from '../../support/clients.ts';
import { linkFrom, waitForMail } from '../../support/mail.ts';
import { stack } from '../../support/stack.ts';
import { rawRequest, userEndpoint } from './support.ts';

const SUBJECT = /Reset your Fieldcheck password/;

function codeFrom(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`No 6-digit code in: ${text}`);
  return match[1];
}

describe('password recovery', () => {
  it('code from the mail → PASSWORD_RECOVERY → new password → sign-in with it', async () => {
    const { email, password } = await signedInClient();
    const client = createTestClient();
    const events: string[] = [];
    client.auth.onAuthStateChange((event) => void events.push(event));
    const sent = await client.auth.resetPasswordForEmail(email, { redirectTo: `${stack.WEB_URL}/reset-password` });
    expect(sent.error).toBeNull();
    expect(sent.data).toEqual({});
    const mail = await waitForMail({ to: email, subject: SUBJECT });
    const code = codeFrom(mail.text);
    expect(mail.html).toContain(code);

    const wrong = await client.auth.verifyOtp({ email, token: code === '000000' ? '111111' : '000000', type: 'recovery' });
    expect(wrong.error?.status).toBe(403);
    expect(wrong.error?.code).toBe('otp_expired');

    const verified = await client.auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.session?.access_token).toBeTruthy();
    const amr = JSON.parse(Buffer.from(verified.data.session!.access_token.split('.')[1], 'base64url').toString()).amr;
    expect(amr[0].method).toBe('otp');
    expect(events).toContain('PASSWORD_RECOVERY');

    const updated = await client.auth.updateUser({ password: 'recovered-horse-9' });
    expect(updated.error).toBeNull();
    expect(events.at(-1)).toBe('USER_UPDATED');

    const old = await createTestClient().auth.signInWithPassword({ email, password });
    expect(old.error?.code).toBe('invalid_credentials');
    const fresh = await createTestClient().auth.signInWithPassword({ email, password: 'recovered-horse-9' });
    expect(fresh.error).toBeNull();

    const reused = await createTestClient().auth.verifyOtp({ email, token: code, type: 'recovery' });
    expect(reused.error?.code).toBe('otp_expired');
  });

  it('the emailed link verifies once and redirects with the session in the fragment', async () => {
    const { email } = await signedInClient();
    const redirectTo = `${stack.WEB_URL}/reset-password`;
    await createTestClient().auth.resetPasswordForEmail(email, { redirectTo });
    const link = linkFrom(await waitForMail({ to: email, subject: SUBJECT }));
    expect(link.startsWith(`${stack.API_URL}/auth/v1/verify?`)).toBe(true);

    const first = await fetch(link, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const location = new URL(first.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(redirectTo);
    const fragment = new URLSearchParams(location.hash.slice(1));
    expect(fragment.get('type')).toBe('recovery');
    expect(fragment.get('token_type')).toBe('bearer');
    expect(Number(fragment.get('expires_in'))).toBe(3600);
    expect(Number(fragment.get('expires_at'))).toBeGreaterThan(Date.now() / 1000);
    expect(fragment.get('refresh_token')!.length).toBeGreaterThanOrEqual(12);
    expect(await userEndpoint(fragment.get('access_token')!)).toEqual({ status: 200, code: undefined });

    const second = await fetch(link, { redirect: 'manual' });
    expect(second.status).toBe(303);
    const failed = new URL(second.headers.get('location')!);
    const error = new URLSearchParams(failed.hash.slice(1));
    expect(error.get('error')).toBe('access_denied');
    expect(error.get('error_code')).toBe('otp_expired');
    expect(error.get('access_token')).toBeNull();
  });

  it('a redirect outside the allow list falls back to the site URL', async () => {
    const { email } = await signedInClient();
    await createTestClient().auth.resetPasswordForEmail(email, { redirectTo: 'https://evil.example/steal' });
    const link = linkFrom(await waitForMail({ to: email, subject: SUBJECT }));
    const target = new URL(link).searchParams.get('redirect_to')!;
    expect(target).not.toContain('evil.example');
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.headers.get('location')).not.toContain('evil.example');
  });

  it('answers {} for an unknown address too, without sending mail', async () => {
    const email = uniqueEmail('unknown');
    const { data, error } = await createTestClient().auth.resetPasswordForEmail(email);
    expect(error).toBeNull();
    expect(data).toEqual({});
    await expect(waitForMail({ to: email, subject: SUBJECT, timeoutMs: 1000 })).rejects.toThrow(/No mail/);
  });

  it('admin generate_link gives a token_hash that verifyOtp accepts once', async () => {
    const { email } = await signedInClient();
    const admin = createTestClient({ key: stack.SERVICE_ROLE_KEY });
    const { data, error } = await admin.auth.admin.generateLink({ type: 'recovery', email });
    expect(error).toBeNull();
    expect(data.properties?.email_otp).toMatch(/^\d{6}$/);
    const client = createTestClient();
    const verified = await client.auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'recovery' });
    expect(verified.error).toBeNull();
    expect(verified.data.user?.email).toBe(email);
    const again = await client.auth.verifyOtp({ token_hash: data.properties!.hashed_token, type: 'recovery' });
    expect(again.error?.code).toBe('otp_expired');
    const anon = await createTestClient().auth.admin.generateLink({ type: 'recovery', email });
    expect(anon.error?.code).toBe('not_admin');
  });

  it('POST /recover is JSON even for a malformed address', async () => {
    const response = await rawRequest('/auth/v1/recover', { method: 'POST', body: { email: 'not an email' } });
    expect(response.status).toBe(400);
    expect(response.json().code).toBe('validation_failed');
  });
});
