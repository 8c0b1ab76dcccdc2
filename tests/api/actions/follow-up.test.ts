// What follows an action's changes: the assignee is mailed when someone else gives them work (and
// nobody else, and not for a refused request); members hear each change on org:<id>; the detail
// offers each person exactly the moves they may make; the audit log (filtered, paged) and the
// activity feed tell the story; the dashboard counts actions and the caller's own work.
import type { RealtimeChannel, SupabaseClient } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { listMail, waitForMail } from '../../support/mail.ts';
import { subscribe, waitForValue } from '../../support/realtime.ts';
import { actionIn, actionPath, actionsPath, move, openAction, submittedWithFailures, answeredWithFailures } from './support.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionPath, inspectionWorldAndStranger, type User } from '../../support/fixtures.ts';

const { world, stranger } = inspectionWorldAndStranger();
const channels: Array<{ client: SupabaseClient; channel: RealtimeChannel }> = [];

afterAll(async () => {
  for (const { client, channel } of channels) await client.removeChannel(channel);
});

async function mailsTo(user: User) {
  return (await listMail()).filter((mail) => mail.to.includes(user.email.toLowerCase()));
}

describe('the assignee is told', () => {
  it('opening an action for someone mails them once, with a link to it; opening one for yourself mails nobody', async () => {
    const before = (await mailsTo(world.inspector)).length;
    const action = await openAction(world, { assignee_id: world.inspector.userId, title: 'Fix the walk-in door seal', priority: 'high' });
    const mail = await waitForMail({ to: world.inspector.email, subject: /Fix the walk-in door seal/ });
    expect(mail.subject).toBe('Action for you: Fix the walk-in door seal');
    expect(mail.text).toContain(`${world.manager.displayName} assigned a corrective action to you`);
    expect(mail.text).toContain('High priority');
    expect(mail.html).toContain(`/o/${world.org.slug}/actions/${action.id}`);

    await openAction(world, { title: 'My own errand' }, world.inspector);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mailsTo(world.inspector)).length).toBe(before + 1);
  });

  it('reassigning mails the new assignee; a refused reassignment mails nobody', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const before = (await mailsTo(world.inspector2)).length;
    expectStatus(await call(world.manager.client, actionPath(world.org.id, action.id), { method: 'PATCH', body: { assignee_id: world.inspector2.userId } }), 200);
    await waitForMail({ to: world.inspector2.email, subject: /Action for you/ });
    expect((await mailsTo(world.inspector2)).length).toBe(before + 1);

    const viewerBefore = (await mailsTo(world.viewer)).length;
    expectProblem(await call(world.manager.client, actionPath(world.org.id, action.id), { method: 'PATCH', body: { assignee_id: world.viewer.userId } }), 422, 'validation_failed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mailsTo(world.viewer)).length).toBe(viewerBefore);
  });

  it('a manager submitting an inspector\'s inspection mails the inspector one mail listing its actions; an inspector submitting their own mails nobody', async () => {
    const own = (await mailsTo(world.inspector)).length;
    await submittedWithFailures(world, world.inspector);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await mailsTo(world.inspector)).length).toBe(own);

    const id = await answeredWithFailures(world, world.manager, undefined, { assignee_id: world.inspector2.userId });
    const before = (await mailsTo(world.inspector2)).length;
    expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
    const mail = await waitForMail({ to: world.inspector2.email, subject: /3 actions for you/ });
    expect(mail.subject).toBe(`3 actions for you in ${world.org.name}`);
    for (const title of ['Floor is clean — Fail', 'Fridge temperature — 9 °C', 'Overall cleanliness — Poor']) expect(mail.text).toContain(title);
    expect((await mailsTo(world.inspector2)).length).toBe(before + 1);
  });
});

