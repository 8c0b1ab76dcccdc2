// Answers of the Storage API that must be storage-api's own (v1.60, what `supabase start` runs
// for supabase-js 2.119): unknown routes are Fastify's 404 and never write (listV2 is not
// emulated), object info carries `metadata: {}` without user metadata, getBucket has no `type`,
// a used signed upload URL is 409 ResourceAlreadyExists, and the non-empty bucket and missing
// credentials refusals use storage-api's words.
import { StorageApiError } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { anonClient, bearerHeaders, expectStorageError, rawStorageRequest, serviceClient, uniqueName } from './support.ts';

const sql = database();
const service = serviceClient();
const created: string[] = [];

async function newBucket(id = `test-${uniqueName('parity')}`.slice(0, 60)): Promise<string> {
  created.push(id);
  const { error } = await service.storage.createBucket(id);
  if (error && (error as StorageApiError).statusCode !== '409') throw error;
  return id;
}

afterAll(async () => {
  // Through the API: it empties and deletes as storage-api does.
  for (const id of created) {
    await service.storage.emptyBucket(id);
    await service.storage.deleteBucket(id);
  }
  await sql.end();
});

const serviceHeaders = { ...bearerHeaders(stack.SERVICE_ROLE_KEY), 'content-type': 'application/json' };

describe('routes that are not emulated', () => {
  it('listV2 (POST /object/list-v2/<bucket>) is a 404 route, even with a bucket named list-v2, and writes nothing', async () => {
    // With a bucket called list-v2 the request once read as an upload of <bucket> into it.
    await newBucket('list-v2');
    const bucket = await newBucket();
    expect((await service.storage.from(bucket).upload('a.txt', 'a')).error).toBeNull();

    const { data, error } = await service.storage.from(bucket).listV2({ prefix: '' });
    expect(data).toBeNull();
    expect(error).toBeInstanceOf(StorageApiError);
    expect(error).toMatchObject({ status: 404, statusCode: 404, message: `Route POST:/object/list-v2/${bucket} not found` });

    const raw = await rawStorageRequest(`/object/list-v2/${bucket}?limit=1`, { method: 'POST', headers: serviceHeaders, body: '{"prefix":""}' });
    expect(raw.status).toBe(404);
    expect(raw.json()).toEqual({ message: `Route POST:/object/list-v2/${bucket}?limit=1 not found`, error: 'Not Found', statusCode: 404 });

    const [written] = await sql`select count(*)::int as n from storage.objects where bucket_id = 'list-v2' or name = ${bucket}`;
    expect(written.n).toBe(0);
  });

  it.each([
    ['POST', '/object/list-v2/{bucket}/deeper.txt'],
    ['PUT', '/object/list-v2/{bucket}'],
    ['POST', '/object/list/{bucket}/deeper'],
    ['POST', '/object/move'],
    ['POST', '/object/copy'],
    ['PUT', '/object/sign/{bucket}/x.txt'],
    ['POST', '/object/upload/{bucket}/x.txt'],
    ['GET', '/no-such-route'],
  ])('%s %s is the same 404 and writes nothing', async (method, template) => {
    const bucket = await newBucket();
    const path = template.replace('{bucket}', bucket);
    const response = await rawStorageRequest(path, { method, headers: serviceHeaders, body: method === 'GET' ? undefined : '{"sourceKey":"a.txt"}' });
    expect(response.status).toBe(404);
    expect(response.json()).toEqual({ message: `Route ${method}:${path} not found`, error: 'Not Found', statusCode: 404 });
    const [written] = await sql`select count(*)::int as n from storage.objects
      where bucket_id in ('list-v2', 'list', 'move', 'copy', 'sign', 'upload') or bucket_id = ${bucket}`;
    expect(written.n).toBe(0);
  });
});

