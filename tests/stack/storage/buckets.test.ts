// The bucket API runs as the caller on storage.buckets, where no policy admits users: the service
// role creates, changes, empties and deletes buckets; anon and signed-in users see none of it.
import { StorageApiError } from '@supabase/supabase-js';
import { afterAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { anonClient, removeBucketRows, serviceClient, signedInActor, uniqueName } from './support.ts';

const sql = database();
const service = serviceClient();
const created: string[] = [];

afterAll(async () => {
  await removeBucketRows(sql, created);
  await sql.end();
});

describe('the bucket API', () => {
  it('lets the service role create, update, empty and delete a bucket', async () => {
    const id = `test-${uniqueName('api')}`.slice(0, 60);
    created.push(id);
    expect((await service.storage.createBucket(id, { public: false, fileSizeLimit: '1MB', allowedMimeTypes: ['image/png'] })).error).toBeNull();
    expect((await service.storage.getBucket(id)).data).toMatchObject({ id, public: false, file_size_limit: 1_000_000, allowed_mime_types: ['image/png'] });
    expect((await service.storage.createBucket(id)).error).toMatchObject({ statusCode: '409' });

    expect((await service.storage.updateBucket(id, { public: true, allowedMimeTypes: null })).error).toBeNull();
    expect((await service.storage.getBucket(id)).data).toMatchObject({ public: true, allowed_mime_types: null });

    expect((await service.storage.from(id).upload('x.txt', 'x')).error).toBeNull();
    expect((await service.storage.deleteBucket(id)).error).toMatchObject({ statusCode: '409' });
    expect((await service.storage.emptyBucket(id)).error).toBeNull();
    expect((await service.storage.deleteBucket(id)).error).toBeNull();
    expect((await service.storage.getBucket(id)).error).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });

  it('refuses anon and signed-in users, who cannot even see the buckets', async () => {
    const { client } = await signedInActor();
    for (const storage of [anonClient().storage, client.storage]) {
      const id = `test-${uniqueName('denied')}`.slice(0, 60);
      const attempt = await storage.createBucket(id);
      expect(attempt.error).toBeInstanceOf(StorageApiError);
      expect(attempt.error).toMatchObject({ statusCode: '403' });
      expect((await storage.listBuckets()).data).toEqual([]);
      expect((await storage.getBucket('evidence')).error).toMatchObject({ statusCode: '404' });
      expect((await storage.deleteBucket('evidence')).error).toMatchObject({ statusCode: '404' });
    }
    expect((await service.storage.getBucket('evidence')).error).toBeNull();
  });
});
