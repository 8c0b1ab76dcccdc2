// Photo evidence through the api function and the unmodified supabase-js: check in a photo, upload
// it to the signed URL, confirm, show it through a signed download URL, delete it; and every
// refusal (type by content, size, per-item limit, state, role, tenancy, item kind) with proof
// that nothing was left behind. No service role anywhere: Storage signs as the caller.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { stack } from '../../support/stack.ts';
import { call, del, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import {
  forceStatus, inProgressInspection, inspectionPath, inspectionWorldAndStranger, scheduleInspection, type User,
} from '../../support/fixtures.ts';
import { JPEG } from '../../support/photos.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();

/** A PNG signature and IHDR of the given size (no pixel data: only the header is read). */
function pngHeader(width: number, height: number): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes.set([0x08, 0x06, 0x00, 0x00, 0x00], 24);
  return bytes;
}

const attachmentsPath = (inspectionId: string, orgId = world.org.id) => `${inspectionPath(orgId, inspectionId)}/attachments`;

async function requestUpload(user: User, inspectionId: string, body: Record<string, unknown> = {}) {
  return await post(user.client, attachmentsPath(inspectionId), { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length, ...body });
}

async function uploadTo(user: User, upload: { path: string; token: string }, bytes: Uint8Array, contentType = 'image/jpeg') {
  return await user.client.storage.from('evidence').uploadToSignedUrl(upload.path, upload.token, bytes, { contentType });
}

async function rowsOf(inspectionId: string) {
  return [...(await db()`select * from public.attachments where inspection_id = ${inspectionId} order by created_at`)];
}

async function objectExists(path: string): Promise<boolean> {
  return (await db()`select 1 from storage.objects where bucket_id = 'evidence' and name = ${path}`).length === 1;
}

/** A photo's audit entries, oldest first: [action, the user who did it]. */
async function auditOf(attachmentId: string): Promise<[string, string | null][]> {
  const rows = await db()`
    select action, actor_user_id from public.audit_log where entity = 'attachments' and entity_id = ${attachmentId} order by at, id
  `;
  return rows.map((r) => [r.action, r.actor_user_id]);
}

