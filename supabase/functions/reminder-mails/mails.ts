// What each reminder email says (docs/schedules.md, "Reminders"). A claim's rows are grouped into
// one mail per person, organization and kind — three occurrences opening at once for one inspector
// are one mail listing the three — and each digest row is a mail of its own. Times are given as
// they read at each site, with the zone named: a manager in Seattle reads an Auckland occurrence
// at Auckland's 08:00. Composed here, apart from the claim and the send, so tests read the words.
import { escapeHtml, type OutgoingMail, siteUrl, timeAtSite } from '../_shared/mail.ts';

export type ReminderKind = 'occurrence_opened' | 'occurrence_due_soon' | 'occurrence_missed' | 'missed_digest';

export interface OccurrenceDetails {
  inspection_id: string;
  title: string;
  site_name: string;
  timezone: string;
  occurrence_at: string;
  due_at: string;
  /** Assigned to the recipient; otherwise unassigned, sent to the site's inspectors. */
  assigned: boolean;
}

export interface DigestOccurrence {
  inspection_id: string;
  title: string;
  site_name: string;
  timezone: string;
  due_at: string;
  assignee_name: string | null;
}

export interface DigestDetails {
  /** The day the occurrences were due, each on its own site's calendar (YYYY-MM-DD). */
  date: string;
  /** How many were missed; `occurrences` lists the first 50 by due time. */
  count: number;
  occurrences: DigestOccurrence[];
}

/** A claimed outbox row as private.claim_reminder_mails answers it (a skipped one has only why). */
export interface ClaimedReminder {
  id: string;
  kind: ReminderKind;
  skipped_because: string | null;
  user_id: string;
  email: string;
  display_name: string;
  org_id: string;
  org_name: string;
  org_slug: string;
  role: string | null;
  details: OccurrenceDetails | DigestDetails;
}

export interface ReminderMail {
  /** The outbox rows the mail carries: all are recorded sent, or failed, together. */
  ids: string[];
  mail: OutgoingMail;
}

/** At most this many occurrences are listed in one mail; the rest are counted, with a link. */
export const LISTED_PER_MAIL = 50;

const inspectionLink = (slug: string, id: string) => `${siteUrl()}/o/${slug}/inspections/${id}`;
/** The organization's inspections list; with `missedOnly`, filtered to missed occurrences (the list reads `missed=true`). */
const inspectionsLink = (slug: string, missedOnly = false) => `${siteUrl()}/o/${slug}/inspections${missedOnly ? '?missed=true' : ''}`;
const plural = (n: number, one: string, many: string) => (n === 1 ? one : many);

const SUBJECTS: Record<Exclude<ReminderKind, 'missed_digest'>, { one: string; many: string }> = {
  occurrence_opened: { one: 'Open now', many: 'open now' },
  occurrence_due_soon: { one: 'Due in 24 hours', many: 'due within 24 hours' },
  occurrence_missed: { one: 'Missed', many: 'missed' },
};

/** The sentence about one occurrence, by kind. */
function occurrenceSentence(kind: Exclude<ReminderKind, 'missed_digest'>, o: OccurrenceDetails): string {
  const due = timeAtSite(o.due_at, o.timezone);
  // Titles made by the default patterns name the site already.
  const what = o.title.includes(o.site_name) ? o.title : `${o.title} at ${o.site_name}`;
  switch (kind) {
    case 'occurrence_opened':
      return `${what} is open now and due ${due}.`;
    case 'occurrence_due_soon':
      return `${what} is due ${due} and has not been submitted yet.`;
    case 'occurrence_missed':
      return `${what} was due ${due} and was not submitted. It can still be done; it will count as late.`;
  }
}

const NEXT_STEP: Record<Exclude<ReminderKind, 'missed_digest'>, string> = {
  occurrence_opened: 'Start it',
  occurrence_due_soon: 'Finish it',
  occurrence_missed: 'Open it',
};

