// What the reminder emails say (docs/schedules.md, "Reminders"): one mail per person,
// organization and kind, listing every occurrence of the claim; each time as it reads at its site
// with the zone named (Auckland's 08:00 in a Seattle manager's digest); what a person may do and
// why they got it; names escaped in the HTML; a stable Message-ID; skipped rows left out; a
// listing cut at 50 with the rest counted. The sending itself is tested through the stack's mail
// catcher (tests/api/schedules/reminders.test.ts).
import assert from 'node:assert/strict';
import { type ClaimedReminder, composeReminderMails, type DigestDetails, LISTED_PER_MAIL, type OccurrenceDetails } from '../../supabase/functions/reminder-mails/mails.ts';
import { timeAtSite } from '../../supabase/functions/_shared/mail.ts';

const person = { user_id: 'u1', email: 'ivan@example.test', display_name: 'Ivan', org_id: 'o1', org_name: 'Harbor Foods', org_slug: 'harbor-foods', role: 'inspector' };

function occurrence(id: string, changes: Partial<OccurrenceDetails> = {}): OccurrenceDetails {
  return {
    inspection_id: `i-${id}`,
    title: `Weekly audit — Ponsonby — ${id}`,
    site_name: 'Ponsonby',
    timezone: 'Pacific/Auckland',
    occurrence_at: '2026-11-30T19:00:00Z',
    due_at: '2026-12-04T04:00:00Z',
    assigned: true,
    ...changes,
  };
}

function row(id: string, kind: ClaimedReminder['kind'], details: OccurrenceDetails | DigestDetails, changes: Partial<ClaimedReminder> = {}): ClaimedReminder {
  return { id, kind, skipped_because: null, ...person, details, ...changes };
}

Deno.test('an instant reads as it does at the site, its zone named', () => {
  assert.equal(timeAtSite('2026-11-30T19:00:00Z', 'Pacific/Auckland'), 'Tue 1 Dec 2026, 08:00 (Pacific/Auckland)');
  assert.equal(timeAtSite('2026-11-30T16:00:00Z', 'America/Los_Angeles'), 'Mon 30 Nov 2026, 08:00 (America/Los_Angeles)');
});

Deno.test('one occurrence opening: its title, due time at the site, a link to start it, and why it came', () => {
  const [mail] = composeReminderMails([row('r1', 'occurrence_opened', occurrence('a'))]);
  assert.deepEqual(mail.ids, ['r1']);
  assert.equal(mail.mail.to, 'ivan@example.test');
  assert.equal(mail.mail.subject, 'Open now: Weekly audit — Ponsonby — a');
  assert.match(mail.mail.text, /^Weekly audit — Ponsonby — a is open now and due Fri 4 Dec 2026, 17:00 \(Pacific\/Auckland\)\./);
  assert.match(mail.mail.text, /Start it: http:\/\/localhost:5173\/o\/harbor-foods\/inspections\/i-a/);
  assert.match(mail.mail.text, /because it is assigned to you in Harbor Foods\. Choose which reminders you get: http:\/\/localhost:5173\/account/);
  assert.equal(mail.mail.messageId, '<reminder-r1@fieldcheck.app>');
});

Deno.test('an unassigned one says anyone who inspects there may take it', () => {
  const [mail] = composeReminderMails([row('r1', 'occurrence_opened', occurrence('a', { assigned: false, title: 'Fire walk' }))]);
  assert.match(mail.mail.text, /^Fire walk at Ponsonby is open now/);
  assert.match(mail.mail.text, /Nobody is assigned: anyone who inspects there may take it\./);
  assert.match(mail.mail.text, /because nobody is assigned to it and you inspect at its site in Harbor Foods/);
});

Deno.test('due soon and missed say what is left to do', () => {
  const [soon] = composeReminderMails([row('r1', 'occurrence_due_soon', occurrence('a'))]);
  assert.equal(soon.mail.subject, 'Due in 24 hours: Weekly audit — Ponsonby — a');
  assert.match(soon.mail.text, /is due Fri 4 Dec 2026, 17:00 \(Pacific\/Auckland\) and has not been submitted yet\./);
  const [missed] = composeReminderMails([row('r2', 'occurrence_missed', occurrence('a'))]);
  assert.equal(missed.mail.subject, 'Missed: Weekly audit — Ponsonby — a');
  assert.match(missed.mail.text, /was due Fri 4 Dec 2026, 17:00 \(Pacific\/Auckland\) and was not submitted\. It can still be done; it will count as late\./);
});

