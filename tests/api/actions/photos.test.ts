// Evidence of a fix through the api and the unmodified supabase-js: a photo checked in on an
// action, uploaded to its signed URL, confirmed by its bytes, shown through a signed URL and
// removed; the refusals (content not a photo, size not as declared, more than ten, after the
// action is resolved) leave nothing behind. Storage is always called as the caller.
import { describe, expect, it } from 'vitest';
import { actionIn, actionPath, openAction } from './support.ts';
import { call, del, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { inspectionWorldAndStranger, type User } from '../../support/fixtures.ts';
import { JPEG } from '../../support/photos.ts';

const { world } = inspectionWorldAndStranger();

const photosPath = (actionId: string) => `${actionPath(world.org.id, actionId)}/attachments`;

async function checkIn(user: User, actionId: string, body: Record<string, unknown> = {}) {
  return await post(user.client, photosPath(actionId), { content_type: 'image/jpeg', byte_size: JPEG.length, ...body });
}

async function upload(user: User, target: { path: string; token: string }, bytes: Uint8Array, contentType = 'image/jpeg') {
  return await user.client.storage.from('evidence').uploadToSignedUrl(target.path, target.token, bytes, { contentType });
}

async function rowsOf(actionId: string) {
  return [...(await db()`select * from public.action_attachments where action_id = ${actionId} order by created_at`)];
}

async function objectExists(path: string): Promise<boolean> {
  return (await db()`select 1 from storage.objects where bucket_id = 'evidence' and name = ${path}`).length === 1;
}

describe('a photo of a fix', () => {
  it('is checked in, uploaded, confirmed, shown to every member through a signed URL and removed', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const created = expectStatus(await checkIn(world.inspector, action.id), 201);
    expect(created.attachment).toMatchObject({ action_id: action.id, status: 'pending', byte_size: JPEG.length, uploaded_by: world.inspector.userId });
    expect(created.upload.path).toMatch(new RegExp(`^${world.org.id}/actions/${action.id}/[0-9a-f-]{36}\\.jpg$`));

    expect((await upload(world.inspector, created.upload, JPEG)).error).toBeNull();
    const confirmed = expectStatus(await post(world.inspector.client, `${photosPath(action.id)}/${created.attachment.id}/confirm`, undefined), 200);
    expect(confirmed).toMatchObject({ id: created.attachment.id, status: 'confirmed', confirmed_at: expect.any(String) });

    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, action.id)), 200);
    expect(detail.attachments.map((a: any) => [a.id, a.status])).toEqual([[created.attachment.id, 'confirmed']]);
    const signed = expectStatus(await call(world.viewer.client, `${photosPath(action.id)}/${created.attachment.id}/url`), 200);
    const download = await fetch(signed.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(JPEG);

    expect((await del(world.inspector.client, `${photosPath(action.id)}/${created.attachment.id}`)).status).toBe(204);
    expect(await rowsOf(action.id)).toEqual([]);
    expect(await objectExists(created.upload.path)).toBe(false);
  });

  // Issue 24: deleting the file with supabase-js and the user's own token used to leave the row.
  it('deleted straight through Storage while the action is open, takes its row along, audited as the person', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const created = expectStatus(await checkIn(world.inspector, action.id), 201);
    expect((await upload(world.inspector, created.upload, JPEG)).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${photosPath(action.id)}/${created.attachment.id}/confirm`, undefined), 200);

    // A viewer deletes nothing.
    expect((await world.viewer.client.storage.from('evidence').remove([created.upload.path])).data ?? []).toEqual([]);
    expect(await objectExists(created.upload.path)).toBe(true);

    const { data, error } = await world.inspector.client.storage.from('evidence').remove([created.upload.path]);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name)).toEqual([created.upload.path]);
    expect(await objectExists(created.upload.path)).toBe(false);
    expect(await rowsOf(action.id)).toEqual([]);
    const audited = await db()`
      select action, actor_user_id from public.audit_log where entity = 'action_attachments' and entity_id = ${created.attachment.id} order by at, id
    `;
    expect(audited.map((r) => [r.action, r.actor_user_id])).toEqual([
      ['insert', world.inspector.userId], ['update', world.inspector.userId], ['delete', world.inspector.userId],
    ]);
    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, action.id)), 200);
    expect(detail.attachments).toEqual([]);
  });

  it('refuses a file that is not the photo declared (415) and one of another size (422), removing both', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    const text = new TextEncoder().encode('this is not a photo, only words');
    const renamed = expectStatus(await checkIn(world.inspector, action.id, { byte_size: text.length }), 201);
    expect((await upload(world.inspector, renamed.upload, text)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${photosPath(action.id)}/${renamed.attachment.id}/confirm`, undefined), 415, 'unsupported_media_type');
    expect(await objectExists(renamed.upload.path)).toBe(false);

    const bigger = expectStatus(await checkIn(world.inspector, action.id, { byte_size: JPEG.length + 5 }), 201);
    expect((await upload(world.inspector, bigger.upload, JPEG)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${photosPath(action.id)}/${bigger.attachment.id}/confirm`, undefined), 422, 'validation_failed', ['file']);
    expect(await objectExists(bigger.upload.path)).toBe(false);
    expect(await rowsOf(action.id)).toEqual([]);
  });

  it('holds at most ten photos per action', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    for (let i = 0; i < 10; i++) expectStatus(await checkIn(world.inspector, action.id), 201);
    const problem = expectProblem(await checkIn(world.inspector, action.id), 422, 'limit_exceeded');
    expect(problem.title).toBe("You've reached the limit of 10 photos.");
    expect(await rowsOf(action.id)).toHaveLength(10);
  });

  it('takes no photo once the action is resolved: no check-in, and a pending one is never confirmed', async () => {
    const action = await actionIn(world, 'in_progress');
    const pending = expectStatus(await checkIn(world.inspector, action.id), 201);
    expectStatus(await post(world.inspector.client, `${actionPath(world.org.id, action.id)}/transition`, { to: 'resolved', note: 'Fixed.' }), 200);
    const problem = expectProblem(await checkIn(world.inspector, action.id), 409, 'invalid_transition');
    expect(problem.title).toBe("This action is resolved, so it can't be changed.");
    // A signed URL issued while the action was open still carries its upload (Storage honours the
    // token, as hosted Storage does), but the photo never becomes evidence of the resolved action.
    expect((await upload(world.inspector, pending.upload, JPEG)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${photosPath(action.id)}/${pending.attachment.id}/confirm`, undefined), 409, 'invalid_transition');
    expectProblem(await del(world.inspector.client, `${photosPath(action.id)}/${pending.attachment.id}`), 409, 'invalid_transition');
    const detail = expectStatus(await call(world.viewer.client, actionPath(world.org.id, action.id)), 200);
    expect(detail.attachments.map((a: any) => a.status)).toEqual(['pending']);
  });

  it('is for whoever works the action: a manager may, an inspector it is not assigned to may not', async () => {
    const action = await openAction(world, { assignee_id: world.inspector.userId });
    expectStatus(await checkIn(world.manager, action.id), 201);
    const problem = expectProblem(await checkIn(world.inspector2, action.id), 403, 'forbidden');
    expect(problem.detail).toBe('This action is assigned to someone else.');
    expect(await rowsOf(action.id)).toHaveLength(1);
  });
});
