// The CSV exports (issue 16 parts 1 and 4): inspections.csv holds exactly what the list API returns
// for the same filters, answers.csv one record per answer as a person reads it, cells that would
// run as formulas are neutralized, RFC 4180 quoting and UTF-8, and row-level security decides what
// is in them (another organization's rows never appear; the members and keys of the organization
// get theirs). The files are parsed with csv-parse, never split by hand.
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_CSV_COLUMNS, INSPECTION_CSV_COLUMNS } from '../../../supabase/functions/_shared/schemas/reports.ts';
import { stack } from '../../support/stack.ts';
import {
  addConfirmedPhoto, answerEverythingRequired, answerItems, createGeofencedSite, forceStatus, inProgressInspection, inspectionPath,
  inspectionsPath, inspectionWorldAndStranger, scheduleInspection, startInspection, type User,
} from '../../support/fixtures.ts';
import { allPages } from '../../support/paging.ts';
import { call, expectProblem, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { createKey } from '../keys/support.ts';
import {
  accessTokenOf, askWhileExportsBusy, csvReport, cellsAsSplitBy, neutralized, PHOTO, queryOf, rawReport, runsAsFormula, uploadPhoto,
} from './support.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();
const ids: Record<string, string> = {};
let unicodeSite: any;
let strangerInspection: string;

/** An instant to the second, as the CSV writes it (docs/reports.md). */
const toSecond = (iso: string | null) => (iso === null ? '' : String(Math.floor(Date.parse(iso) / 1000)));
const csvSecond = (cell: string) => (cell === '' ? '' : String(Math.floor(Date.parse(cell) / 1000)));
/** A `…_utc` cell (`YYYY-MM-DD HH:MM:SS` in UTC) as the same instant to the second. */
const utcSecond = (cell: string) => {
  if (cell === '') return '';
  expect(cell).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  return String(Math.floor(Date.parse(`${cell.replace(' ', 'T')}Z`) / 1000));
};
/** The review's payload (issue 24, finding 7): a formula after a semicolon. */
const SEMICOLON_FORMULA = "Site;=cmd|' /C calc'!A0;";

beforeAll(async () => {
  unicodeSite = await createGeofencedSite(world.manager, world.org.id, { name: 'Café Ñandú — 東京', external_ref: '=HYPERLINK("http://evil.test")', timezone: 'Asia/Tokyo' });
  // Scheduled, assigned, overdue, with a title a spreadsheet would run.
  ids.scheduled = (await scheduleInspection(world, { title: '=1+2', assignee_id: world.inspector.userId, due_at: '2020-01-01T00:00:00Z', external_ref: '+CMD' })).id;
  // In progress at the unicode site, answered with text that starts like formulas, and a photo.
  ids.running = (await scheduleInspection(world, { site_id: unicodeSite.id, title: 'Café Ñandú — 東京 audit' })).id;
  await startInspection(world, ids.running, world.inspector);
  await answerItems(world, ids.running, world.inspector, {
    floor_clean: 'fail', fridge_temp: -19, remarks: `@SUM(A1:A9) ${SEMICOLON_FORMULA}`, hazards: ['Wet floor', 'Blocked exit'], last_service: '2026-01-31',
  });
  // A note with a comma, a quote and a line break; another that starts with a minus.
  await call(world.inspector.client, `${inspectionPath(world.org.id, ids.running)}/answers`, {
    method: 'PUT',
    body: { answers: [
      { item_key: 'fridge_locked', value: 'no', note: '-2+3 degrees', base_version: null },
      { item_key: 'cleanliness', value: 'Good', note: 'line one,\n"quoted" line two', base_version: null },
    ] },
  }).then((outcome) => expectStatus(outcome, 200));
  await uploadPhoto(world, ids.running, 'photo', world.inspector, PHOTO.jpeg, 'image/jpeg');
  // Submitted, then approved.
  ids.approved = await inProgressInspection(world, world.manager);
  await answerEverythingRequired(world, ids.approved, world.manager);
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, ids.approved)}/submit`, undefined), 200);
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, ids.approved)}/review`, { decision: 'approve', note: 'Fine.' }), 200);
  ids.canceled = (await scheduleInspection(world)).id;
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, ids.canceled)}/cancel`, undefined), 200);
  // Another organization's inspection, with an answer.
  const created = expectStatus(await post(stranger.client, inspectionsPath(strangerWorld.orgId), { site_id: strangerWorld.site.id, template_id: strangerWorld.template.id }), 201);
  strangerInspection = created.id;
  await forceStatus(strangerInspection, 'in_progress');
  await db()`insert into public.answers (org_id, inspection_id, item_key, value, answered_by) values (${strangerWorld.orgId}, ${strangerInspection}, 'remarks', '"stranger text"', ${stranger.userId})`;
}, 120_000);

/** Holds every record of inspections.csv to the list API's page of the same filters. */
async function expectCsvEqualsList(user: User, filters: Record<string, string>) {
  const { records } = await csvReport(user.client, world.org.id, 'inspections', filters);
  const listed = (await allPages(user.client, `${inspectionsPath(world.org.id)}${queryOf(filters)}`, 200)).flat();
  expect(records.map((r) => r.inspection_id), JSON.stringify(filters)).toEqual(listed.map((i: any) => i.id));
  for (const [n, row] of records.entries()) {
    const item = listed[n];
    expect(row, `${JSON.stringify(filters)} ${item.id}`).toMatchObject({
      title: neutralized(item.title),
      status: item.status,
      site_id: item.site_id,
      site_name: neutralized(item.site_name),
      site_timezone: item.site_timezone,
      external_ref: neutralized(item.external_ref),
      template_id: item.template_id,
      template_name: neutralized(item.template_name),
      template_version: String(item.template_version),
      assignee_id: item.assignee_id ?? '',
      assignee_name: neutralized(item.assignee_name),
      overdue: String(item.overdue),
      started_by: item.started_by ?? '',
      submitted_by: item.submitted_by ?? '',
      reviewed_by: item.reviewed_by ?? '',
      score: String(item.score),
      max_score: String(item.max_score),
      score_percent: item.max_score > 0 ? String(Math.round((item.score / item.max_score) * 1000) / 10) : '',
      failed_count: String(item.failed_count),
      start_distance_m: item.start_distance_m === null ? '' : String(item.start_distance_m),
      start_outside_geofence: item.start_outside_geofence === null ? '' : String(item.start_outside_geofence),
    });
    for (const column of ['due_at', 'started_at', 'submitted_at', 'reviewed_at', 'created_at', 'updated_at'] as const) {
      expect(csvSecond(row[column]), `${column} of ${item.id}`).toBe(toSecond(item[column]));
      expect(utcSecond(row[`${column}_utc`]), `${column}_utc of ${item.id}`).toBe(toSecond(item[column]));
    }
  }
  return records;
}

describe('inspections.csv', () => {
  it('holds, record by record, what the list API returns for the same filters', async () => {
    const all = await expectCsvEqualsList(world.manager, {});
    expect(all.length).toBe(4);
    await expectCsvEqualsList(world.manager, { status: 'in_progress' });
    await expectCsvEqualsList(world.manager, { status: 'scheduled,approved' });
    await expectCsvEqualsList(world.manager, { site_id: unicodeSite.id });
    await expectCsvEqualsList(world.manager, { assignee_id: world.inspector.userId });
    await expectCsvEqualsList(world.manager, { overdue: 'true' });
    await expectCsvEqualsList(world.manager, { overdue: 'false' });
    await expectCsvEqualsList(world.manager, { q: 'ñandú' });
    const none = await expectCsvEqualsList(world.manager, { q: 'nothing is called this' });
    expect(none).toEqual([]);
    await expectCsvEqualsList(world.inspector, { updated_since: new Date(Date.now() - 3_600_000).toISOString() });
  });

  it('names its columns in the documented order, with the site, template, people, score and location flag', async () => {
    const { outcome, records } = await csvReport(world.manager.client, world.org.id, 'inspections', { status: 'approved' });
    const [header] = parse(outcome.body, { bom: true, to_line: 1 }) as string[][];
    expect(header).toEqual([...INSPECTION_CSV_COLUMNS]);
    // Columns are only ever added at the end: the spreadsheet-ready times came last.
    expect(header.slice(-6)).toEqual(['due_at_utc', 'started_at_utc', 'submitted_at_utc', 'reviewed_at_utc', 'created_at_utc', 'updated_at_utc']);
    const [approved] = records;
    expect(approved).toMatchObject({
      inspection_id: ids.approved, status: 'approved', started_by_name: 'Mia Manager', submitted_by_name: 'Mia Manager',
      reviewed_by_name: 'Mia Manager', start_outside_geofence: 'false', template_version: '1',
    });
    expect(Number(approved.start_distance_m)).toBeGreaterThan(0);
  });

  it('writes times in ISO 8601 with the site\'s offset, and the site\'s time zone beside them', async () => {
    const { records } = await csvReport(world.manager.client, world.org.id, 'inspections', { site_id: unicodeSite.id });
    const [row] = records;
    expect(row.site_timezone).toBe('Asia/Tokyo');
    expect(row.started_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+09:00$/);
    expect(row.created_at).toMatch(/\+09:00$/);
    const { records: london } = await csvReport(world.manager.client, world.org.id, 'inspections', { status: 'approved' });
    expect(london[0].site_timezone).toBe('UTC');
    expect(london[0].submitted_at).toMatch(/\+00:00$/);
  });

  it('writes each time again in UTC as YYYY-MM-DD HH:MM:SS, which spreadsheets read as a date-time', async () => {
    const { records } = await csvReport(world.manager.client, world.org.id, 'inspections', { site_id: unicodeSite.id });
    const [row] = records;
    // 09:00 in Tokyo is 00:00 UTC: the same instant, without the offset spreadsheets cannot read.
    expect(row.started_at_utc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(utcSecond(row.started_at_utc)).toBe(csvSecond(row.started_at));
    expect(utcSecond(row.created_at_utc)).toBe(csvSecond(row.created_at));
    expect(row.due_at_utc).toBe('');
    const { records: scheduled } = await csvReport(world.manager.client, world.org.id, 'inspections', { overdue: 'true' });
    expect(scheduled.map((r) => r.due_at_utc)).toEqual(['2020-01-01 00:00:00']);
  });

  it('neutralizes cells that a spreadsheet would run as a formula, and leaves the rest as typed', async () => {
    const { records } = await csvReport(world.manager.client, world.org.id, 'inspections');
    const scheduled = records.find((r) => r.inspection_id === ids.scheduled)!;
    expect(scheduled.title).toBe("'=1+2");
    expect(scheduled.external_ref).toBe("'+CMD");
    const running = records.find((r) => r.inspection_id === ids.running)!;
    expect(running.site_external_ref).toBe(`'=HYPERLINK("http://evil.test")`);
    expect(running.site_name).toBe('Café Ñandú — 東京');
    expect(running.title).toBe('Café Ñandú — 東京 audit');
    for (const record of records) {
      for (const [column, cell] of Object.entries(record)) expect(cell, `${column} of ${record.inspection_id}`).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('starts no formula in a spreadsheet that splits on semicolons or tabs, where quotes opened mid-field do not count', async () => {
    for (const name of ['inspections', 'answers'] as const) {
      const { outcome } = await csvReport(world.manager.client, world.org.id, name);
      const body = outcome.body as string;
      expect(body).toContain(name === 'answers' ? "Site;'=cmd|' /C calc'!A0;" : 'inspection_id');
      for (const separator of [';', '\t', ',']) {
        const cells = cellsAsSplitBy(body.replace(/^\uFEFF/, ''), separator);
        // A plain number (a score, a negative reading) is a number, not a formula.
        const formulas = cells.filter((cell) => runsAsFormula(cell) && !/^-?\d+(\.\d+)?$/.test(cell));
        expect(formulas, `${name}.csv split by ${JSON.stringify(separator)}`).toEqual([]);
      }
    }
  });

  it('is UTF-8 with a byte order mark, CRLF line ends and a download name with the organization and the date', async () => {
    const response = await rawReport(await accessTokenOf(world.manager), `orgs/${world.org.id}/reports/inspections.csv`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="${world.org.slug}-inspections-${today}.csv"; filename*=UTF-8''${world.org.slug}-inspections-${today}.csv`,
    );
    expect(response.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.subarray(3));
    // Four records and the header, each ended by CRLF; the note's own line break stays inside its quotes.
    expect(text.split('\r\n').length).toBe(4 + 2);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(new TextDecoder().decode(bytes)).toContain('Café Ñandú — 東京');
  });

  it('refuses filters the list refuses, with the catalogue wording', async () => {
    const bad = expectProblem(await call(world.manager.client, `orgs/${world.org.id}/reports/inspections.csv?status=done`), 422, 'validation_failed', ['query.status']);
    expect(bad.title).toBe('Some fields need attention.');
    expectProblem(await call(world.manager.client, `orgs/${world.org.id}/reports/inspections.csv?limit=10`), 422, 'validation_failed', ['query.limit']);
    expectProblem(await call(world.manager.client, `orgs/${world.org.id}/reports/answers.csv?site_id=nope`), 422, 'validation_failed', ['query.site_id']);
    expectProblem(await call(world.manager.client, `orgs/not-an-id/reports/inspections.csv`), 422, 'validation_failed', ['org']);
  });
});

describe('answers.csv', () => {
  it('has one record per answered item in template order, values as a person reads them', async () => {
    const { records, outcome } = await csvReport(world.viewer.client, world.org.id, 'answers', { site_id: unicodeSite.id });
    const [header] = parse(outcome.body, { bom: true, to_line: 1 }) as string[][];
    expect(header).toEqual([...ANSWER_CSV_COLUMNS]);
    const detail = expectStatus(await call(world.viewer.client, inspectionPath(world.org.id, ids.running)), 200);
    const order = detail.template.definition.sections.flatMap((s: any) => s.items.map((i: any) => i.key));
    const answered = new Set([...detail.answers.map((a: any) => a.item_key), 'photo']);
    expect(records.map((r) => r.item_key)).toEqual(order.filter((key: string) => answered.has(key)));
    const byKey = Object.fromEntries(records.map((r) => [r.item_key, r]));
    expect(byKey.floor_clean).toMatchObject({ value: 'Fail', failed: 'true', item_kind: 'pass_fail', section_key: 'checks', section_title: 'Checks', item_label: 'Floor is clean' });
    expect(byKey.fridge_locked).toMatchObject({ value: 'No', failed: 'true', note: "'-2+3 degrees" });
    // Numbers: the words for people (a text cell starting with "-": neutralized), and a number
    // column a spreadsheet sums (no apostrophe on a negative reading), with the unit apart.
    expect(byKey.fridge_temp).toMatchObject({ value: "'-19 °C", failed: 'true', value_number: '-19', unit: '°C' });
    expect(byKey.remarks).toMatchObject({ value: "'@SUM(A1:A9) Site;'=cmd|' /C calc'!A0;", failed: '', value_number: '', unit: '' });
    expect(byKey.hazards).toMatchObject({ value: 'Wet floor; Blocked exit', failed: 'true' });
    expect(byKey.last_service.value).toBe('2026-01-31');
    expect(byKey.cleanliness).toMatchObject({ value: 'Good', failed: 'false', note: 'line one,\n"quoted" line two' });
    expect(byKey.photo).toMatchObject({ value: '', photo_count: '1', item_kind: 'photo' });
    for (const record of records) {
      const answer = detail.answers.find((a: any) => a.item_key === record.item_key);
      expect(record).toMatchObject({ inspection_id: ids.running, site_name: 'Café Ñandú — 東京', site_timezone: 'Asia/Tokyo', template_version: '1' });
      if (!answer) continue;
      expect(record.answered_by).toBe(answer.answered_by);
      expect(record.answered_by_name).toBe('Ivan Inspector');
      expect(csvSecond(record.answered_at)).toBe(toSecond(answer.answered_at));
      expect(record.answered_at).toMatch(/\+09:00$/);
      expect(utcSecond(record.answered_at_utc)).toBe(toSecond(answer.answered_at));
      if (record.item_kind !== 'number') expect([record.value_number, record.unit]).toEqual(['', '']);
    }
    expect(header.slice(-3)).toEqual(['value_number', 'unit', 'answered_at_utc']);
  });

  it('takes the same filters as the list: only the selected inspections\' answers', async () => {
    const { records } = await csvReport(world.manager.client, world.org.id, 'answers', { status: 'approved' });
    expect(new Set(records.map((r) => r.inspection_id))).toEqual(new Set([ids.approved]));
    const { records: none } = await csvReport(world.manager.client, world.org.id, 'answers', { status: 'scheduled' });
    expect(none).toEqual([]);
  });
});

describe('row-level security', () => {
  it("another organization's rows never appear, and each organization gets its own", async () => {
    const ours = await csvReport(world.inspector.client, world.org.id, 'inspections');
    expect(ours.records.map((r) => r.inspection_id).sort()).toEqual(Object.values(ids).sort());
    const theirs = await csvReport(stranger.client, strangerWorld.orgId, 'inspections');
    expect(theirs.records.map((r) => r.inspection_id)).toEqual([strangerInspection]);
    const theirAnswers = await csvReport(stranger.client, strangerWorld.orgId, 'answers');
    expect(theirAnswers.records.map((r) => [r.inspection_id, r.value])).toEqual([[strangerInspection, 'stranger text']]);
    const ourAnswers = await csvReport(world.manager.client, world.org.id, 'answers');
    expect(ourAnswers.records.some((r) => r.inspection_id === strangerInspection)).toBe(false);
    expect(ourAnswers.outcome.body).not.toContain('stranger text');
  });

  it('is a 404 for an organization the caller is not in, filters or not', async () => {
    expectProblem(await askWhileExportsBusy(() => call(stranger.client, `orgs/${world.org.id}/reports/inspections.csv`)), 404, 'not_found');
    expectProblem(await askWhileExportsBusy(() => call(stranger.client, `orgs/${world.org.id}/reports/answers.csv?site_id=${unicodeSite.id}`)), 404, 'not_found');
    expectProblem(await askWhileExportsBusy(() => call(world.manager.client, `orgs/${strangerWorld.orgId}/reports/inspections.csv`)), 404, 'not_found');
  });

  it('works with an API key of the organization, and a key of another organization gets a 404', async () => {
    const key = await createKey(world.owner, world.org.id, 'viewer');
    const { records } = await csvReport(key.client, world.org.id, 'inspections');
    expect(records.map((r) => r.inspection_id).sort()).toEqual(Object.values(ids).sort());
    const { records: answers } = await csvReport(key.client, world.org.id, 'answers', { status: 'in_progress' });
    expect(answers.length).toBeGreaterThan(0);
    const raw = await rawReport(key.secret, `orgs/${world.org.id}/reports/inspections.csv`);
    expect(raw.status).toBe(200);
    await raw.body?.cancel();
    expectProblem(await askWhileExportsBusy(() => call(key.client, `orgs/${strangerWorld.orgId}/reports/inspections.csv`)), 404, 'not_found');
  });

  it('asks for a sign-in without a token', async () => {
    const response = await fetch(`${stack.API_URL}/functions/v1/api/orgs/${world.org.id}/reports/inspections.csv`, { headers: { apikey: stack.PUBLISHABLE_KEY } });
    expect(response.status).toBe(401);
    expect((await response.json()).code).toBe('unauthenticated');
  });
});

describe('streaming', () => {
  it('holds its transaction open while the body streams, and ends it when the download is aborted', async () => {
    // Enough rows (about 40 MB of CSV) that the body outgrows every buffer between the function and
    // a reader that stops (its queue, the gateway's, the loopback sockets': ~20 MB here). Inserted
    // without the triggers, which is fast.
    const sql = db();
    await sql.begin(async (tx) => {
      await tx`set local session_replication_role = replica`;
      await tx`
        insert into public.inspections (org_id, site_id, template_id, template_version_id, title, created_by)
        select ${world.org.id}, ${world.site.id}, ${world.template.id}, ${world.template.versionId},
               'Bulk inspection number ' || n || repeat(' pad', 22), ${world.manager.userId}
        from generate_series(1, 80000) n
      `;
    });
    // The export's session, which names itself after the request while it streams, still running
    // or waiting inside its transaction.
    const requestId = `streaming-${crypto.randomUUID()}`;
    const exporting = async () =>
      (await sql`
        select count(*)::int as n from pg_stat_activity
        where application_name = ${`export ${requestId}`.slice(0, 63)} and state <> 'idle'
      `)[0].n as number;
    expect(await exporting()).toBe(0);
    const controller = new AbortController();
    const response = await rawReport(await accessTokenOf(world.manager), `orgs/${world.org.id}/reports/inspections.csv`, {
      signal: controller.signal,
      headers: { 'x-request-id': requestId },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The reader stops: the export waits on back-pressure with its cursor open, inside its transaction.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await exporting()).toBe(1);
    controller.abort();
    await reader.cancel().catch(() => undefined);
    // The abort reaches the function: the cursor is closed and the transaction rolled back.
    await expect.poll(exporting, { timeout: 10_000 }).toBe(0);
    // And the function goes on answering.
    const { records } = await csvReport(world.manager.client, world.org.id, 'inspections', { q: 'Bulk inspection number 77777 ' });
    expect(records.map((r) => r.title)).toEqual([`Bulk inspection number 77777${' pad'.repeat(22)}`]);
  }, 60_000);
});
