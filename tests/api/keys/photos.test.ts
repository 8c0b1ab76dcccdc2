// Photos with an API key (issue 13 part 1: a key works on every route its role allows): an
// inspector key checks a photo in on an unassigned inspection, uploads it to the signed URL the
// api hands out, confirms it, gets a signed download URL and removes it; a viewer key may do none
// of it, and a key of another organization finds nothing. Storage sees the key's requests as the
// service role after the api's checks (docs/api-keys.md), so these also prove the checks hold.
import { describe, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { createClient } from '@supabase/supabase-js';
import { db } from '../../support/database.ts';
import { del, expectProblem, expectStatus, post, call } from '../../support/api.ts';
import { inProgressInspection, inspectionPath, inspectionWorldAndStranger } from '../../support/fixtures.ts';
import { openAction } from '../actions/support.ts';
import { createKey } from './support.ts';
import { JPEG } from '../../support/photos.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();

/** Uploads to a signed URL as another service would: the URL's token is all it needs. */
async function uploadTo(upload: { path: string; token: string }) {
  const storage = createClient(stack.API_URL, stack.PUBLISHABLE_KEY, { auth: { persistSession: false } }).storage;
  const { error } = await storage.from('evidence').uploadToSignedUrl(upload.path, upload.token, JPEG, { contentType: 'image/jpeg' });
  expect(error).toBeNull();
}

const objectExists = async (path: string) => (await db()`select 1 from storage.objects where bucket_id = 'evidence' and name = ${path}`).length === 1;

describe('inspection photos with a key', () => {
  it('an inspector key adds, confirms, shows and removes a photo of an unassigned inspection', async () => {
    const key = await createKey(world.owner, world.org.id, 'inspector');
    const inspectionId = await inProgressInspection(world, world.manager);
    const path = `${inspectionPath(world.org.id, inspectionId)}/attachments`;
    const created = expectStatus(await post(key.client, path, { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length }), 201);
    expect(created.attachment).toMatchObject({ status: 'pending', uploaded_by: null });
    await uploadTo(created.upload);
    const confirmed = expectStatus(await post(key.client, `${path}/${created.attachment.id}/confirm`, undefined), 200);
    expect(confirmed.status).toBe('confirmed');
    const url = expectStatus(await call(key.client, `${path}/${created.attachment.id}/url`), 200);
    expect((await fetch(url.url)).status).toBe(200);
    expect(await objectExists(created.upload.path)).toBe(true);
    expectStatus(await del(key.client, `${path}/${created.attachment.id}`), 204);
    expect(await objectExists(created.upload.path)).toBe(false);
  });

  it('an inspector key cannot add a photo to an inspection assigned to a person; a viewer key to none; another organization\'s key finds none', async () => {
    const inspector = await createKey(world.owner, world.org.id, 'inspector');
    const viewer = await createKey(world.owner, world.org.id, 'viewer');
    const assigned = await inProgressInspection(world, world.inspector, { assignee_id: world.inspector.userId });
    const open = await inProgressInspection(world, world.manager);
    const body = { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length };
    expectProblem(await post(inspector.client, `${inspectionPath(world.org.id, assigned)}/attachments`, body), 403, 'forbidden');
    expectProblem(await post(viewer.client, `${inspectionPath(world.org.id, open)}/attachments`, body), 403, 'forbidden');
    // A photo the manager added: the viewer key may see it but not remove it.
    const created = expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, open)}/attachments`, body), 201);
    await uploadTo(created.upload);
    expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, open)}/attachments/${created.attachment.id}/confirm`, undefined), 200);
    expectStatus(await call(viewer.client, `${inspectionPath(world.org.id, open)}/attachments/${created.attachment.id}/url`), 200);
    expectProblem(await del(viewer.client, `${inspectionPath(world.org.id, open)}/attachments/${created.attachment.id}`), 403, 'forbidden');
    expect(await objectExists(created.upload.path)).toBe(true);

    const strangerKey = await createKey(stranger, strangerWorld.orgId, 'manager');
    expectProblem(await call(strangerKey.client, `${inspectionPath(world.org.id, open)}/attachments/${created.attachment.id}/url`), 404, 'not_found');
    expectProblem(await del(strangerKey.client, `${inspectionPath(world.org.id, open)}/attachments/${created.attachment.id}`), 404, 'not_found');
    expect(await objectExists(created.upload.path)).toBe(true);
  });
});

describe('action photos with a key', () => {
  it('a manager key adds and confirms a fix photo; a viewer key may not', async () => {
    const manager = await createKey(world.owner, world.org.id, 'manager');
    const viewer = await createKey(world.owner, world.org.id, 'viewer');
    const action = await openAction(world);
    const path = `orgs/${world.org.id}/actions/${action.id}/attachments`;
    const body = { content_type: 'image/jpeg', byte_size: JPEG.length };
    expectProblem(await post(viewer.client, path, body), 403, 'forbidden');
    const created = expectStatus(await post(manager.client, path, body), 201);
    await uploadTo(created.upload);
    expect(expectStatus(await post(manager.client, `${path}/${created.attachment.id}/confirm`, undefined), 200).status).toBe('confirmed');
    expectStatus(await call(viewer.client, `${path}/${created.attachment.id}/url`), 200);
    expectProblem(await del(viewer.client, `${path}/${created.attachment.id}`), 403, 'forbidden');
    expectStatus(await del(manager.client, `${path}/${created.attachment.id}`), 204);
  });
});