/** A photo checked in by `user`, uploaded and confirmed through the api. */
async function confirmedPhoto(user: User, inspectionId: string) {
  const created = expectStatus(await requestUpload(user, inspectionId), 201);
  expect((await uploadTo(user, created.upload, JPEG)).error).toBeNull();
  expectStatus(await post(user.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200);
  return created;
}

describe('a photo from check-in to removal', () => {
  let inspectionId: string;
  beforeAll(async () => {
    inspectionId = await inProgressInspection(world, world.manager);
  });

  it('is checked in, uploaded to its signed URL, confirmed, shown through a signed URL and deleted', async () => {
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    expect(created.attachment).toMatchObject({
      inspection_id: inspectionId,
      item_key: 'photo',
      content_type: 'image/jpeg',
      byte_size: JPEG.length,
      status: 'pending',
      uploaded_by: world.inspector.userId,
      confirmed_at: null,
    });
    expect(created.upload.path).toMatch(new RegExp(`^${world.org.id}/${inspectionId}/photo/[0-9a-f-]{36}\\.jpg$`));
    expect(created.upload.signed_url).toContain(`/storage/v1/object/upload/sign/evidence/${created.upload.path}?token=`);

    const uploaded = await uploadTo(world.inspector, created.upload, JPEG);
    expect(uploaded.error).toBeNull();
    const [object] = await db()`select owner_id from storage.objects where bucket_id = 'evidence' and name = ${created.upload.path}`;
    expect(object.owner_id).toBe(world.inspector.userId);

    const confirmed = expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200);
    expect(confirmed).toMatchObject({ id: created.attachment.id, status: 'confirmed', confirmed_at: expect.any(String) });
    // Confirming again changes nothing.
    expect(expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200))
      .toEqual(confirmed);

    // Every member may look at it, the viewer included.
    const signed = expectStatus(await call(world.viewer.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/url`), 200);
    expect(Date.parse(signed.expires_at) - Date.now()).toBeGreaterThan(59 * 60 * 1000);
    expect(signed.url.startsWith(`${stack.API_URL}/storage/v1/object/sign/evidence/`)).toBe(true);
    const download = await fetch(signed.url);
    expect(download.status).toBe(200);
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(JPEG);

    expect(await auditOf(created.attachment.id)).toEqual([['insert', world.inspector.userId], ['update', world.inspector.userId]]);

    expect((await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`)).status).toBe(204);
    expect(await rowsOf(inspectionId)).toEqual([]);
    expect(await objectExists(created.upload.path)).toBe(false);
    // Removed once, by the inspector (Storage's transaction deleted the row, as the caller).
    expect((await auditOf(created.attachment.id)).at(-1)).toEqual(['delete', world.inspector.userId]);
    expect(await auditOf(created.attachment.id)).toHaveLength(3);
  });

  it('signs no download URL for a photo still pending, and removes one never uploaded', async () => {
    const created = expectStatus(await requestUpload(world.manager, inspectionId), 201);
    expectProblem(await call(world.manager.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/url`), 404, 'not_found');
    expect((await del(world.manager.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`)).status).toBe(204);
    expect((await rowsOf(inspectionId)).map((r) => r.id)).not.toContain(created.attachment.id);
    expect(await auditOf(created.attachment.id)).toEqual([['insert', world.manager.userId], ['delete', world.manager.userId]]);
  });

  it('keeps a pending row when confirm comes before the upload, so the upload can still follow', async () => {
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    expectProblem(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 422, 'validation_failed', ['file']);
    expect((await rowsOf(inspectionId)).map((r) => r.id)).toEqual([created.attachment.id]);
    expect((await uploadTo(world.inspector, created.upload, JPEG)).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200);
    expect((await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`)).status).toBe(204);
  });
});

// Issue 24: supabase-js's `storage.from('evidence').remove()` with the user's own token used to
// delete a confirmed photo's file and leave its row, confirmed, with no file and no audit entry.
describe('a photo deleted straight through Storage', () => {
  it('takes its row along, audited as the person who deleted it, while the inspection is in progress', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = await confirmedPhoto(world.inspector, inspectionId);
    const { data, error } = await world.inspector.client.storage.from('evidence').remove([created.upload.path]);
    expect(error).toBeNull();
    expect(data!.map((o) => o.name)).toEqual([created.upload.path]);
    expect(await objectExists(created.upload.path)).toBe(false);
    expect((await rowsOf(inspectionId)).map((r) => r.id)).not.toContain(created.attachment.id);
    expect((await auditOf(created.attachment.id)).at(-1)).toEqual(['delete', world.inspector.userId]);
    // The api no longer shows it.
    expectProblem(await call(world.viewer.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/url`), 404, 'not_found');
    const detail = expectStatus(await call(world.viewer.client, inspectionPath(world.org.id, inspectionId)), 200);
    expect(detail.attachments.map((a: { id: string }) => a.id)).not.toContain(created.attachment.id);
  });

  it('takes a pending photo\'s row along too', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    expect((await uploadTo(world.inspector, created.upload, JPEG)).error).toBeNull();
    const { data } = await world.inspector.client.storage.from('evidence').remove([created.upload.path]);
    expect(data!.map((o) => o.name)).toEqual([created.upload.path]);
    expect((await rowsOf(inspectionId)).map((r) => r.id)).not.toContain(created.attachment.id);
    expect((await auditOf(created.attachment.id)).map(([action]) => action)).toEqual(['insert', 'delete']);
  });

  it('deletes nothing for a viewer or another organization, and the photo stays whole', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = await confirmedPhoto(world.inspector, inspectionId);
    for (const person of [world.viewer, stranger]) {
      const { data } = await person.client.storage.from('evidence').remove([created.upload.path]);
      expect(data ?? []).toEqual([]);
    }
    expect(await objectExists(created.upload.path)).toBe(true);
    expect((await rowsOf(inspectionId)).find((r) => r.id === created.attachment.id)?.confirmed_at).not.toBeNull();
    expect((await auditOf(created.attachment.id)).map(([action]) => action)).toEqual(['insert', 'update']);
  });
});

