// list() as Storage answers it — one folder level, sub-folders first as entries with a null id,
// then files, with limit, offset, sortBy and search — plus info(), exists() and the public URL
// of a public bucket.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { anonClient, removeBucketRows, serviceClient, uniqueName } from './support.ts';

const sql = database();
const service = serviceClient();
const bucket = `test-${uniqueName('listing')}`.slice(0, 60);
const publicBucket = `test-${uniqueName('public')}`.slice(0, 60);

beforeAll(async () => {
  await sql`insert into storage.buckets (id, name, public) values (${bucket}, ${bucket}, false), (${publicBucket}, ${publicBucket}, true)`;
  const files = service.storage.from(bucket);
  // Created one by one so created_at orders them c, a, b.
  for (const name of ['docs/c.txt', 'docs/a.txt', 'docs/b.txt', 'docs/sub/deep.txt', 'docs/zeta/x.txt', 'top.txt']) {
    const { error } = await files.upload(name, `content of ${name}`);
    if (error) throw error;
  }
});

afterAll(async () => {
  await removeBucketRows(sql, [bucket, publicBucket]);
  await sql.end();
});

const names = (entries: Array<{ name: string }> | null) => entries!.map((e) => e.name);

describe('list', () => {
  it('shows one level: folders first (null id), then files by name', async () => {
    const { data, error } = await service.storage.from(bucket).list('docs');
    expect(error).toBeNull();
    expect(names(data)).toEqual(['sub', 'zeta', 'a.txt', 'b.txt', 'c.txt']);
    expect(data![0]).toEqual({ name: 'sub', id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });
    expect(data![2]).toMatchObject({ id: expect.any(String), metadata: expect.objectContaining({ size: 'content of docs/a.txt'.length }) });
  });

  it('lists the bucket root with an empty prefix, and a trailing slash changes nothing', async () => {
    expect(names((await service.storage.from(bucket).list()).data)).toEqual(['docs', 'top.txt']);
    expect(names((await service.storage.from(bucket).list('docs/')).data)).toEqual(names((await service.storage.from(bucket).list('docs')).data));
  });

  it('pages with limit and offset, sorts by other columns and filters by search', async () => {
    const files = service.storage.from(bucket);
    expect(names((await files.list('docs', { limit: 2, offset: 1 })).data)).toEqual(['zeta', 'a.txt']);
    expect(names((await files.list('docs', { sortBy: { column: 'name', order: 'desc' } })).data)).toEqual(['zeta', 'sub', 'c.txt', 'b.txt', 'a.txt']);
    expect(names((await files.list('docs', { sortBy: { column: 'created_at', order: 'asc' } })).data).slice(2)).toEqual(['c.txt', 'a.txt', 'b.txt']);
    expect(names((await files.list('docs', { search: 'b' })).data)).toEqual(['b.txt']);
  });

  it('treats % and _ in a prefix or search as plain characters', async () => {
    expect(names((await service.storage.from(bucket).list('', { search: '_' })).data)).toEqual([]);
    expect(names((await service.storage.from(bucket).list('d%')).data)).toEqual([]);
  });
});

describe('info and exists', () => {
  it('info() gives the stored facts; exists() tells present from missing', async () => {
    const files = service.storage.from(bucket);
    const { data, error } = await files.info('docs/a.txt');
    expect(error).toBeNull();
    expect(data).toMatchObject({
      name: 'docs/a.txt',
      bucketId: bucket,
      size: 'content of docs/a.txt'.length,
      contentType: 'text/plain;charset=UTF-8',
      cacheControl: 'max-age=3600',
      etag: expect.stringMatching(/^"[0-9a-f]{32}"$/),
    });
    expect((await files.exists('docs/a.txt')).data).toBe(true);
    expect((await files.exists('docs/missing.txt')).data).toBe(false);
  });
});

describe('a public bucket', () => {
  it('serves its objects at the public URL without any key, and nothing of a private bucket', async () => {
    const name = `${uniqueName()}.txt`;
    expect((await service.storage.from(publicBucket).upload(name, 'for everyone')).error).toBeNull();
    const response = await fetch(anonClient().storage.from(publicBucket).getPublicUrl(name).data.publicUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('for everyone');

    const privateUrl = anonClient().storage.from(bucket).getPublicUrl('top.txt').data.publicUrl;
    const refused = await fetch(privateUrl);
    expect(refused.status).toBe(400);
    expect(await refused.text()).not.toContain('content of');
  });
});
