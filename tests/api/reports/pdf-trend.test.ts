// The inspection PDF's score trend (issue 28 part 5; docs/analytics.md "In the report"): the site's
// average score for the same template over the 12 months up to the inspection's submission, by
// month on the site's calendar, read from the analytics rollups as the caller — the same figures as
// GET …/analytics/scores for that site and template. Other templates, other sites, months before
// the twelve and unsubmitted inspections are not in it. Its text is read with pdf.js.
import { writeFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenOf, rawReport, textOf } from './support.ts';
import { call, expectStatus, post } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { answerItems, createGeofencedSite, createPublishedTemplate, inspectionPath, inspectionWorldAndStranger, type PublishedTemplate, startInspection } from '../../support/fixtures.ts';

const { world, stranger } = inspectionWorldAndStranger();

/** Two scored items: both passed is 100%, one failed 50%, both failed 0%. */
const DEFINITION = {
  sections: [
    {
      key: 'kitchen',
      title: 'Kitchen',
      items: [
        { key: 'floor', kind: 'pass_fail', label: 'Floor is clean', help: null, required: true, weight: 1 },
        { key: 'hood', kind: 'pass_fail', label: 'Extractor hood is clean', help: null, required: true, weight: 1 },
      ],
    },
  ],
};
const SCORES = { 100: { floor: 'pass', hood: 'pass' }, 50: { floor: 'pass', hood: 'fail' }, 0: { floor: 'fail', hood: 'fail' } } as const;

let auckland: any;
let otherSite: any;
let kitchen: PublishedTemplate;
let otherTemplate: PublishedTemplate;
let reported: string;
let pages: string[];
/** The text of the report of an inspection submitted in September 2026, then sent back. */
let sentBackPages: string[];

