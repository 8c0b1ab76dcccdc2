// One wake of the reminder worker: claim due rows, send their mails through the same SMTP path as
// invitations (_shared/mail.ts), record each outcome; until nothing is due or the time is up. The
// database decides retries (private.record_reminder_mail).
import type { Sql } from '../_shared/db.ts';
import { type OutgoingMail, sendMail } from '../_shared/mail.ts';
import { type ClaimedReminder, composeReminderMails } from './mails.ts';

const CLAIM_SIZE = 200;
// Mails sent side by side: a provider's connection limit is usually a few more than this.
const SENDING_AT_ONCE = 4;
// A wake stops claiming after this long (well inside the claim's 5-minute lease).
const WAKE_BUDGET_MS = 25_000;

/** Why a send failed, for the outbox's last_error: the mail server's words, not a stack trace. */
function failureOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return (cause instanceof Error ? cause.message : String(cause)).slice(0, 500) || 'The mail server did not take the message.';
}

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachAtMost<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** Claims and sends until nothing is due or the wake's time is up; what happened, counted. */
export async function sendDueReminders(sql: Sql, send: (mail: OutgoingMail) => Promise<void> = sendMail) {
  const started = Date.now();
  const counts = { mails: 0, sent_rows: 0, failed_rows: 0, skipped_rows: 0 };
  while (Date.now() - started < WAKE_BUDGET_MS) {
    const claimed = await sql<ClaimedReminder[]>`
      select id, kind, skipped_because, user_id, email, display_name, org_id, org_name, org_slug, role, details
      from private.claim_reminder_mails(${CLAIM_SIZE})
    `;
    if (claimed.length === 0) break;
    counts.skipped_rows += claimed.filter((row) => row.skipped_because !== null).length;
    await eachAtMost(composeReminderMails(claimed), SENDING_AT_ONCE, async ({ ids, mail }) => {
      let error: string | null = null;
      try {
        await send(mail);
      } catch (failure) {
        error = failureOf(failure);
      }
      await sql`select private.record_reminder_mail(${ids}::uuid[], ${error})`;
      if (error === null) {
        counts.mails++;
        counts.sent_rows += ids.length;
      } else {
        counts.failed_rows += ids.length;
      }
    });
    if (claimed.length < CLAIM_SIZE) break;
  }
  return counts;
}