function footer(why: string): { text: string; html: string } {
  const account = `${siteUrl()}/account`;
  return {
    text: `You get this email because ${why}. Choose which reminders you get: ${account}`,
    html: `<p style="color:#555">You get this email because ${escapeHtml(why)}. <a href="${escapeHtml(account)}">Choose which reminders you get</a>.</p>`,
  };
}

/** One mail about one or more occurrences of the same kind, to one person in one organization. */
function occurrencesMail(kind: Exclude<ReminderKind, 'missed_digest'>, rows: ClaimedReminder[]): ReminderMail {
  const [first] = rows;
  const occurrences = rows.map((row) => row.details as OccurrenceDetails);
  const listed = occurrences.slice(0, LISTED_PER_MAIL);
  const more = occurrences.length - listed.length;
  const assigned = occurrences.filter((o) => o.assigned).length;
  const it = plural(occurrences.length, 'it', 'them');
  const why = assigned === occurrences.length
    ? `${plural(occurrences.length, 'it is', 'they are')} assigned to you in ${first.org_name}`
    : assigned === 0
    ? `nobody is assigned to ${it} and you inspect at ${plural(occurrences.length, 'its site', 'their sites')} in ${first.org_name}`
    : `they are assigned to you, or to nobody at sites you inspect, in ${first.org_name}`;
  const end = footer(why);

  let subject: string;
  let text: string;
  let html: string;
  if (occurrences.length === 1) {
    const [o] = occurrences;
    const link = inspectionLink(first.org_slug, o.inspection_id);
    subject = `${SUBJECTS[kind].one}: ${o.title}`;
    const sentence = occurrenceSentence(kind, o);
    const claim = o.assigned ? '' : ' Nobody is assigned: anyone who inspects there may take it.';
    text = `${sentence}${claim}\n\n${NEXT_STEP[kind]}: ${link}\n\n${end.text}`;
    html = `<p>${escapeHtml(sentence)}${escapeHtml(claim)}</p><p><a href="${escapeHtml(link)}">${NEXT_STEP[kind]}</a></p>${end.html}`;
  } else {
    subject = `${occurrences.length} inspections ${SUBJECTS[kind].many} in ${first.org_name}`;
    const intro = `${occurrences.length} inspections ${SUBJECTS[kind].many} in ${first.org_name}:`;
    const line = (o: OccurrenceDetails) =>
      `${o.title}${o.assigned ? '' : ' (for anyone)'}\n  ${o.site_name} · ${kind === 'occurrence_missed' ? 'was due' : 'due'} ${timeAtSite(o.due_at, o.timezone)}\n  ${
        inspectionLink(first.org_slug, o.inspection_id)
      }`;
    const item = (o: OccurrenceDetails) =>
      `<li><a href="${escapeHtml(inspectionLink(first.org_slug, o.inspection_id))}">${escapeHtml(o.title)}</a>${o.assigned ? '' : ' (for anyone)'}<br>${
        escapeHtml(o.site_name)
      } · ${kind === 'occurrence_missed' ? 'was due' : 'due'} ${escapeHtml(timeAtSite(o.due_at, o.timezone))}</li>`;
    const missedOnly = kind === 'occurrence_missed';
    const moreText = more > 0 ? `\n\n…and ${more} more: ${inspectionsLink(first.org_slug, missedOnly)}` : '';
    const moreHtml = more > 0
      ? `<p>…and ${more} more: <a href="${escapeHtml(inspectionsLink(first.org_slug, missedOnly))}">${missedOnly ? 'all missed inspections' : 'all inspections'}</a></p>`
      : '';
    text = `${intro}\n\n${listed.map(line).join('\n\n')}${moreText}\n\n${end.text}`;
    html = `<p>${escapeHtml(intro)}</p><ul>${listed.map(item).join('')}</ul>${moreHtml}${end.html}`;
  }
  return { ids: rows.map((row) => row.id), mail: { to: first.email, subject, text, html, messageId: messageIdOf(rows) } };
}

