// Reports (docs/product.md §7; docs/reports.md): `GET /orgs/{org}/reports/inspections.csv` and
// `…/answers.csv` stream every inspection (or answer) the list's filters select (report-csv/:
// the streaming and its bounds in stream.ts, the rows and records in records.ts), and
// `GET /orgs/{org}/inspections/{id}/report.pdf` is the inspection's report to hand over
// (report-pdf/).
import { z } from 'zod';
import { attachmentDisposition } from '../_shared/csv.ts';
import type { Tx } from '../_shared/db.ts';
import { ApiError } from '../_shared/errors.ts';
import { route } from '../_shared/http.ts';
import { idSchema } from '../_shared/schemas/common.ts';
import { ANSWER_CSV_COLUMNS, INSPECTION_CSV_COLUMNS, reportQuerySchema } from '../_shared/schemas/reports.ts';
import { requireRole } from './access.ts';
import { storageCallerOf } from './evidence.ts';
import { orgParams } from './orgs.ts';
import { type AnswerCsvRow, answerRecord, type InspectionCsvRow, inspectionRecord, selectAnswerRows, selectInspectionRows } from './report-csv/records.ts';
import { streamCsv } from './report-csv/stream.ts';
import { readReportData } from './report-pdf/data.ts';
import { buildInspectionReport } from './report-pdf/document.ts';

/** The organization's slug, for file names; 404 unless the caller belongs to it (analytics' CSVs too). */
export async function organizationSlug(tx: Tx, orgId: string): Promise<string> {
  await requireRole(tx, orgId);
  const [org] = await tx<{ slug: string }[]>`select slug from public.organizations where id = ${orgId}`;
  if (!org) throw ApiError.notFound('organization');
  return org.slug;
}

/** Today's date (UTC) as the file names carry it. */
const today = () => new Date().toISOString().slice(0, 10);

export const exportInspectionsCsv = route({
  method: 'GET',
  response: { file: 'text/csv' },
  summary: 'Every inspection the filters select, as CSV (streamed)',
  path: '/orgs/:org/reports/inspections.csv',
  params: orgParams,
  query: reportQuerySchema,
  handler: async ({ params, query, db, requestId }) => {
    return await streamCsv<InspectionCsvRow>(
      { db, requestId },
      async (tx) => `${await organizationSlug(tx, params.org)}-inspections-${today()}.csv`,
      INSPECTION_CSV_COLUMNS,
      (tx) => selectInspectionRows(tx, params.org, query),
      inspectionRecord,
    );
  },
});

export const exportAnswersCsv = route({
  method: 'GET',
  response: { file: 'text/csv' },
  summary: "Every answer of the inspections the filters select, as CSV (streamed)",
  path: '/orgs/:org/reports/answers.csv',
  params: orgParams,
  query: reportQuerySchema,
  handler: async ({ params, query, db, requestId }) => {
    return await streamCsv<AnswerCsvRow>(
      { db, requestId },
      async (tx) => `${await organizationSlug(tx, params.org)}-answers-${today()}.csv`,
      ANSWER_CSV_COLUMNS,
      (tx) => selectAnswerRows(tx, params.org, query),
      answerRecord,
    );
  },
});

const inspectionParams = z.strictObject({ org: idSchema, id: idSchema });

export const inspectionReportPdf = route({
  method: 'GET',
  response: { file: 'application/pdf' },
  summary: "The inspection's report as a PDF: cover, every item, photos, signature, failed items and their actions",
  path: '/orgs/:org/inspections/:id/report.pdf',
  params: inspectionParams,
  handler: async ({ req, principal, params, db }) => {
    // Everything the report shows is read as the caller, so RLS decides; the photos' bytes come
    // from Storage afterwards, only for the rows that read returned.
    const data = await db(async (tx) => {
      await requireRole(tx, params.org);
      return await readReportData(tx, params.org, params.id);
    });
    const pdf = await buildInspectionReport(data, storageCallerOf(req, principal));
    const fileName = `${data.organization.slug}-${data.inspection.title}-${data.generatedAt.slice(0, 10)}.pdf`;
    return new Response(pdf.stream, {
      status: 200,
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': attachmentDisposition(fileName),
        // Known before the first byte (report-pdf/writer.ts), so a download can show its progress.
        'content-length': String(pdf.length),
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    });
  },
});