describe('removing a photo where the organization requires MFA', () => {
  it('refuses an aal1 session through the api (403 mfa_required) and through Storage, and the photo stays whole', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = await confirmedPhoto(world.inspector, inspectionId);
    await db()`update public.organizations set require_mfa = true where id = ${world.org.id}`;
    try {
      expectProblem(await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`), 403, 'mfa_required');
      const { data, error } = await world.inspector.client.storage.from('evidence').remove([created.upload.path]);
      expect(error).not.toBeNull();
      expect(data).toBeNull();
    } finally {
      await db()`update public.organizations set require_mfa = false where id = ${world.org.id}`;
    }
    expect(await objectExists(created.upload.path)).toBe(true);
    expect((await rowsOf(inspectionId)).map((r) => r.id)).toEqual([created.attachment.id]);
    expect((await auditOf(created.attachment.id)).map(([action]) => action)).toEqual(['insert', 'update']);
  });
});

describe('checking in with an Idempotency-Key', () => {
  it('answers a retry with the same upload and writes one row', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const key = randomUUID();
    const body = { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length };
    const first = expectStatus(await post(world.inspector.client, attachmentsPath(inspectionId), body, { 'Idempotency-Key': key }), 201);
    const retry = await post(world.inspector.client, attachmentsPath(inspectionId), body, { 'Idempotency-Key': key });
    expect(expectStatus(retry, 201)).toEqual(first);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect((await rowsOf(inspectionId)).map((r) => r.id)).toEqual([first.attachment.id]);
    expect((await uploadTo(world.inspector, first.upload, JPEG)).error).toBeNull();
  });

  it('serves more keyed check-ins at once than the function has database connections (5)', async () => {
    const inspections = await Promise.all([inProgressInspection(world, world.manager), inProgressInspection(world, world.manager), inProgressInspection(world, world.manager)]);
    const body = { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length };
    const responses = await Promise.all(
      [...inspections, ...inspections].map((id) => post(world.inspector.client, attachmentsPath(id), body, { 'Idempotency-Key': randomUUID() })),
    );
    expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    for (const id of inspections) expect(await rowsOf(id)).toHaveLength(2);
  });

  it('runs concurrent duplicates once: the others replay it or ask for a retry in a moment', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const key = randomUUID();
    const body = { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length };
    const responses = await Promise.all([1, 2, 3].map(() => post(world.inspector.client, attachmentsPath(inspectionId), body, { 'Idempotency-Key': key })));
    expect(responses.every((r) => r.status === 201 || r.status === 503)).toBe(true);
    const rows = await rowsOf(inspectionId);
    expect(rows).toHaveLength(1);
    const retry = expectStatus(await post(world.inspector.client, attachmentsPath(inspectionId), body, { 'Idempotency-Key': key }), 201);
    expect(retry.attachment.id).toBe(rows[0].id);
  });

  it('keeps no key for a refused check-in, so the same key works with a corrected body', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const key = randomUUID();
    const tooBig = await post(world.inspector.client, attachmentsPath(inspectionId), { item_key: 'photo', content_type: 'image/jpeg', byte_size: 10 * 1024 * 1024 + 1 }, { 'Idempotency-Key': key });
    expect(tooBig.status).toBe(413);
    const fixed = await post(world.inspector.client, attachmentsPath(inspectionId), { item_key: 'photo', content_type: 'image/jpeg', byte_size: JPEG.length }, { 'Idempotency-Key': key });
    expect(fixed.status).toBe(201);
    expect(await rowsOf(inspectionId)).toHaveLength(1);
  });
});

describe('Storage signs upload URLs only for a pending photo of the caller', () => {
  it('lets the uploader sign their pending path, and nobody else, nor any other path', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    const evidence = (user: User) => user.client.storage.from('evidence');

    const mine = await evidence(world.inspector).createSignedUploadUrl(created.upload.path);
    expect(mine.error).toBeNull();
    for (const other of [world.manager, world.owner, world.viewer, world.inspector2, stranger]) {
      const theirs = await evidence(other).createSignedUploadUrl(created.upload.path);
      expect(theirs.error, `${other.displayName} signed someone else's photo path`).not.toBeNull();
    }
    // A path the api never checked in: refused even to the organization's owner.
    const madeUp = `${world.org.id}/${inspectionId}/photo/${randomUUID()}.jpg`;
    expect((await evidence(world.owner).createSignedUploadUrl(madeUp)).error).not.toBeNull();
    expect((await evidence(world.owner).upload(madeUp, JPEG, { contentType: 'image/jpeg' })).error).not.toBeNull();
    expect(await objectExists(madeUp)).toBe(false);

    // Once confirmed the path is closed: no second upload over checked evidence.
    expect((await uploadTo(world.inspector, created.upload, JPEG)).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200);
    expect((await evidence(world.inspector).createSignedUploadUrl(created.upload.path, { upsert: true })).error).not.toBeNull();
  });
});

