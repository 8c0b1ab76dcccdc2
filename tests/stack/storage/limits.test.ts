// Bucket limits as Supabase Storage enforces them: config.toml's buckets exist with their size
// and MIME limits, uploads over the size limit are refused with EntityTooLarge (413) and uploads
// of other types with InvalidMimeType (415), whoever uploads — the service role included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { bearerHeaders, expectStorageError, rawStorageRequest, removeBucketRows, serviceClient, uniqueName } from './support.ts';

const TEN_MIB = 10 * 1024 * 1024;
const sql = database();
const service = serviceClient();
const wildcardBucket = `test-${uniqueName('images')}`.slice(0, 60);
const removeAfter: string[] = [];

beforeAll(async () => {
  await sql`insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values (${wildcardBucket}, ${wildcardBucket}, false, 1024, ${['image/*']})`;
});

afterAll(async () => {
  await service.storage.from('evidence').remove(removeAfter);
  await removeBucketRows(sql, [wildcardBucket]);
  await sql.end();
});

describe('buckets from config.toml', () => {
  it('evidence is private, 10 MiB, JPEG / PNG / WebP / HEIC only; exports is private without limits', async () => {
    const evidence = await service.storage.getBucket('evidence');
    expect(evidence.data).toMatchObject({
      id: 'evidence',
      public: false,
      file_size_limit: TEN_MIB,
      allowed_mime_types: ['image/jpeg', 'image/png', 'image/webp', 'image/heic'],
    });
    const exports = await service.storage.getBucket('exports');
    expect(exports.data).toMatchObject({ id: 'exports', public: false, file_size_limit: null, allowed_mime_types: null });
  });
});

describe('the evidence bucket', () => {
  it('takes a photo of exactly the size limit', async () => {
    const objectPath = `limits/${uniqueName()}.jpg`;
    removeAfter.push(objectPath);
    const { error } = await service.storage.from('evidence').upload(objectPath, Buffer.alloc(TEN_MIB), { contentType: 'image/jpeg' });
    expect(error).toBeNull();
  });

  it('refuses one byte more with EntityTooLarge (413), and stores nothing', async () => {
    const objectPath = `limits/${uniqueName()}.jpg`;
    const { error } = await service.storage.from('evidence').upload(objectPath, Buffer.alloc(TEN_MIB + 1), { contentType: 'image/jpeg' });
    expectStorageError(error, '413', 'EntityTooLarge');
    expect(error!.message).toBe('The object exceeded the maximum allowed size');
    expectStorageError((await service.storage.from('evidence').download(objectPath)).error, '404', 'NoSuchKey');
  });

  it('refuses a type outside allowed_mime_types with InvalidMimeType (415), from the header or the form part', async () => {
    const asText = await service.storage.from('evidence').upload(`limits/${uniqueName()}.txt`, 'not a photo', { contentType: 'text/plain' });
    expectStorageError(asText.error, '415', 'InvalidMimeType');
    expect(asText.error!.message).toBe('mime type text/plain is not supported');

    const gif = new Blob([new Uint8Array([0x47, 0x49, 0x46])], { type: 'image/gif' });
    expectStorageError((await service.storage.from('evidence').upload(`limits/${uniqueName()}.gif`, gif)).error, '415', 'InvalidMimeType');
  });

  it('takes each allowed type, as a raw body or as a form part', async () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'image/heic']) {
      const objectPath = `limits/${uniqueName()}`;
      removeAfter.push(objectPath);
      expect((await service.storage.from('evidence').upload(objectPath, Buffer.from([1, 2, 3]), { contentType: type })).error).toBeNull();
    }
    const objectPath = `limits/${uniqueName()}.png`;
    removeAfter.push(objectPath);
    const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: 'image/png' });
    expect((await service.storage.from('evidence').upload(objectPath, png)).error).toBeNull();
  });
});

describe('a bucket with a wildcard type and its own size limit', () => {
  it('takes any image/* up to its limit and refuses other types and larger files', async () => {
    const files = service.storage.from(wildcardBucket);
    expect((await files.upload('a.avif', Buffer.alloc(1024), { contentType: 'image/avif' })).error).toBeNull();
    expectStorageError((await files.upload('b.avif', Buffer.alloc(1025), { contentType: 'image/avif' })).error, '413', 'EntityTooLarge');
    expectStorageError((await files.upload('c.pdf', Buffer.alloc(10), { contentType: 'application/pdf' })).error, '415', 'InvalidMimeType');
  });

  it('refuses a streamed body (no declared length) once it passes the limit, and answers instead of resetting', async () => {
    const response = await rawStorageRequest(`/object/${wildcardBucket}/streamed.avif`, {
      method: 'POST',
      headers: { ...bearerHeaders(stack.SERVICE_ROLE_KEY), 'content-type': 'image/avif' },
      body: Buffer.alloc(64 * 1024),
      chunked: true,
    });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: '413', code: 'EntityTooLarge' });
    expectStorageError((await service.storage.from(wildcardBucket).download('streamed.avif')).error, '404', 'NoSuchKey');
  });
});
