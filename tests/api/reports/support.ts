// Fixtures for the report tests: downloads through the unmodified supabase-js client (and raw
// fetch where the bytes themselves matter), the CSV parsed with csv-parse, photos uploaded through
// the real check-in → signed upload → confirm flow; a PDF's text read with pdf.js.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { SupabaseClient } from '@supabase/supabase-js';
import { expect } from 'vitest';
import { stack } from '../../support/stack.ts';
import { call, expectStatus, post } from '../../support/api.ts';
import type { InspectionWorld, User } from '../../support/fixtures.ts';

const fixtures = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'reports');
/** Real images (made with ImageMagick and cwebp): a 320 × 240 JPEG, a 200 × 150 PNG and WebP, a 300 × 100 signature PNG. */
export const PHOTO = {
  jpeg: new Uint8Array(readFileSync(path.join(fixtures, 'photo.jpg'))),
  png: new Uint8Array(readFileSync(path.join(fixtures, 'photo.png'))),
  webp: new Uint8Array(readFileSync(path.join(fixtures, 'photo.webp'))),
};
export const SIGNATURE_DATA_URL = `data:image/png;base64,${readFileSync(path.join(fixtures, 'signature.png')).toString('base64')}`;

/**
 * The documented CSV-injection rule (docs/reports.md), for expected values: an apostrophe before
 * a formula start at the start and after each comma, semicolon, tab or line break (blanks and
 * quotes between may come first).
 */
export function neutralized(text: string | null): string {
  if (text === null) return '';
  return text.replace(/(^|[,;\t\r\n])((?:[^\S\t\r\n]|")*)(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/g, "$1$2'");
}

/**
 * The cells a spreadsheet makes of `text` when it splits on `separator`, as Excel does in a locale
 * whose list separator is `;`: a double quote counts only where it opens a field, and a line
 * break outside such quotes ends the row.
 */
export function cellsAsSplitBy(text: string, separator: string): string[] {
  const cells: string[] = [];
  let i = 0;
  while (i <= text.length) {
    let cell = '';
    if (text[i] === '"') {
      for (i++; i < text.length; i++) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i++;
        } else if (text[i] === '"') break;
        else cell += text[i];
      }
      i++;
    }
    for (; i < text.length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n'; i++) cell += text[i];
    cells.push(cell);
    i++;
  }
  return cells;
}

/** A cell a spreadsheet would run: after blanks and quotes, a formula start (full-width forms too). */
export const runsAsFormula = (cell: string) => /^[\s"]*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell);

/** A query string of the list's filters. */
export function queryOf(filters: Record<string, string>): string {
  const search = new URLSearchParams(filters).toString();
  return search ? `?${search}` : '';
}

/**
 * Asks again while the api answers that it is already streaming its exports (503 with Retry-After,
 * supabase/functions/api/reports.ts, `exportLimits.slots`), as a client told to try again does; any
 * other answer is returned as it is. Test files run side by side on one stack, so they share the
 * api instance's export slots the way users of one instance do: csv.test.ts holds a slow download
 * open for seconds while pdf.test.ts and the key role matrix export too (a refused export made
 * csv.test.ts fail in a full run). The slot rule itself is tested in slow-readers.test.ts. Polls
 * every 250 ms rather than the 5 s the header says, to keep the suite quick; gives up after 30 s.
 */
export async function askWhileExportsBusy<T extends { status: number; body: unknown }>(ask: () => Promise<T>): Promise<T> {
  const giveUpAt = Date.now() + 30_000;
  for (;;) {
    const outcome = await ask();
    const problem = outcome.body as { code?: string; detail?: string } | null;
    const busy = outcome.status === 503 && problem?.code === 'service_unavailable' && /already sending \d+ exports/.test(problem.detail ?? '');
    if (!busy || Date.now() > giveUpAt) return outcome;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Downloads a CSV report through supabase-js and parses it: header names → values. */
export async function csvReport(client: SupabaseClient, orgId: string, name: 'inspections' | 'answers', filters: Record<string, string> = {}) {
  const outcome = await askWhileExportsBusy(() => call(client, `orgs/${orgId}/reports/${name}.csv${queryOf(filters)}`));
  expect(outcome.status, JSON.stringify(outcome.body)).toBe(200);
  expect(typeof outcome.body).toBe('string');
  const records: Record<string, string>[] = parse(outcome.body, { columns: true, bom: true, skip_empty_lines: false });
  return { records, outcome };
}

/** The raw bytes and headers of a report, with `token` as the bearer (a user's access token or an API key). */
export async function rawReport(token: string, pathBelowApi: string, init: RequestInit = {}) {
  const ask = () => fetch(`${stack.API_URL}/functions/v1/api/${pathBelowApi}`, {
    ...init,
    headers: { apikey: stack.PUBLISHABLE_KEY, authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
  });
  // Only a 503's body is read to tell a busy answer (a refused export is small); any other
  // response is handed back unread, as fetch gave it.
  const outcome = await askWhileExportsBusy(async () => {
    const response = await ask();
    return { status: response.status, body: response.status === 503 ? await response.clone().json().catch(() => null) : null, response };
  });
  return outcome.response;
}

export async function accessTokenOf(user: User): Promise<string> {
  const { data } = await user.client.auth.getSession();
  return data.session!.access_token;
}

/** Checks a photo in, uploads it to its signed URL and confirms it, as `by`; returns the attachment. */
export async function uploadPhoto(world: InspectionWorld, inspectionId: string, itemKey: string, by: User, bytes: Uint8Array, contentType: string) {
  const base = `orgs/${world.org.id}/inspections/${inspectionId}/attachments`;
  const created = expectStatus(await post(by.client, base, { item_key: itemKey, content_type: contentType, byte_size: bytes.byteLength }), 201);
  const { error } = await by.client.storage.from('evidence').uploadToSignedUrl(created.upload.path, created.upload.token, bytes, { contentType });
  expect(error).toBeNull();
  return expectStatus(await post(by.client, `${base}/${created.attachment.id}/confirm`, undefined), 200);
}

/** Every page's text, items joined as pdf.js reads them. */
export async function textOf(bytes: Uint8Array): Promise<{ pages: string[]; numPages: number; images: number }> {
  const document = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  let images = 0;
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    pages.push(content.items.map((item: any) => `${item.str}${item.hasEOL ? '\n' : ''}`).join(''));
    const operators = await page.getOperatorList();
    const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
    images += operators.fnArray.filter((fn: number) => fn === OPS.paintImageXObject).length;
  }
  await document.destroy();
  return { pages, numPages: pages.length, images };
}
