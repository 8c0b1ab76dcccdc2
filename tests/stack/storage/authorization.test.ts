// Storage decides by storage.objects policies, run as the caller: in a bucket whose policies admit
// a user to their own uid folder, the owner can do everything there, another user and anon can do
// nothing (reads look like not found), and the service role bypasses the policies. All through the
// unmodified supabase-js client.
import { StorageApiError } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import {
  anonClient,
  createOwnerFolderBucket,
  expectStorageError,
  serviceClient,
  signedInActor,
  uniqueName,
  type Actor,
  type OwnerFolderBucket,
} from './support.ts';

const sql = database();
let bucket: OwnerFolderBucket;
let owner: Actor;
let other: Actor;

beforeAll(async () => {
  bucket = await createOwnerFolderBucket(sql);
  [owner, other] = await Promise.all([signedInActor(), signedInActor()]);
});

afterAll(async () => {
  await bucket.drop();
  await sql.end();
});

/** Uploads `text` as the owner into their own folder and returns the object's path. */
async function ownerObject(text = 'owner content'): Promise<string> {
  const objectPath = `${owner.userId}/${uniqueName()}.txt`;
  const { error } = await owner.client.storage.from(bucket.id).upload(objectPath, text);
  expect(error).toBeNull();
  return objectPath;
}

describe('the owner of a folder', () => {
  it('uploads, downloads, lists, signs and removes objects in it', async () => {
    const files = owner.client.storage.from(bucket.id);
    const name = `${uniqueName()}.txt`;
    const objectPath = `${owner.userId}/${name}`;

    const uploaded = await files.upload(objectPath, 'hello world');
    expect(uploaded.error).toBeNull();
    expect(uploaded.data).toEqual({ path: objectPath, id: expect.stringMatching(/^[0-9a-f-]{36}$/), fullPath: `${bucket.id}/${objectPath}` });

    const downloaded = await files.download(objectPath);
    expect(downloaded.error).toBeNull();
    expect(await downloaded.data!.text()).toBe('hello world');

    const listed = await files.list(owner.userId);
    expect(listed.error).toBeNull();
    expect(listed.data).toContainEqual(expect.objectContaining({
      name,
      id: uploaded.data!.id,
      metadata: expect.objectContaining({ size: 11, mimetype: 'text/plain;charset=UTF-8', cacheControl: 'max-age=3600', eTag: expect.any(String) }),
    }));
    const root = await files.list();
    expect(root.data).toContainEqual({ name: owner.userId, id: null, updated_at: null, created_at: null, last_accessed_at: null, metadata: null });

    const signed = await files.createSignedUrl(objectPath, 60);
    expect(signed.error).toBeNull();
    const response = await fetch(signed.data!.signedUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('hello world');

    const many = await files.createSignedUrls([objectPath, `${owner.userId}/missing.txt`], 60);
    expect(many.data![0]).toMatchObject({ path: objectPath, error: null, signedUrl: expect.stringContaining('token=') });
    expect(many.data![1]).toMatchObject({ path: `${owner.userId}/missing.txt`, signedUrl: null, error: expect.any(String) });

    const removed = await files.remove([objectPath]);
    expect(removed.error).toBeNull();
    expect(removed.data!.map((o) => o.name)).toEqual([objectPath]);
    expectStorageError((await files.download(objectPath)).error, '404', 'NoSuchKey');
  });

  it('gets a signed upload URL that anyone holding it can use once, and the object lands in the folder', async () => {
    const objectPath = `${owner.userId}/${uniqueName('signed')}.txt`;
    const signed = await owner.client.storage.from(bucket.id).createSignedUploadUrl(objectPath);
    expect(signed.error).toBeNull();
    expect(signed.data!.signedUrl).toContain(`/object/upload/sign/${bucket.id}/${objectPath}?token=`);

    const holder = anonClient().storage.from(bucket.id);
    const first = await holder.uploadToSignedUrl(objectPath, signed.data!.token, 'signed body');
    expect(first.error).toBeNull();
    expect(first.data).toEqual({ path: objectPath, fullPath: `${bucket.id}/${objectPath}` });
    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('signed body');

    const second = await holder.uploadToSignedUrl(objectPath, signed.data!.token, 'replayed body');
    expect(second.error).toBeInstanceOf(StorageApiError);
    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('signed body');
  });
});

describe('another signed-in user', () => {
  it('cannot upload into the owner\'s folder (RLS refusal), but can into their own', async () => {
    const refused = await other.client.storage.from(bucket.id).upload(`${owner.userId}/${uniqueName()}.txt`, 'intruder');
    expectStorageError(refused.error, '403', 'AccessDenied');
    expect(refused.error!.message).toBe('new row violates row-level security policy');

    const own = await other.client.storage.from(bucket.id).upload(`${other.userId}/${uniqueName()}.txt`, 'mine');
    expect(own.error).toBeNull();
  });

  it('sees the owner\'s objects as not found: download, list, signed URLs', async () => {
    const objectPath = await ownerObject();
    const files = other.client.storage.from(bucket.id);

    expectStorageError((await files.download(objectPath)).error, '404', 'NoSuchKey');
    expectStorageError((await files.info(objectPath)).error, '404', 'NoSuchKey');
    const listed = await files.list(owner.userId);
    expect(listed.error).toBeNull();
    expect(listed.data).toEqual([]);
    expectStorageError((await files.createSignedUrl(objectPath, 60)).error, '404', 'NoSuchKey');
    const many = await files.createSignedUrls([objectPath], 60);
    expect(many.data).toEqual([expect.objectContaining({ path: objectPath, signedUrl: null, error: expect.any(String) })]);
  });

  it('cannot remove, overwrite or get a signed upload URL for the owner\'s objects', async () => {
    const objectPath = await ownerObject('original');
    const files = other.client.storage.from(bucket.id);

    const removed = await files.remove([objectPath]);
    expect(removed.error).toBeNull();
    expect(removed.data).toEqual([]);
    expectStorageError((await files.upload(objectPath, 'overwritten', { upsert: true })).error, '403', 'AccessDenied');
    expectStorageError((await files.update(objectPath, 'overwritten')).error, '403', 'AccessDenied');
    expectStorageError((await files.createSignedUploadUrl(objectPath, { upsert: true })).error, '403', 'AccessDenied');
    expectStorageError((await files.createSignedUploadUrl(`${owner.userId}/${uniqueName()}.txt`)).error, '403', 'AccessDenied');

    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('original');
  });
});

describe('anon (API key, no session)', () => {
  it('can neither read, list, sign, upload nor remove', async () => {
    const objectPath = await ownerObject('private');
    const files = anonClient().storage.from(bucket.id);

    expectStorageError((await files.download(objectPath)).error, '404', 'NoSuchKey');
    expect((await files.list(owner.userId)).data).toEqual([]);
    expectStorageError((await files.createSignedUrl(objectPath, 60)).error, '404', 'NoSuchKey');
    expectStorageError((await files.upload(`${owner.userId}/${uniqueName()}.txt`, 'anon')).error, '403', 'AccessDenied');
    expectStorageError((await files.createSignedUploadUrl(`${owner.userId}/${uniqueName()}.txt`)).error, '403', 'AccessDenied');
    expect((await files.remove([objectPath])).data).toEqual([]);

    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('private');
  });

  it('cannot use a public URL for a private bucket', async () => {
    const objectPath = await ownerObject();
    const { publicUrl } = anonClient().storage.from(bucket.id).getPublicUrl(objectPath).data;
    const response = await fetch(publicUrl);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '404', code: 'NoSuchBucket' });
  });
});

