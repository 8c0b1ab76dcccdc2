// Signed URLs carry their own authority and nothing more: a download URL opens its one object
// without any key until it expires, and a changed token or path opens nothing; an upload token
// writes its one path once, within its lifetime.
import { StorageApiError } from '@supabase/supabase-js';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { genuineSigningKey } from '../../support/signing-key.ts';
import { anonClient, createOwnerFolderBucket, signedInActor, uniqueName, type Actor, type OwnerFolderBucket } from './support.ts';

const sql = database();
let bucket: OwnerFolderBucket;
let owner: Actor;

beforeAll(async () => {
  bucket = await createOwnerFolderBucket(sql);
  owner = await signedInActor();
});

afterAll(async () => {
  await bucket.drop();
  await sql.end();
});

async function ownerObject(text: string): Promise<string> {
  const objectPath = `${owner.userId}/${uniqueName()}.txt`;
  expect((await owner.client.storage.from(bucket.id).upload(objectPath, text)).error).toBeNull();
  return objectPath;
}

/** The URL with one character of its token's payload changed. */
function tampered(signedUrl: string): string {
  const url = new URL(signedUrl);
  const [header, payload, signature] = url.searchParams.get('token')!.split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
  const changed = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 })).toString('base64url');
  url.searchParams.set('token', `${header}.${changed}.${signature}`);
  return url.toString();
}

describe('signed download URLs', () => {
  it('open the object without an API key or session, with a download name when asked', async () => {
    const objectPath = await ownerObject('signed content');
    const { data } = await owner.client.storage.from(bucket.id).createSignedUrl(objectPath, 60, { download: 'report.txt' });
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('signed content');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename=report\.txt/);
  });

  it('open nothing once the payload is changed', async () => {
    const objectPath = await ownerObject('secret');
    const { data } = await owner.client.storage.from(bucket.id).createSignedUrl(objectPath, 60);
    const response = await fetch(tampered(data!.signedUrl));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.statusCode).toBe('400');
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('open nothing for another path than the one signed', async () => {
    const signedPath = await ownerObject('signed one');
    const otherPath = await ownerObject('other one');
    const { data } = await owner.client.storage.from(bucket.id).createSignedUrl(signedPath, 60);
    const response = await fetch(data!.signedUrl.replace(signedPath, otherPath));
    expect(response.status).toBe(400);
    expect(await response.text()).not.toContain('other one');
  });

  it('stop working when they expire', async () => {
    const objectPath = await ownerObject('short-lived');
    const { data } = await owner.client.storage.from(bucket.id).createSignedUrl(objectPath, 1);
    expect((await fetch(data!.signedUrl)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const response = await fetch(data!.signedUrl);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: '400', message: expect.stringMatching(/expired/) });
  });

  it('are refused for an expiry that is not a positive whole number of seconds', async () => {
    const objectPath = await ownerObject('x');
    const { error } = await owner.client.storage.from(bucket.id).createSignedUrl(objectPath, 0);
    expect(error).toBeInstanceOf(StorageApiError);
  });
});

describe('signed upload URLs', () => {
  it('write their path once: a second use of the same token is refused', async () => {
    const objectPath = `${owner.userId}/${uniqueName()}.txt`;
    const { data } = await owner.client.storage.from(bucket.id).createSignedUploadUrl(objectPath);
    const holder = anonClient().storage.from(bucket.id);
    expect((await holder.uploadToSignedUrl(objectPath, data!.token, 'first')).error).toBeNull();
    const replay = await holder.uploadToSignedUrl(objectPath, data!.token, 'second');
    expect(replay.error).toBeInstanceOf(StorageApiError);
    expect(await (await owner.client.storage.from(bucket.id).download(objectPath)).data!.text()).toBe('first');
  });

  it('write nothing at another path than the one signed', async () => {
    const signedPath = `${owner.userId}/${uniqueName()}.txt`;
    const otherPath = `${owner.userId}/${uniqueName()}.txt`;
    const { data } = await owner.client.storage.from(bucket.id).createSignedUploadUrl(signedPath);
    const attempt = await anonClient().storage.from(bucket.id).uploadToSignedUrl(otherPath, data!.token, 'misdirected');
    expect(attempt.error).toBeInstanceOf(StorageApiError);
    expect((attempt.error as StorageApiError).statusCode).toBe('400');
    expect((await owner.client.storage.from(bucket.id).download(otherPath)).error).toBeInstanceOf(StorageApiError);
  });

  it('write nothing with a token whose payload was changed', async () => {
    const objectPath = `${owner.userId}/${uniqueName()}.txt`;
    const { data } = await owner.client.storage.from(bucket.id).createSignedUploadUrl(objectPath);
    const forged = new URL(tampered(data!.signedUrl)).searchParams.get('token')!;
    const attempt = await anonClient().storage.from(bucket.id).uploadToSignedUrl(objectPath, forged, 'forged');
    expect(attempt.error).toBeInstanceOf(StorageApiError);
    expect((await owner.client.storage.from(bucket.id).download(objectPath)).error).toBeInstanceOf(StorageApiError);
  });

  // Local stack only: the token is re-signed with the stack's own key to move its expiry back.
  it('write nothing once expired', async () => {
    const objectPath = `${owner.userId}/${uniqueName()}.txt`;
    const { data } = await owner.client.storage.from(bucket.id).createSignedUploadUrl(objectPath);
    const claims = decodeJwt(data!.token);
    const { kid, privateKey } = await genuineSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ ...claims, iat: now - 7300, exp: now - 100 })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .sign(privateKey);
    const attempt = await anonClient().storage.from(bucket.id).uploadToSignedUrl(objectPath, expired, 'late');
    expect(attempt.error).toBeInstanceOf(StorageApiError);
    expect(attempt.error!.message).toMatch(/expired/);
    expect((await owner.client.storage.from(bucket.id).download(objectPath)).error).toBeInstanceOf(StorageApiError);
  });

  it('record the signer as the owner of the uploaded object', async () => {
    const objectPath = `${owner.userId}/${uniqueName()}.txt`;
    const { data } = await owner.client.storage.from(bucket.id).createSignedUploadUrl(objectPath);
    await anonClient().storage.from(bucket.id).uploadToSignedUrl(objectPath, data!.token, 'owned');
    const [row] = await sql`select owner_id from storage.objects where bucket_id = ${bucket.id} and name = ${objectPath}`;
    expect(row.owner_id).toBe(owner.userId);
  });
});
