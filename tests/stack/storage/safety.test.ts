// What Storage refuses and how it serves: object names that could mean a path (`..`, empty or
// absolute segments, backslashes, control characters) or are too long are refused with
// InvalidKey before anything is stored or read, and stored content is never served as something
// a browser would run: HTML and SVG come back as plain-text attachments, always with nosniff and
// a sandboxing content security policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../support/database.ts';
import { stack } from '../../support/stack.ts';
import { bearerHeaders, rawStorageRequest, removeBucketRows, serviceClient, uniqueName } from './support.ts';

const sql = database();
const service = serviceClient();
const bucket = `test-${uniqueName('safety')}`.slice(0, 60);
const asService = bearerHeaders(stack.SERVICE_ROLE_KEY);

beforeAll(async () => {
  await sql`insert into storage.buckets (id, name, public) values (${bucket}, ${bucket}, false)`;
});

afterAll(async () => {
  await removeBucketRows(sql, [bucket]);
  await sql.end();
});

const refusedNames: Array<[string, string]> = [
  ['a parent segment', 'a/../b.txt'],
  ['a percent-encoded parent segment', 'a/%2e%2e/%2E%2E/b.txt'],
  ['a leading parent segment', '../outside.txt'],
  ['a current-folder segment', 'a/./b.txt'],
  ['an empty segment', 'a//b.txt'],
  ['a leading slash', '/a.txt'],
  ['a trailing slash', 'a/'],
  ['a backslash', 'a%5C..%5Cb.txt'],
  ['a NUL character', 'a%00b.txt'],
  ['a newline', 'a%0Ab.txt'],
  ['a right-to-left override', 'a%E2%80%AEtxt.exe'],
  ['a malformed escape', 'a%zz.txt'],
  ['a name over 1024 bytes', `${'x'.repeat(1021)}.txt`],
];

describe('object names', () => {
  it.each(refusedNames)('with %s are refused on upload with InvalidKey, and nothing is stored', async (_label, rawName) => {
    const response = await rawStorageRequest(`/object/${bucket}/${rawName}`, {
      method: 'POST',
      headers: { ...asService, 'content-type': 'text/plain' },
      body: 'content',
    });
    expect(response.status).toBe(400);
    expect(response.json()).toMatchObject({ statusCode: '400', code: 'InvalidKey', message: expect.stringMatching(/^Invalid key: /) });
    const [{ count }] = await sql`select count(*)::int as count from storage.objects where bucket_id = ${bucket}`;
    expect(count).toBe(0);
  });

  it.each(refusedNames)('with %s are refused on download and signing with InvalidKey', async (_label, rawName) => {
    const download = await rawStorageRequest(`/object/${bucket}/${rawName}`, { headers: asService });
    expect(download.json()).toMatchObject({ code: 'InvalidKey' });
    const signing = await rawStorageRequest(`/object/sign/${bucket}/${rawName}`, {
      method: 'POST',
      headers: { ...asService, 'content-type': 'application/json' },
      body: JSON.stringify({ expiresIn: 60 }),
    });
    expect(signing.json()).toMatchObject({ code: 'InvalidKey' });
  });

  it('never reach files outside the bucket (the stack keeps its signing key in its data folder)', async () => {
    for (const attempt of ['..%2F..%2Fsigning-key.json', '%2E%2E/%2E%2E/signing-key.json', '../../signing-key.json']) {
      const response = await rawStorageRequest(`/object/${bucket}/${attempt}`, { headers: asService });
      expect(response.status).toBe(400);
      expect(response.body.toString()).not.toContain('"kty"');
    }
  });

  it('may hold spaces, unicode and S3-safe punctuation', async () => {
    const name = `folder one/Prüfbericht (final) №1 & co.txt`;
    const files = service.storage.from(bucket);
    expect((await files.upload(name, 'fine')).error).toBeNull();
    expect(await (await files.download(name)).data!.text()).toBe('fine');
    expect((await files.list('folder one')).data!.map((o) => o.name)).toEqual(['Prüfbericht (final) №1 & co.txt']);
  });
});

describe('serving stored content', () => {
  async function signedResponse(name: string, body: string, contentType: string): Promise<Response> {
    const files = service.storage.from(bucket);
    expect((await files.upload(name, body, { contentType })).error).toBeNull();
    const { data } = await files.createSignedUrl(name, 60);
    return fetch(data!.signedUrl);
  }

  it('an uploaded HTML page comes back as a plain-text attachment, never as text/html', async () => {
    const response = await signedResponse(`${uniqueName()}.html`, '<script>alert(document.cookie)</script>', 'text/html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).not.toMatch(/html/i);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);
  });

  it('an uploaded SVG (which can hold scripts) is not served as an image', async () => {
    const response = await signedResponse(`${uniqueName()}.svg`, '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'image/svg+xml');
    expect(response.headers.get('content-type')).not.toMatch(/svg|xml/i);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('a photo is served with its own type, inline, still with nosniff and the sandbox policy', async () => {
    const response = await signedResponse(`${uniqueName()}.png`, 'png bytes', 'image/png');
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('content-disposition')).toBeNull();
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toMatch(/sandbox/);
  });

  it('answers a byte range with 206 and only those bytes, as browsers ask for media', async () => {
    const name = `${uniqueName()}.txt`;
    await service.storage.from(bucket).upload(name, '0123456789', { contentType: 'text/plain' });
    const response = await rawStorageRequest(`/object/${bucket}/${name}`, { headers: { ...asService, range: 'bytes=2-5' } });
    expect(response.status).toBe(206);
    expect(response.headers['content-range']).toBe('bytes 2-5/10');
    expect(response.body.toString()).toBe('2345');
  });

  it('an authenticated download of HTML is labelled safely too', async () => {
    const name = `${uniqueName()}.html`;
    await service.storage.from(bucket).upload(name, '<h1>hi</h1>', { contentType: 'text/html; charset=utf-8' });
    const response = await rawStorageRequest(`/object/${bucket}/${name}`, { headers: asService });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).not.toMatch(/html/i);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });
});
