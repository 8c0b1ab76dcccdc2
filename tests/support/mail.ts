// Reads the stack's mail catcher (MailDev) through its REST API.
import { stack } from './stack.ts';

export interface CaughtMail {
  id: string;
  subject: string;
  html: string;
  text: string;
  to: string[];
  date: string;
}

interface MailDevMail {
  id: string;
  subject: string;
  html?: string;
  text?: string;
  to: Array<{ address: string }>;
  date: string;
}

export async function listMail(): Promise<CaughtMail[]> {
  const response = await fetch(`${stack.MAIL_URL}/email`);
  if (!response.ok) throw new Error(`MailDev answered ${response.status}`);
  const mails = (await response.json()) as MailDevMail[];
  return mails.map((m) => ({
    id: m.id,
    subject: m.subject,
    html: m.html ?? '',
    text: m.text ?? '',
    to: m.to.map((t) => t.address.toLowerCase()),
    date: m.date,
  }));
}

/** Waits for the newest mail to `to` (and matching `subject`, if given). */
export async function waitForMail(options: { to: string; subject?: RegExp; timeoutMs?: number; after?: Date }): Promise<CaughtMail> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  const to = options.to.toLowerCase();
  while (Date.now() < deadline) {
    const matches = (await listMail()).filter(
      (m) =>
        m.to.includes(to) &&
        (!options.subject || options.subject.test(m.subject)) &&
        (!options.after || new Date(m.date) >= options.after),
    );
    if (matches.length) return matches[matches.length - 1];
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`No mail to ${options.to}${options.subject ? ` matching ${options.subject}` : ''} within the timeout`);
}

/** Decodes the HTML entities that appear in attribute values (`&amp;`, `&#38;`, `&#x26;`, …). */
function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1].toLowerCase() === 'x' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return named[entity.toLowerCase()] ?? whole;
  });
}

/** The first link in a mail's HTML whose URL matches `pattern`, with entities decoded. */
export function linkFrom(mail: CaughtMail, pattern: RegExp = /\/verify\?/): string {
  for (const [, href] of mail.html.matchAll(/href="([^"]+)"/g)) {
    const url = decodeEntities(href);
    if (pattern.test(url)) return url;
  }
  throw new Error(`No link matching ${pattern} in the mail "${mail.subject}"`);
}