/** "Mon 30 Nov 2026": a calendar day, no zone (each occurrence is on its own site's calendar). */
function dayLabel(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })
    .format(new Date(`${date}T00:00:00Z`))
    .replace(/^(\w+),/, '$1');
}

const ROLE_NAMES: Record<string, string> = { owner: 'an owner', admin: 'an admin', manager: 'a manager' };

/** The managers' daily digest: the organization's occurrences missed on one day. */
function digestMail(row: ClaimedReminder): ReminderMail {
  const digest = row.details as DigestDetails;
  const day = dayLabel(digest.date);
  const listed = digest.occurrences.slice(0, LISTED_PER_MAIL);
  const more = digest.count - listed.length;
  const subject = `Missed on ${day}: ${digest.count} ${plural(digest.count, 'inspection', 'inspections')} in ${row.org_name}`;
  const intro = `${digest.count} scheduled ${plural(digest.count, 'inspection was', 'inspections were')} due on ${day} in ${row.org_name} and ${
    plural(digest.count, 'has', 'have')
  } not been submitted. Each time is the site's own:`;
  const who = (o: DigestOccurrence) => (o.assignee_name ? `assigned to ${o.assignee_name}` : 'for anyone');
  const line = (o: DigestOccurrence) =>
    `${o.title}\n  ${o.site_name} · was due ${timeAtSite(o.due_at, o.timezone)} · ${who(o)}\n  ${inspectionLink(row.org_slug, o.inspection_id)}`;
  const item = (o: DigestOccurrence) =>
    `<li><a href="${escapeHtml(inspectionLink(row.org_slug, o.inspection_id))}">${escapeHtml(o.title)}</a><br>${escapeHtml(o.site_name)} · was due ${
      escapeHtml(timeAtSite(o.due_at, o.timezone))
    } · ${escapeHtml(who(o))}</li>`;
  const end = footer(`you are ${ROLE_NAMES[row.role ?? ''] ?? 'a manager'} of ${row.org_name}`);
  const moreText = more > 0 ? `\n\n…and ${more} more: ${inspectionsLink(row.org_slug, true)}` : '';
  const moreHtml = more > 0 ? `<p>…and ${more} more: <a href="${escapeHtml(inspectionsLink(row.org_slug, true))}">all missed inspections</a></p>` : '';
  const text = `${intro}\n\n${listed.map(line).join('\n\n')}${moreText}\n\n${end.text}`;
  const html = `<p>${escapeHtml(intro)}</p><ul>${listed.map(item).join('')}</ul>${moreHtml}${end.html}`;
  return { ids: [row.id], mail: { to: row.email, subject, text, html, messageId: messageIdOf([row]) } };
}

/** The same rows sent again (after a crash left them unrecorded) carry the same Message-ID. */
function messageIdOf(rows: ClaimedReminder[]): string {
  const first = rows.map((row) => row.id).sort()[0];
  return `<reminder-${first}@fieldcheck.app>`;
}

/** The mails of a claim: skipped rows left out; occurrences grouped per person, organization and kind. */
export function composeReminderMails(claimed: ClaimedReminder[]): ReminderMail[] {
  const mails: ReminderMail[] = [];
  const groups = new Map<string, ClaimedReminder[]>();
  for (const row of claimed) {
    if (row.skipped_because !== null) continue;
    if (row.kind === 'missed_digest') {
      mails.push(digestMail(row));
      continue;
    }
    const key = `${row.user_id} ${row.org_id} ${row.kind}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  for (const rows of groups.values()) {
    // Earliest due first: the one to do first leads the mail.
    rows.sort((a, b) => Date.parse((a.details as OccurrenceDetails).due_at) - Date.parse((b.details as OccurrenceDetails).due_at));
    mails.push(occurrencesMail(rows[0].kind as Exclude<ReminderKind, 'missed_digest'>, rows));
  }
  return mails;
}