describe('live', () => {
  it('members hear an action opened and each move on org:<id>, with its status and assignee; a stranger is not admitted', async () => {
    const events: Array<{ event: string; payload: any }> = [];
    const channel = world.viewer.client.channel(`org:${world.org.id}`, { config: { private: true } });
    channels.push({ client: world.viewer.client, channel });
    channel.on('broadcast', { event: '*' }, (message) => events.push({ event: message.event, payload: message.payload }));
    expect((await subscribe(channel)).status).toBe('SUBSCRIBED');
    const outsider = stranger.client.channel(`org:${world.org.id}`, { config: { private: true } });
    channels.push({ client: stranger.client, channel: outsider });
    expect((await subscribe(outsider)).status).not.toBe('SUBSCRIBED');

    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const created = await waitForValue('action_created', () => events.find((e) => e.event === 'action_created' && e.payload.id === action.id));
    expect(created.payload).toMatchObject({ entity: 'action', status: 'open', assignee_id: world.inspector.userId, site_id: world.site.id, actor_id: world.manager.userId });
    await move(world, action.id, world.inspector, 'in_progress');
    const started = await waitForValue('action_updated', () => events.find((e) => e.event === 'action_updated' && e.payload.id === action.id));
    expect(started.payload).toMatchObject({ status: 'in_progress', actor_id: world.inspector.userId });
  });
});

describe('the moves each person may make', () => {
  it('the detail offers exactly the moves of the table for each role and state', async () => {
    const expected: Record<string, Record<string, string[]>> = {
      open: { manager: ['in_progress', 'canceled'], inspector: ['in_progress'], inspector2: [], viewer: [] },
      in_progress: { manager: ['resolved', 'canceled'], inspector: ['resolved'], inspector2: [], viewer: [] },
      resolved: { manager: ['open', 'verified', 'canceled'], inspector: [], inspector2: [], viewer: [] },
      verified: { manager: [], inspector: [], inspector2: [], viewer: [] },
    };
    for (const [status, byRole] of Object.entries(expected)) {
      const action = await actionIn(world, status);
      for (const [role, moves] of Object.entries(byRole)) {
        const user = (world as any)[role] as User;
        const detail = expectStatus(await call(user.client, actionPath(world.org.id, action.id)), 200);
        expect(detail.moves.map((m: any) => m.to).sort(), `${role} on ${status}`).toEqual([...moves].sort());
      }
    }
    const resolved = await actionIn(world, 'resolved');
    const detail = expectStatus(await call(world.owner.client, actionPath(world.org.id, resolved.id)), 200);
    expect(detail.moves.find((m: any) => m.to === 'open')).toEqual({ to: 'open', verb: 'reopened', note_message: 'Say why the fix is not good enough.' });
  });

  it('reopening with a note, then canceling: the history holds both notes and who', async () => {
    const action = await actionIn(world, 'resolved');
    await move(world, action.id, world.manager, 'open', 'The tap still drips.');
    const canceled = await move(world, action.id, world.admin, 'canceled', 'Duplicate of the plumbing job.');
    expect(canceled).toMatchObject({ status: 'canceled', resolution_note: null });
    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, action.id)), 200);
    expect(detail.events.slice(-2).map((e: any) => [e.from_status, e.to_status, e.note, e.actor_name])).toEqual([
      ['resolved', 'open', 'The tap still drips.', world.manager.displayName],
      ['open', 'canceled', 'Duplicate of the plumbing job.', world.admin.displayName],
    ]);
  });
});