describe('the service role', () => {
  it('bypasses the policies: reads, lists, writes anywhere and removes', async () => {
    const objectPath = await ownerObject('for the service');
    const files = serviceClient().storage.from(bucket.id);

    expect(await (await files.download(objectPath)).data!.text()).toBe('for the service');
    expect((await files.list(owner.userId)).data!.map((o) => o.name)).toContain(objectPath.split('/')[1]);
    const elsewhere = `nobody/${uniqueName()}.txt`;
    expect((await files.upload(elsewhere, 'anywhere')).error).toBeNull();
    expect((await files.createSignedUrl(objectPath, 60)).error).toBeNull();
    expect((await files.remove([objectPath, elsewhere])).data!.map((o) => o.name).sort()).toEqual([objectPath, elsewhere].sort());
  });
});

describe('upsert', () => {
  it('a second upload to the same name without upsert is a duplicate and changes nothing', async () => {
    const objectPath = await ownerObject('first');
    const again = await owner.client.storage.from(bucket.id).upload(objectPath, 'second');
    expectStorageError(again.error, '409');
    expect(again.error!.message).toBe('The resource already exists');
    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('first');
  });

  it('with upsert (or update) the owner replaces the content and keeps the object id', async () => {
    const files = owner.client.storage.from(bucket.id);
    const objectPath = `${owner.userId}/${uniqueName()}.txt`;
    const first = await files.upload(objectPath, 'first');
    const replaced = await files.upload(objectPath, 'second', { upsert: true });
    expect(replaced.error).toBeNull();
    expect(replaced.data!.id).toBe(first.data!.id);
    expect(await (await files.download(objectPath)).data!.text()).toBe('second');

    const updated = await files.update(objectPath, 'third');
    expect(updated.error).toBeNull();
    expect(await (await files.download(objectPath)).data!.text()).toBe('third');
  });
});