/** An inspection submitted with `score`, its submission then dated `submittedAt` (UTC). */
async function submitted(site: any, template: PublishedTemplate, score: keyof typeof SCORES, submittedAt: string): Promise<string> {
  const { id } = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/inspections`, { site_id: site.id, template_id: template.id }), 201);
  await startInspection(world, id, world.inspector);
  await answerItems(world, id, world.inspector, SCORES[score]);
  expectStatus(await post(world.inspector.client, `${inspectionPath(world.org.id, id)}/submit`, undefined), 200);
  await db().begin(async (tx) => {
    // The clock cannot be set for one request: the submission is moved to the month the test needs.
    await tx`set local session_replication_role = replica`;
    await tx`update public.inspections set submitted_at = ${submittedAt}::timestamptz where id = ${id}`;
  });
  return id;
}

beforeAll(async () => {
  [auckland, otherSite, kitchen, otherTemplate] = await Promise.all([
    createGeofencedSite(world.manager, world.org.id, { name: 'Viaduct Kitchen', timezone: 'Pacific/Auckland' }),
    createGeofencedSite(world.manager, world.org.id, { name: 'Other kitchen', timezone: 'Pacific/Auckland' }),
    createPublishedTemplate(world.manager, world.org.id, DEFINITION, 'Kitchen audit'),
    createPublishedTemplate(world.manager, world.org.id, DEFINITION, 'Fire walk'),
  ]);
  await submitted(auckland, kitchen, 50, '2026-03-10T00:00:00Z');
  await submitted(auckland, kitchen, 100, '2026-03-20T00:00:00Z');
  // 31 Aug 13:00 UTC is 1 Sep 01:00 in Auckland: September on the site's calendar.
  await submitted(auckland, kitchen, 100, '2026-08-31T13:00:00Z');
  // Before the twelve months, another template, another site: none of them in the trend.
  await submitted(auckland, kitchen, 0, '2025-10-15T00:00:00Z');
  await submitted(auckland, otherTemplate, 0, '2026-10-05T00:00:00Z');
  await submitted(otherSite, kitchen, 0, '2026-10-06T00:00:00Z');
  reported = await submitted(auckland, kitchen, 50, '2026-10-15T00:00:00Z');
  // An inspection started but never submitted counts for nothing.
  const open = expectStatus(await post(world.manager.client, `orgs/${world.org.id}/inspections`, { site_id: auckland.id, template_id: kitchen.id }), 201);
  await startInspection(world, open.id, world.inspector);
  await answerItems(world, open.id, world.inspector, SCORES[0]);
  // Submitted in September, then sent back: it keeps its submitted_at but no longer counts.
  const sentBack = await submitted(auckland, kitchen, 0, '2026-09-20T00:00:00Z');
  expectStatus(await post(world.manager.client, `${inspectionPath(world.org.id, sentBack)}/review`, { decision: 'request_changes', note: 'Redo the hood.' }), 200);
  // The rollups, rebuilt from the rows as they now are (the one command: npm run db:rollups:rebuild).
  await db()`select private.rebuild_analytics(${world.org.id})`;

  const response = await rawReport(await accessTokenOf(world.viewer), `${inspectionPath(world.org.id, reported)}/report.pdf`);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  // To look at it: REPORT_PDF_OUT=/tmp/trend.pdf, then pdftoppm -png /tmp/trend.pdf /tmp/page.
  if (process.env.REPORT_PDF_OUT) writeFileSync(process.env.REPORT_PDF_OUT, bytes);
  ({ pages } = await textOf(bytes));
  const sentBackResponse = await rawReport(await accessTokenOf(world.viewer), `${inspectionPath(world.org.id, sentBack)}/report.pdf`);
  expect(sentBackResponse.status).toBe(200);
  ({ pages: sentBackPages } = await textOf(new Uint8Array(await sentBackResponse.arrayBuffer())));
}, 120_000);

describe('the score trend in report.pdf', () => {
  it('shows the 12 months up to the submission, each month\'s average and count, the inspection\'s own month marked', () => {
    const text = pages.join('\n');
    expect(text).toContain('Score trend at this site');
    expect(text.replace(/\s+/g, ' ')).toContain('Average score of submitted and approved inspections of Kitchen audit at Viaduct Kitchen, by month of submission on the site\'s calendar, Nov 2025 to Oct 2026.');
    const rows = [...text.matchAll(/^\w{3,4} \d{4} .*$/gm)].map(([row]) => row);
    expect(rows).toEqual([
      'Nov 2025 no inspection',
      'Dec 2025 no inspection',
      'Jan 2026 no inspection',
      'Feb 2026 no inspection',
      'Mar 2026 75% · 2 inspections',
      'Apr 2026 no inspection',
      'May 2026 no inspection',
      'Jun 2026 no inspection',
      'Jul 2026 no inspection',
      'Aug 2026 no inspection',
      'Sept 2026 100% · 1 inspection',
      "Oct 2026 50% · 1 inspection (this inspection's month)",
    ]);
  });

  it("marks no month for an inspection sent back: it keeps its submitted_at but is not among the month's", () => {
    const text = sentBackPages.join('\n');
    const rows = [...text.matchAll(/^\w{3,4} \d{4} .*$/gm)].map(([row]) => row);
    expect(rows.at(-1)).toBe('Sept 2026 100% · 1 inspection');
    expect(text).not.toContain("this inspection's month");
  });

  it('holds the same figures as GET …/analytics/scores for the site and the template', async () => {
    const scores = expectStatus(
      await call(world.viewer.client, `orgs/${world.org.id}/analytics/scores?interval=month&from=2025-11-01&to=2026-10-15&site_id=${auckland.id}&template_id=${kitchen.id}`),
      200,
    );
    const nonEmpty = scores.data.filter((row: any) => row.inspections > 0).map((row: any) => [row.period_start, row.average_score, row.inspections]);
    expect(nonEmpty).toEqual([['2026-03-01', 75, 2], ['2026-09-01', 100, 1], ['2026-10-01', 50, 1]]);
  });

  it('is not given to someone outside the organization', async () => {
    const response = await rawReport(await accessTokenOf(stranger), `${inspectionPath(world.org.id, reported)}/report.pdf`);
    expect(response.status).toBe(404);
  });
});