describe('audit log, activity and dashboard', () => {
  it('the audit log filters by entity, entity, actor and time, newest first, page by page; entries name the actor and the subject', async () => {
    const action = await actionIn(world, 'resolved');
    const path = `orgs/${world.org.id}/audit-log`;
    const entries = expectStatus(await call(world.manager.client, `${path}?entity=actions&entity_id=${action.id}`), 200).data;
    expect(entries.map((e: any) => [e.action, e.after.status, e.actor_name, e.subject])).toEqual([
      ['update', 'resolved', world.inspector.displayName, action.title],
      ['update', 'in_progress', world.inspector.displayName, action.title],
      ['insert', 'open', world.manager.displayName, action.title],
    ]);
    const byInspector = expectStatus(await call(world.manager.client, `${path}?entity_id=${action.id}&actor_id=${world.inspector.userId}`), 200).data;
    expect(byInspector).toHaveLength(2);
    const future = expectStatus(await call(world.manager.client, `${path}?since=2099-01-01T00:00:00Z`), 200).data;
    expect(future).toEqual([]);

    const seen = new Set<number>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = expectStatus(await call(world.owner.client, `${path}?limit=7${cursor ? `&cursor=${cursor}` : ''}`), 200);
      for (const entry of page.data) {
        expect(seen.has(entry.id)).toBe(false);
        seen.add(entry.id);
      }
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 100);
    const [{ n }] = await db()`select count(*)::int as n from public.audit_log where org_id = ${world.org.id}`;
    expect(seen.size).toBe(n);
  });

  it('entries about a site\'s things carry the site\'s time zone, so their times read on its clock; the rest carry none', async () => {
    const id = await submittedWithFailures(world);
    const [{ timezone }] = await db()`select s.timezone from public.inspections i join public.sites s on s.id = i.site_id where i.id = ${id}`;
    const path = `orgs/${world.org.id}/audit-log`;
    const ofInspection = expectStatus(await call(world.manager.client, `${path}?entity=inspections&entity_id=${id}`), 200).data;
    expect(ofInspection.length).toBeGreaterThan(0);
    expect(ofInspection.every((e: any) => e.site_timezone === timezone)).toBe(true);
    const answers = expectStatus(await call(world.manager.client, `${path}?entity=answers&limit=5`), 200).data;
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((e: any) => typeof e.site_timezone === 'string' && e.site_timezone.length > 0)).toBe(true);
    const memberships = expectStatus(await call(world.owner.client, `${path}?entity=memberships&limit=5`), 200).data;
    expect(memberships.length).toBeGreaterThan(0);
    expect(memberships.every((e: any) => e.site_timezone === null)).toBe(true);
    const feed = expectStatus(await call(world.viewer.client, `orgs/${world.org.id}/activity?limit=50`), 200).data;
    const actions = feed.filter((e: any) => e.entity === 'actions' && e.after?.inspection_id === id);
    expect(actions.length).toBeGreaterThan(0);
    expect(actions.every((e: any) => e.site_timezone === timezone)).toBe(true);
  });

  it('invitation entries are for owners and admins only', async () => {
    expectStatus(await post(world.admin.client, `orgs/${world.org.id}/invitations`, { email: `someone-${Date.now()}@example.test`, role: 'viewer' }), 201);
    const ofOwner = expectStatus(await call(world.owner.client, `orgs/${world.org.id}/audit-log?entity=invitations`), 200).data;
    const ofManager = expectStatus(await call(world.manager.client, `orgs/${world.org.id}/audit-log?entity=invitations`), 200).data;
    expect(ofOwner.length).toBeGreaterThan(0);
    expect(ofManager).toEqual([]);
  });

  it('the activity feed shows the steps of the work to every member, not each saved answer', async () => {
    const id = await submittedWithFailures(world);
    const feed = expectStatus(await call(world.viewer.client, `orgs/${world.org.id}/activity?limit=50`), 200).data;
    const mine = feed.filter((e: any) => e.entity_id === id || e.after?.inspection_id === id);
    expect(mine.every((e: any) => ['inspections', 'actions'].includes(e.entity))).toBe(true);
    expect(mine.filter((e: any) => e.entity === 'inspections').map((e: any) => e.after.status)).toEqual(['submitted', 'in_progress', 'scheduled']);
    expect(mine.filter((e: any) => e.entity === 'actions')).toHaveLength(3);
  });

  it('the dashboard counts actions by status, open and overdue ones, and the caller\'s own work', async () => {
    const overdue = await openAction(world, { assignee_id: world.inspector2.userId, due_at: '2020-01-01T00:00:00Z', title: 'Long overdue' });
    const [counts] = await db()`
      select count(*) filter (where status in ('open', 'in_progress'))::int as open,
             count(*) filter (where status in ('open', 'in_progress') and due_at < now())::int as overdue,
             count(*) filter (where assignee_id = ${world.inspector2.userId} and status in ('open', 'in_progress'))::int as mine,
             count(*) filter (where assignee_id = ${world.inspector2.userId} and status in ('open', 'in_progress') and due_at < now())::int as my_overdue
      from public.actions where org_id = ${world.org.id}
    `;
    const dashboard = expectStatus(await call(world.inspector2.client, `orgs/${world.org.id}/dashboard`), 200);
    expect(dashboard.open_actions).toBe(counts.open);
    expect(dashboard.overdue_actions).toBe(counts.overdue);
    expect(dashboard.my_work.open_actions).toBe(counts.mine);
    expect(dashboard.my_work.overdue_actions).toBe(counts.my_overdue);
    expect(dashboard.overdue_actions).toBeGreaterThanOrEqual(1);
    const list = expectStatus(await call(world.inspector2.client, `${actionsPath(world.org.id)}?assignee_id=${world.inspector2.userId}&overdue=true`), 200).data;
    expect(list.map((a: any) => a.id)).toContain(overdue.id);
    expect(list.every((a: any) => a.overdue)).toBe(true);
  });
});