describe('object info', () => {
  it('has metadata {} when the upload carried no user metadata, and that metadata otherwise', async () => {
    const bucket = await newBucket();
    const objects = service.storage.from(bucket);
    expect((await objects.upload('plain.txt', 'plain', { contentType: 'text/plain' })).error).toBeNull();
    expect((await objects.upload('tagged.txt', 'tagged', { contentType: 'text/plain', metadata: { inspection: 'abc' } })).error).toBeNull();
    expect((await objects.upload('form.txt', new Blob(['form'], { type: 'text/plain' }))).error).toBeNull();
    const { data: signed } = await objects.createSignedUploadUrl('signed.txt');
    expect((await anonClient().storage.from(bucket).uploadToSignedUrl('signed.txt', signed!.token, 'signed')).error).toBeNull();

    for (const name of ['plain.txt', 'form.txt', 'signed.txt']) {
      const info = await objects.info(name);
      expect(info.error, name).toBeNull();
      expect(info.data?.metadata, name).toEqual({});
    }
    expect((await objects.info('tagged.txt')).data?.metadata).toEqual({ inspection: 'abc' });

    const raw = await rawStorageRequest(`/object/info/${bucket}/plain.txt`, { headers: bearerHeaders(stack.SERVICE_ROLE_KEY) });
    expect(raw.json()).toMatchObject({ name: 'plain.txt', bucket_id: bucket, size: 5, content_type: 'text/plain', metadata: {} });

    // Overwriting without metadata leaves {} too.
    expect((await objects.update('tagged.txt', 'again', { contentType: 'text/plain' })).error).toBeNull();
    expect((await objects.info('tagged.txt')).data?.metadata).toEqual({});
  });
});

describe('buckets', () => {
  it('getBucket returns the columns storage-api selects, without type; the bucket list has type STANDARD', async () => {
    const bucket = await newBucket();
    const { data, error } = await service.storage.getBucket(bucket);
    expect(error).toBeNull();
    expect(Object.keys(data!).sort()).toEqual(['allowed_mime_types', 'created_at', 'file_size_limit', 'id', 'name', 'owner', 'public', 'updated_at']);
    expect(data).not.toHaveProperty('type');

    const listed = (await service.storage.listBuckets()).data?.find((entry) => entry.id === bucket);
    expect(listed).toMatchObject({ id: bucket, name: bucket, type: 'STANDARD' });
  });

  it('deleting a bucket that is not empty is 409 ResourceNotEmpty in storage-api words', async () => {
    const bucket = await newBucket();
    expect((await service.storage.from(bucket).upload('keep.txt', 'keep')).error).toBeNull();
    const { error } = await service.storage.deleteBucket(bucket);
    expectStorageError(error, '409', 'ResourceNotEmpty');
    expect((error as StorageApiError).message).toBe('The bucket you tried to delete is not empty');

    const raw = await rawStorageRequest(`/bucket/${bucket}`, { method: 'DELETE', headers: serviceHeaders, body: '{}' });
    expect(raw.status).toBe(400);
    expect(raw.json()).toEqual({ statusCode: '409', code: 'ResourceNotEmpty', error: 'ResourceNotEmpty', message: 'The bucket you tried to delete is not empty' });
    expect((await service.storage.getBucket(bucket)).error).toBeNull();
  });
});

describe('signed upload URLs', () => {
  it('a second upload with the same token is 409 ResourceAlreadyExists and leaves the first content', async () => {
    const bucket = await newBucket();
    const { data: signed } = await service.storage.from(bucket).createSignedUploadUrl('once.txt');
    const holder = anonClient().storage.from(bucket);
    expect((await holder.uploadToSignedUrl('once.txt', signed!.token, 'first')).error).toBeNull();

    const replay = await holder.uploadToSignedUrl('once.txt', signed!.token, 'second');
    expectStorageError(replay.error, '409', 'ResourceAlreadyExists');
    expect(replay.error).toMatchObject({ status: 400, message: 'The resource already exists' });
    expect(await (await service.storage.from(bucket).download('once.txt')).data!.text()).toBe('first');
  });
});

describe('requests without credentials', () => {
  it.each([
    ['GET', '/bucket', undefined],
    ['POST', '/object/list/{bucket}', '{"prefix":""}'],
    ['GET', '/object/{bucket}/keep.txt', undefined],
    ['POST', '/object/{bucket}/new.txt', 'new'],
  ])('%s %s is AccessDenied "Invalid Compact JWS", as storage-api verifies an empty token', async (method, template, body) => {
    const bucket = await newBucket();
    const path = template.replace('{bucket}', bucket);
    const noCredentials: Record<string, string>[] = [{}, { apikey: '' }];
    for (const headers of noCredentials) {
      if (body) headers['content-type'] = 'application/json';
      const response = await rawStorageRequest(path, { method, headers, body });
      expect(response.status).toBe(400);
      expect(response.json()).toEqual({ statusCode: '403', code: 'AccessDenied', error: 'Unauthorized', message: 'Invalid Compact JWS' });
    }
    const [written] = await sql`select count(*)::int as n from storage.objects where bucket_id = ${bucket}`;
    expect(written.n).toBe(0);
  });
});