Deno.test('several of one kind for one person are one mail listing them, earliest due first; other kinds and people are mails of their own', () => {
  const mails = composeReminderMails([
    row('r1', 'occurrence_opened', occurrence('late', { due_at: '2026-12-05T04:00:00Z' })),
    row('r2', 'occurrence_opened', occurrence('soon', { due_at: '2026-12-02T04:00:00Z', site_name: 'Capitol Hill', timezone: 'America/Los_Angeles', assigned: false })),
    row('r3', 'occurrence_missed', occurrence('m')),
    row('r4', 'occurrence_opened', occurrence('other'), { user_id: 'u2', email: 'iris@example.test' }),
    row('r5', 'occurrence_opened', occurrence('off'), { skipped_because: 'switched off' }),
  ]);
  assert.deepEqual(mails.map((m) => [m.mail.to, m.ids]), [
    ['ivan@example.test', ['r2', 'r1']],
    ['ivan@example.test', ['r3']],
    ['iris@example.test', ['r4']],
  ]);
  const [both] = mails;
  assert.equal(both.mail.subject, '2 inspections open now in Harbor Foods');
  assert.ok(both.mail.text.indexOf('— soon') < both.mail.text.indexOf('— late'), 'the one due first leads');
  assert.match(both.mail.text, /Capitol Hill · due Tue 1 Dec 2026, 20:00 \(America\/Los_Angeles\)/);
  assert.match(both.mail.text, /Ponsonby · due Sat 5 Dec 2026, 17:00 \(Pacific\/Auckland\)/);
  assert.match(both.mail.text, /— soon \(for anyone\)/);
  assert.match(both.mail.text, /because they are assigned to you, or to nobody at sites you inspect, in Harbor Foods/);
  assert.equal(both.mail.messageId, '<reminder-r1@fieldcheck.app>', 'the smallest row id names the mail, whatever the order');
});

Deno.test('a listing stops at 50 and counts the rest, with a link to all of them', () => {
  const rows = Array.from({ length: LISTED_PER_MAIL + 3 }, (_, i) => row(`r${i}`, 'occurrence_opened', occurrence(String(i))));
  const [mail] = composeReminderMails(rows);
  assert.equal(mail.ids.length, LISTED_PER_MAIL + 3, 'every row is carried (and recorded) by the mail');
  assert.equal(mail.mail.html.match(/<li>/g)?.length, LISTED_PER_MAIL);
  assert.match(mail.mail.text, /…and 3 more: http:\/\/localhost:5173\/o\/harbor-foods\/inspections$/m);
});

Deno.test('a listing of missed occurrences links the rest to the inspections list filtered to missed ones', () => {
  const rows = Array.from({ length: LISTED_PER_MAIL + 2 }, (_, i) => row(`m${i}`, 'occurrence_missed', occurrence(String(i))));
  const [mail] = composeReminderMails(rows);
  assert.match(mail.mail.text, /…and 2 more: http:\/\/localhost:5173\/o\/harbor-foods\/inspections\?missed=true$/m);
  assert.match(mail.mail.html, /href="http:\/\/localhost:5173\/o\/harbor-foods\/inspections\?missed=true">all missed inspections</);
});

Deno.test('the digest lists the day\'s missed occurrences, each at its site\'s time with the zone named, and who had it', () => {
  const digest: DigestDetails = {
    date: '2026-11-30',
    count: 2,
    occurrences: [
      { inspection_id: 'i-1', title: 'Weekly audit — Ponsonby', site_name: 'Ponsonby', timezone: 'Pacific/Auckland', due_at: '2026-11-30T04:00:00Z', assignee_name: 'Iris' },
      { inspection_id: 'i-2', title: 'Weekly audit — Capitol Hill', site_name: 'Capitol Hill', timezone: 'America/Los_Angeles', due_at: '2026-12-01T01:00:00Z', assignee_name: null },
    ],
  };
  const [mail] = composeReminderMails([row('r1', 'missed_digest', digest, { role: 'manager', email: 'maya@example.test' })]);
  assert.equal(mail.mail.subject, 'Missed on Mon 30 Nov 2026: 2 inspections in Harbor Foods');
  assert.match(mail.mail.text, /^2 scheduled inspections were due on Mon 30 Nov 2026 in Harbor Foods and have not been submitted\. Each time is the site's own:/);
  assert.match(mail.mail.text, /Ponsonby · was due Mon 30 Nov 2026, 17:00 \(Pacific\/Auckland\) · assigned to Iris/);
  assert.match(mail.mail.text, /Capitol Hill · was due Mon 30 Nov 2026, 17:00 \(America\/Los_Angeles\) · for anyone/);
  assert.match(mail.mail.text, /because you are a manager of Harbor Foods/);
  const [more] = composeReminderMails([row('r2', 'missed_digest', { ...digest, count: 60 })]);
  assert.match(more.mail.text, /…and 58 more/);
});

Deno.test('names are escaped in the HTML part, never in the text', () => {
  const [mail] = composeReminderMails([
    row('r1', 'occurrence_opened', occurrence('a', { title: '<script>alert(1)</script>', site_name: 'Fish & Chips' }), { org_name: 'A "quoted" <org>' }),
  ]);
  assert.ok(!mail.mail.html.includes('<script>'));
  assert.match(mail.mail.html, /&lt;script&gt;alert\(1\)&lt;\/script&gt; at Fish &amp; Chips/);
  assert.match(mail.mail.html, /A &quot;quoted&quot; &lt;org&gt;/);
  assert.match(mail.mail.text, /<script>alert\(1\)<\/script> at Fish & Chips/);
});