describe('refused photos', () => {
  let inspectionId: string;
  beforeAll(async () => {
    inspectionId = await inProgressInspection(world, world.manager);
  });

  it('refuses a text file renamed .jpg at confirm (415) and removes the row and the object', async () => {
    const text = new TextEncoder().encode('just some notes, not a photo at all');
    const created = expectStatus(await requestUpload(world.inspector, inspectionId, { byte_size: text.length }), 201);
    expect((await uploadTo(world.inspector, created.upload, text)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 415, 'unsupported_media_type');
    expect(await rowsOf(inspectionId)).toEqual([]);
    expect(await objectExists(created.upload.path)).toBe(false);
  });

  it('refuses a PNG declared as a JPEG (415)', async () => {
    const png = pngHeader(16, 16);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId, { byte_size: png.length }), 201);
    expect((await uploadTo(world.inspector, created.upload, png)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 415, 'unsupported_media_type');
    expect(await rowsOf(inspectionId)).toEqual([]);
  });

  it('refuses an upload whose size is not the one declared (422) and removes it', async () => {
    const created = expectStatus(await requestUpload(world.inspector, inspectionId, { byte_size: JPEG.length + 10 }), 201);
    expect((await uploadTo(world.inspector, created.upload, JPEG)).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 422, 'validation_failed', ['file']);
    expect(await rowsOf(inspectionId)).toEqual([]);
    expect(await objectExists(created.upload.path)).toBe(false);
  });

  it('refuses a photo of more than 40 megapixels (422), and takes one of 40', async () => {
    const huge = pngHeader(10_000, 5_000);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId, { content_type: 'image/png', byte_size: huge.length }), 201);
    expect((await uploadTo(world.inspector, created.upload, huge, 'image/png')).error).toBeNull();
    expectProblem(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 422, 'validation_failed', ['file']);
    expect(await rowsOf(inspectionId)).toEqual([]);

    const fine = pngHeader(8_000, 5_000);
    const ok = expectStatus(await requestUpload(world.inspector, inspectionId, { content_type: 'image/png', byte_size: fine.length }), 201);
    expect((await uploadTo(world.inspector, ok.upload, fine, 'image/png')).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${ok.attachment.id}/confirm`, undefined), 200);
    expect((await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${ok.attachment.id}`)).status).toBe(204);
  });

  it('refuses a declared size over 10 MB (413) and a type that is not a photo (415), writing nothing', async () => {
    expectProblem(await requestUpload(world.inspector, inspectionId, { byte_size: 10 * 1024 * 1024 + 1 }), 413, 'payload_too_large');
    expectProblem(await requestUpload(world.inspector, inspectionId, { content_type: 'image/gif' }), 415, 'unsupported_media_type');
    expectProblem(await requestUpload(world.inspector, inspectionId, { content_type: 'text/html' }), 415, 'unsupported_media_type');
    expect(await rowsOf(inspectionId)).toEqual([]);
  });

  it('refuses bad input with field errors', async () => {
    expectProblem(await requestUpload(world.inspector, inspectionId, { byte_size: 0 }), 422, 'validation_failed', ['byte_size']);
    expectProblem(await requestUpload(world.inspector, inspectionId, { byte_size: 1.5 }), 422, 'validation_failed', ['byte_size']);
    expectProblem(await requestUpload(world.inspector, inspectionId, { item_key: 'Not A Key' }), 422, 'validation_failed', ['item_key']);
    expectProblem(await requestUpload(world.inspector, inspectionId, { extra: true }), 422, 'validation_failed', ['extra']);
    expect(await rowsOf(inspectionId)).toEqual([]);
  });

  it('refuses photos on an item that is not a photo item, or not in the template (422)', async () => {
    expectProblem(await requestUpload(world.inspector, inspectionId, { item_key: 'floor_clean' }), 422, 'validation_failed', ['item_key']);
    expectProblem(await requestUpload(world.inspector, inspectionId, { item_key: 'no_such_item' }), 422, 'validation_failed', ['item_key']);
    expect(await rowsOf(inspectionId)).toEqual([]);
  });
});

