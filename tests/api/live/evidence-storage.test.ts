// Evidence photos (issue 4, product use of Storage): bucket `evidence` from config.toml (private,
// 10 MB, JPEG/PNG/WebP/HEIC) and the storage.objects policies of the product. Members read their
// organization's files, nobody uploads directly — only through a signed upload URL — nobody
// deletes a file outside the api's flow, and people outside the organization get nothing. The
// api function signs upload URLs as the caller, for the path of their pending attachment
// (docs/evidence.md); these tests sign with the service role to check the bucket and the
// read/remove policies apart from that flow.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiData } from '../../support/api.ts';
import { createTestClient, signedInClient } from '../../support/clients.ts';
import { closeDb, db } from '../../support/database.ts';
import { insertMemberships } from '../../support/fixtures.ts';
import { stack } from '../../support/stack.ts';

const sql = db();
const service = createTestClient({ key: stack.SERVICE_ROLE_KEY });
const anon = createTestClient();

// The smallest valid JPEG header is enough for storage, which trusts the declared type.
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

const TEN_MB = 10 * 1024 * 1024;

let owner: SupabaseClient;
let inspector: SupabaseClient;
let viewer: SupabaseClient;
let outsider: SupabaseClient;
let orgId: string;

/** Uploads through a signed upload URL issued with the service role (the api signs as the caller instead). */
async function uploadEvidence(uploader: SupabaseClient, path: string, body: Uint8Array | Blob = JPEG, contentType = 'image/jpeg') {
  const signed = await service.storage.from('evidence').createSignedUploadUrl(path);
  if (signed.error) throw signed.error;
  return await uploader.storage.from('evidence').uploadToSignedUrl(path, signed.data.token, body, { contentType });
}

function evidencePath(org = orgId) {
  return `${org}/${randomUUID()}/item-1/${randomUUID()}.jpg`;
}

beforeAll(async () => {
  const [o, i, v, x] = await Promise.all([
    signedInClient({ displayName: 'Evidence Owner' }),
    signedInClient({ displayName: 'Evidence Inspector' }),
    signedInClient({ displayName: 'Evidence Viewer' }),
    signedInClient({ displayName: 'Evidence Outsider' }),
  ]);
  [owner, inspector, viewer, outsider] = [o.client, i.client, v.client, x.client];
  orgId = (await apiData<{ id: string }>(owner, 'orgs', { method: 'POST', body: { name: 'Evidence Org' } })).id;
  await apiData(outsider, 'orgs', { method: 'POST', body: { name: 'Evidence Outsider Org' } });
  await insertMemberships(orgId, [[i.user.id, 'inspector'], [v.user.id, 'viewer']]);
});

afterAll(closeDb);

describe('the evidence bucket', () => {
  it('is declared private with the size and type limits of docs/product.md', async () => {
    const [bucket] = await sql`select public, file_size_limit, allowed_mime_types from storage.buckets where id = 'evidence'`;
    expect(bucket.public).toBe(false);
    // "10MiB" in config.toml: the API words limits in MB of 1024 × 1024 bytes too.
    expect(Number(bucket.file_size_limit)).toBe(TEN_MB);
    expect([...bucket.allowed_mime_types].sort()).toEqual(['image/heic', 'image/jpeg', 'image/png', 'image/webp']);
    const [exports] = await sql`select public from storage.buckets where id = 'exports'`;
    expect(exports.public).toBe(false);
  });

  it('takes a photo through a signed upload URL, and refuses direct uploads even from the owner', async () => {
    const path = evidencePath();
    const signed = await uploadEvidence(inspector, path);
    expect(signed.error).toBeNull();
    const direct = await owner.storage.from('evidence').upload(evidencePath(), JPEG, { contentType: 'image/jpeg' });
    expect(direct.error).not.toBeNull();
    const [{ count }] = await sql`select count(*)::int as count from storage.objects where bucket_id = 'evidence' and name like ${orgId + '/%'}`;
    expect(count).toBe(1);
  });

  it("lets every member read the organization's photos, and nobody else", async () => {
    const path = evidencePath();
    expect((await uploadEvidence(inspector, path)).error).toBeNull();
    for (const member of [owner, inspector, viewer]) {
      const { data, error } = await member.storage.from('evidence').download(path);
      expect(error).toBeNull();
      expect(new Uint8Array(await data!.arrayBuffer())).toEqual(JPEG);
    }
    for (const stranger of [outsider, anon]) {
      const { data, error } = await stranger.storage.from('evidence').download(path);
      expect(data).toBeNull();
      expect(error).not.toBeNull();
    }
  });

  it('signs download URLs for members only', async () => {
    const path = evidencePath();
    expect((await uploadEvidence(inspector, path)).error).toBeNull();
    const mine = await viewer.storage.from('evidence').createSignedUrl(path, 60);
    expect(mine.error).toBeNull();
    const response = await fetch(mine.data!.signedUrl);
    expect(response.status).toBe(200);
    const theirs = await outsider.storage.from('evidence').createSignedUrl(path, 60);
    expect(theirs.data).toBeNull();
    expect(theirs.error).not.toBeNull();
  });

  it("lists the organization's folder for members, and an empty one for outsiders", async () => {
    const folder = `${orgId}/${randomUUID()}/item-1`;
    const path = `${folder}/${randomUUID()}.jpg`;
    expect((await uploadEvidence(inspector, path)).error).toBeNull();
    const mine = await viewer.storage.from('evidence').list(folder);
    expect(mine.data?.map((o) => `${folder}/${o.name}`)).toEqual([path]);
    const theirs = await outsider.storage.from('evidence').list(folder);
    expect(theirs.data ?? []).toEqual([]);
  });

  // Issue 5 narrowed deletes to the photos of inspections in progress (docs/evidence.md); those
  // are removed in tests/api/attachments. A file no attachment names is nobody's to delete.
  it('removes no file that no photo of an open inspection names, whoever asks', async () => {
    const path = evidencePath();
    expect((await uploadEvidence(inspector, path)).error).toBeNull();
    for (const refused of [owner, inspector, viewer, outsider]) {
      const { data } = await refused.storage.from('evidence').remove([path]);
      expect(data ?? []).toEqual([]);
    }
    expect((await sql`select 1 from storage.objects where bucket_id = 'evidence' and name = ${path}`).length).toBe(1);
  });

  it('refuses files over 10 MB and types other than photos', async () => {
    const big = new Uint8Array(TEN_MB + 1);
    big.set(JPEG.subarray(0, 4));
    const tooBig = await uploadEvidence(inspector, evidencePath(), big);
    expect(tooBig.error).not.toBeNull();
    const html = await uploadEvidence(inspector, evidencePath().replace(/\.jpg$/, '.html'), new TextEncoder().encode('<script>alert(1)</script>'), 'text/html');
    expect(html.error).not.toBeNull();
    const [{ count }] = await sql`
      select count(*)::int as count from storage.objects
      where bucket_id = 'evidence' and name like ${orgId + '/%'} and (metadata ->> 'size')::bigint > ${TEN_MB}
    `;
    expect(count).toBe(0);
  });
});
