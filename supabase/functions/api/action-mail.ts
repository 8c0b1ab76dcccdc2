// "Assigned to you" mail (issue 11): whoever is given an action by someone else gets an email with
// a link to it, through the same SMTP path as invitations. The mail is composed inside the
// request's transaction (names read as the caller) and sent only after it commits, so nobody is
// told about an action that rolled back; one mail per person, listing every action they were
// given by one request (a submit can open several).
import type { Tx } from '../_shared/db.ts';
import { escapeHtml, type OutgoingMail, sendMail, siteUrl } from '../_shared/mail.ts';
import { ACTION_PRIORITY_LABELS, type ActionPriority } from '../_shared/schemas/actions.ts';

interface AssignedAction {
  id: string;
  title: string;
  priority: ActionPriority;
  due_at: Date;
  site_name: string;
  timezone: string;
  org_name: string;
  org_slug: string;
  assignee_id: string;
  assignee_email: string | null;
  assignee_name: string | null;
  actor_name: string | null;
}

/** "Fri, 4 Dec 2026, 17:00 (America/Los_Angeles)": the due date as it reads at the site. */
function dueAtSite(due: Date, timezone: string): string {
  const local = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: timezone }).format(due);
  return `${local} (${timezone})`;
}

function mailFor(actions: AssignedAction[]): OutgoingMail {
  const [first] = actions;
  const who = first.actor_name || 'Someone';
  const link = (action: AssignedAction) => `${siteUrl()}/o/${first.org_slug}/actions/${action.id}`;
  const subject = actions.length === 1
    ? `Action for you: ${first.title}`
    : `${actions.length} actions for you in ${first.org_name}`;
  const lines = actions.map((a) =>
    `${a.title}\n  ${a.site_name} · ${ACTION_PRIORITY_LABELS[a.priority]} priority · due ${dueAtSite(a.due_at, a.timezone)}\n  ${link(a)}`
  );
  const text = `${who} assigned ${actions.length === 1 ? 'a corrective action' : 'corrective actions'} to you in ${first.org_name}:\n\n` +
    `${lines.join('\n\n')}\n\nOpen ${actions.length === 1 ? 'it' : 'each'} to start work, add photos of the fix and mark it resolved.`;
  const items = actions.map((a) =>
    `<li><a href="${escapeHtml(link(a))}">${escapeHtml(a.title)}</a><br>${escapeHtml(a.site_name)} · ${
      ACTION_PRIORITY_LABELS[a.priority]
    } priority · due ${escapeHtml(dueAtSite(a.due_at, a.timezone))}</li>`
  );
  const html = `<p>${escapeHtml(who)} assigned ${actions.length === 1 ? 'a corrective action' : 'corrective actions'} to you in ${
    escapeHtml(first.org_name)
  }:</p><ul>${items.join('')}</ul><p>Open ${
    actions.length === 1 ? 'it' : 'each'
  } to start work, add photos of the fix and mark it resolved.</p>`;
  return { to: first.assignee_email!, subject, text, html };
}

/**
 * The mail to send once the request commits, to each assignee of these actions other than the
 * caller (nobody is mailed about work they gave themselves).
 */
export async function mailNewAssignees(tx: Tx, actionIds: string[]): Promise<() => Promise<void>> {
  if (actionIds.length === 0) return async () => {};
  const rows = await tx<AssignedAction[]>`
    select a.id, a.title, a.priority, a.due_at, s.name as site_name, s.timezone, o.name as org_name, o.slug as org_slug,
           a.assignee_id, pa.email as assignee_email, pa.display_name as assignee_name, pc.display_name as actor_name
    from public.actions a
    join public.sites s on s.id = a.site_id
    join public.organizations o on o.id = a.org_id
    left join public.profiles pa on pa.user_id = a.assignee_id
    left join public.profiles pc on pc.user_id = (select auth.uid())
    where a.id in ${tx(actionIds)} and a.assignee_id is not null and a.assignee_id is distinct from (select auth.uid())
    order by a.created_at, a.id
  `;
  const byAssignee = Map.groupBy(rows.filter((row) => row.assignee_email), (row) => row.assignee_id);
  const mails = [...byAssignee.values()].map(mailFor);
  return async () => {
    for (const mail of mails) await sendMail(mail);
  };
}