describe('the per-item photo limit', () => {
  it('takes max_photos (confirmed and recent pending), refuses one more, and frees the place of a stale pending one', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    // The template's photo item takes 2.
    const first = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    expect((await uploadTo(world.inspector, first.upload, JPEG)).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${first.attachment.id}/confirm`, undefined), 200);
    const second = expectStatus(await requestUpload(world.inspector2, inspectionId), 201);
    const refused = expectProblem(await requestUpload(world.manager, inspectionId), 422, 'limit_exceeded');
    expect(refused.title).toBe("You've reached the limit of 2 photos.");
    expect((await rowsOf(inspectionId)).map((r) => r.id)).toEqual([first.attachment.id, second.attachment.id]);

    // A pending photo older than its upload URL no longer holds a place.
    await db()`update public.attachments set created_at = now() - interval '3 hours' where id = ${second.attachment.id}`;
    expectStatus(await requestUpload(world.manager, inspectionId), 201);
    // …and its stale URL no longer opens Storage to it.
    expect((await world.inspector2.client.storage.from('evidence').createSignedUploadUrl(second.upload.path)).error).not.toBeNull();
  });
});

describe('who may add and remove photos, and when', () => {
  it('lets every filler role add a photo, not viewers (403)', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    for (const filler of [world.owner, world.admin]) {
      const created = expectStatus(await requestUpload(filler, inspectionId), 201);
      expect((await del(filler.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`)).status).toBe(204);
    }
    expectProblem(await requestUpload(world.viewer, inspectionId), 403, 'forbidden');
    expect(await rowsOf(inspectionId)).toEqual([]);
  });

  it('refuses inspectors on an inspection assigned to someone else (403), and lets the assignee in', async () => {
    const inspectionId = await inProgressInspection(world, world.manager, { assignee_id: world.inspector2.userId });
    expectProblem(await requestUpload(world.inspector, inspectionId), 403, 'forbidden');
    expect(await rowsOf(inspectionId)).toEqual([]);
    const created = expectStatus(await requestUpload(world.inspector2, inspectionId), 201);
    expectProblem(await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`), 403, 'forbidden');
    expect(await rowsOf(inspectionId)).toHaveLength(1);
  });

  it('treats another organization as not there (404) on every route', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    const base = `${attachmentsPath(inspectionId)}/${created.attachment.id}`;
    expectProblem(await requestUpload(stranger, inspectionId), 404, 'not_found');
    expectProblem(await post(stranger.client, `${base}/confirm`, undefined), 404, 'not_found');
    expectProblem(await call(stranger.client, `${base}/url`), 404, 'not_found');
    expectProblem(await del(stranger.client, base), 404, 'not_found');
    // Their own organization's id with our inspection: not found either.
    expectProblem(await post(stranger.client, attachmentsPath(inspectionId, strangerWorld.orgId), { item_key: 'photo', content_type: 'image/jpeg', byte_size: 10 }), 404, 'not_found');
    expectProblem(await del(stranger.client, `${attachmentsPath(inspectionId, strangerWorld.orgId)}/${created.attachment.id}`), 404, 'not_found');
    expect((await rowsOf(inspectionId)).map((r) => r.id)).toEqual([created.attachment.id]);
  });

  it('refuses adding and removing photos once the inspection is submitted (409)', async () => {
    const inspectionId = await inProgressInspection(world, world.manager);
    const created = expectStatus(await requestUpload(world.inspector, inspectionId), 201);
    expect((await uploadTo(world.inspector, created.upload, JPEG)).error).toBeNull();
    expectStatus(await post(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/confirm`, undefined), 200);
    await forceStatus(inspectionId, 'submitted');

    const refused = expectProblem(await requestUpload(world.inspector, inspectionId), 409, 'invalid_transition');
    expect(refused.title).toBe("This inspection is submitted, so it can't be changed.");
    expectProblem(await del(world.inspector.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}`), 409, 'invalid_transition');
    expect(await rowsOf(inspectionId)).toHaveLength(1);
    expect(await objectExists(created.upload.path)).toBe(true);
    // Nor around the api, straight through Storage, even for the owner.
    for (const person of [world.inspector, world.owner]) {
      const { data } = await person.client.storage.from('evidence').remove([created.upload.path]);
      expect(data ?? []).toEqual([]);
    }
    expect(await objectExists(created.upload.path)).toBe(true);
    // Still shown to every member.
    expectStatus(await call(world.viewer.client, `${attachmentsPath(inspectionId)}/${created.attachment.id}/url`), 200);
  });

  it('refuses a photo on a scheduled inspection (409)', async () => {
    const { id: inspectionId } = await scheduleInspection(world);
    expectProblem(await requestUpload(world.inspector, inspectionId), 409, 'invalid_transition');
    expect(await rowsOf(inspectionId)).toEqual([]);
  });
});
