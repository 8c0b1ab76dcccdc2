// Who Storage takes a request to be: new-format keys act as anon (sb_publishable_) and the
// service role (sb_secret_), like the legacy keys; a user's access token acts as that user; a
// token that was altered, expired or signed with the public demo secret for a user is refused.
import { createClient, StorageApiError } from '@supabase/supabase-js';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { bearerHeaders, createOwnerFolderBucket, noSession, rawStorageRequest, signedInActor, uniqueName, type Actor, type OwnerFolderBucket } from './support.ts';

const sql = database();
let bucket: OwnerFolderBucket;
let owner: Actor;
let objectPath: string;

beforeAll(async () => {
  bucket = await createOwnerFolderBucket(sql);
  owner = await signedInActor();
  objectPath = `${owner.userId}/${uniqueName()}.txt`;
  const { error } = await owner.client.storage.from(bucket.id).upload(objectPath, 'owned');
  if (error) throw error;
});

afterAll(async () => {
  await bucket.drop();
  await sql.end();
});

describe('API keys', () => {
  it('sb_secret_ acts as the service role and sb_publishable_ as anon', async () => {
    const secret = createClient(stack.API_URL, stack.SECRET_KEY, noSession).storage.from(bucket.id);
    expect(await (await secret.download(objectPath)).data!.text()).toBe('owned');
    const publishable = createClient(stack.API_URL, stack.PUBLISHABLE_KEY, noSession).storage.from(bucket.id);
    expect((await publishable.download(objectPath)).error).toBeInstanceOf(StorageApiError);
    expect((await publishable.upload(`${owner.userId}/${uniqueName()}.txt`, 'x')).error).toMatchObject({ statusCode: '403' });
  });

  it('a request with no key or token at all is refused', async () => {
    const response = await rawStorageRequest(`/object/${bucket.id}/${objectPath}`);
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
  });
});

describe('user tokens', () => {
  it('the genuine access token reads the user\'s object (control)', async () => {
    const response = await rawStorageRequest(`/object/${bucket.id}/${objectPath}`, { headers: bearerHeaders(owner.accessToken) });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('owned');
  });

  it('an access token whose payload was altered is refused', async () => {
    const [header, payload, signature] = owner.accessToken.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, role: 'service_role' })).toString('base64url');
    const response = await rawStorageRequest(`/object/${bucket.id}/${objectPath}`, { headers: bearerHeaders(`${header}.${altered}.${signature}`) });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
  });

  // Local stack only: the HS256 secret is the CLI's public demo secret, so it may not make users.
  it('a user token signed with the demo HS256 secret is refused', async () => {
    const forged = await new SignJWT({ ...decodeJwt(owner.accessToken) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(stack.JWT_SECRET));
    const response = await rawStorageRequest(`/object/${bucket.id}/${objectPath}`, { headers: bearerHeaders(forged) });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied' });
  });

  it('an expired token is refused', async () => {
    const expired = await new SignJWT({ role: 'anon', iss: 'supabase-demo' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(stack.JWT_SECRET));
    const response = await rawStorageRequest(`/object/${bucket.id}/${objectPath}`, { headers: bearerHeaders(expired) });
    expect(response.json()).toMatchObject({ statusCode: '403', code: 'AccessDenied', message: 'jwt expired' });
  });
});
