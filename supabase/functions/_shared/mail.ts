// Outgoing product mail (invitations, "assigned to you", reminders) over SMTP. Locally the stack points SMTP_* at its MailDev;
// on hosted Supabase, set SMTP_HOST, SMTP_PORT, SMTP_SECURE, SMTP_USER, SMTP_PASS and MAIL_FROM
// as function secrets for the team's mail provider.
import nodemailer from 'nodemailer';
import { ApiError } from './errors.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The Message-ID, when the sender wants a stable one: a mail sent again after a crash (its
   * outcome unrecorded) then carries the same id, which mail systems use to drop duplicates.
   */
  messageId?: string;
}

let transport: ReturnType<typeof nodemailer.createTransport> | undefined;

function transportOf() {
  if (!transport) {
    const host = Deno.env.get('SMTP_HOST');
    if (!host) throw new Error('SMTP_HOST is not set');
    const user = Deno.env.get('SMTP_USER');
    transport = nodemailer.createTransport({
      host,
      port: Number(Deno.env.get('SMTP_PORT') ?? '587'),
      secure: Deno.env.get('SMTP_SECURE') === 'true',
      // A local catcher speaks plain SMTP; a provider gets STARTTLS when it offers it.
      ignoreTLS: !user,
      auth: user ? { user, pass: Deno.env.get('SMTP_PASS') ?? '' } : undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 10_000,
    });
  }
  return transport;
}

/** Sends one message; a mail server that cannot take it is a 503, so the caller can retry. */
export async function sendMail(mail: OutgoingMail): Promise<void> {
  try {
    await transportOf().sendMail({ from: Deno.env.get('MAIL_FROM') ?? 'Fieldcheck <no-reply@fieldcheck.app>', ...mail });
  } catch (error) {
    throw ApiError.serviceUnavailable(error);
  }
}

/** "Mon 1 Dec 2026, 08:00 (Pacific/Auckland)": an instant as it reads at a site, its zone named. */
export function timeAtSite(instant: Date | string, timeZone: string): string {
  const local = new Intl.DateTimeFormat('en-GB', {
    weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
  }).format(new Date(instant));
  return `${local.replace(/^(\w+),/, '$1')} (${timeZone})`;
}

/** Escapes text for the HTML part of a mail (names are user input). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The web app's address, for links in mail. */
export function siteUrl(): string {
  return (Deno.env.get('FIELDCHECK_SITE_URL') ?? Deno.env.get('SITE_URL') ?? 'http://localhost:5173').replace(/\/+$/, '');
}
