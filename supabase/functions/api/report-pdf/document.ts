// The inspection report PDF (docs/reports.md): a cover (organization, site with address and
// coordinates, template and version, inspectors, dates, score, status, geofence), the failed items
// with their corrective actions, then every section and item with its answer, pass / fail mark,
// note, photos and signature; page numbers and the time it was made on every page.
//
// Memory stays flat in the number of photos and bounded by the worst input (issue 24): the data is
// read first (data.ts), laid out page by page (layout.ts), with images handled by what they cost
// (images.ts), and written as a stream (writer.ts).
import {
  PDFDocument,
  rgb,
} from 'pdf-lib';
import { memoryProbe } from '../../_shared/memory-probe.ts';
import { ACTION_PRIORITY_LABELS, ACTION_STATUS_LABELS } from '../../_shared/schemas/action-states.ts';
import { answerText } from '../../_shared/schemas/answer-text.ts';
import { STATUS_LABELS } from '../../_shared/schemas/inspection-states.ts';
import type { TemplateItem } from '../../_shared/schemas/templates.ts';
import type { StorageCaller } from '../evidence.ts';
import { fontkitParsingOnce, loadFonts } from '../report-fonts.ts';
import type { ReportAction, ReportData, ReportPhoto, ReportScoreTrend } from './data.ts';
import { CONTENT_WIDTH, FAIL, Flow, type Fonts, INK, MARGIN, MUTED, PAGE, PASS, RULE, compressPage, coverageOf, encodeByCharacter } from './layout.ts';
import { PHOTO_BOX, type Photos, embedDecodedPng, placeImage, placeholder, preparePhoto } from './images.ts';
import { StreamingWriter } from './writer.ts';

function itemMark(flow: Flow, failed: boolean | null, answered: boolean) {
  if (failed === null || !answered) return;
  const text = failed ? 'FAIL' : 'PASS';
  const size = 8.5;
  const width = flow.widthOf(text, size, true) + 10;
  const x = PAGE.width - MARGIN.right - width;
  flow.page.drawRectangle({ x, y: flow.y - 14, width, height: 13, color: failed ? FAIL : PASS });
  flow.line(text, x + 5, flow.y - 10.5, size, true, rgb(1, 1, 1));
}

/** Builds the report; photos are read from Storage as `caller`. Answers the PDF as a stream, with its length. */
export async function buildInspectionReport(report: ReportData, caller: StorageCaller): Promise<{ stream: ReadableStream<Uint8Array>; length: number }> {
  const files = await loadFonts();
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkitParsingOnce);
  const [regular, bold, cjk] = await Promise.all([
    doc.embedFont(files.regular, { subset: true }),
    doc.embedFont(files.bold, { subset: true }),
    doc.embedFont(files.cjk, { subset: true }),
  ]);
  for (const font of [regular, bold, cjk]) encodeByCharacter(font);
  const fonts: Fonts = { regular, bold, cjk, latin: coverageOf('NotoSans', regular), han: coverageOf('NotoSansSC', cjk) };
  const { inspection, site, template, organization } = report;
  const zone = site.timezone;
  doc.setTitle(`${inspection.title} — inspection report`);
  doc.setAuthor(organization.name);
  doc.setCreator('Fieldcheck');
  doc.setProducer('Fieldcheck (pdf-lib)');
  doc.setCreationDate(new Date(report.generatedAt));

  const probe = memoryProbe('report.pdf');
  const flow = new Flow(doc, fonts, probe);

  // Cover.
  flow.text(organization.name, { size: 11, color: MUTED, after: 2 });
  flow.text('Inspection report', { size: 11, bold: true, color: MUTED, after: 10 });
  flow.text(inspection.title, { size: 20, bold: true, after: 14 });
  flow.rule(12);
  const facts: Array<[string, string]> = [
    ['Organization', organization.name],
    ['Site', site.name + (site.external_ref ? ` (ref. ${site.external_ref})` : '')],
    ['Address', site.address ?? 'No address recorded'],
    ['Coordinates', site.latitude !== null && site.longitude !== null ? `${site.latitude.toFixed(5)}, ${site.longitude.toFixed(5)}` : 'No position recorded'],
    ['Template', `${template.name}, version ${template.version}`],
    ['Status', STATUS_LABELS[inspection.status] ?? inspection.status],
    ['Score', scoreText(inspection.score, inspection.max_score)],
    ['Failed items', String(inspection.failed_count)],
    ['Inspectors', report.inspectors.join(', ') || 'Nobody yet'],
    ['Assigned to', inspection.assignee_name ?? 'Unassigned'],
  ];
  if (inspection.due_at) facts.push(['Due', siteTime(inspection.due_at, zone)]);
  if (inspection.started_at) facts.push(['Started', `${siteTime(inspection.started_at, zone)}${inspection.started_by_name ? ` by ${inspection.started_by_name}` : ''}`]);
  facts.push(['Location check', geofenceText(report)]);
  if (inspection.submitted_at) facts.push(['Submitted', `${siteTime(inspection.submitted_at, zone)}${inspection.submitted_by_name ? ` by ${inspection.submitted_by_name}` : ''}`]);
  if (inspection.reviewed_at) facts.push(['Reviewed', `${siteTime(inspection.reviewed_at, zone)}${inspection.reviewed_by_name ? ` by ${inspection.reviewed_by_name}` : ''}`]);
  if (inspection.review_note) facts.push(['Review note', inspection.review_note]);
  if (inspection.canceled_at) facts.push(['Canceled', siteTime(inspection.canceled_at, zone)]);
  if (inspection.external_ref) facts.push(['External reference', inspection.external_ref]);
  facts.push(['Report generated', siteTime(new Date(report.generatedAt), zone)]);
  for (const [label, value] of facts) flow.fact(label, value);

  // The site's score trend for this template, from analytics: is this inspection a blip or a slide?
  // Its month is marked only while it counts there: one sent back keeps its submitted_at but is not
  // among the month's submitted and approved inspections.
  const counted = inspection.submitted_at && COUNTED_IN_TREND.has(inspection.status);
  drawScoreTrend(flow, report.scoreTrend, site.name, template.name, counted ? report.scoreTrend.to : null);

  // Failed items and their corrective actions, first: what a reader acts on.
  const sections = template.definition.sections;
  const hidden = inspection.hidden;
  const failed = sections.flatMap((section) =>
    section.items.filter((item) => !hidden.has(item.key) && report.answers.get(item.key)?.failed).map((item) => ({ section, item }))
  );
  flow.y -= 8;
  flow.heading(`Failed items and corrective actions (${failed.length})`);
  if (failed.length === 0) flow.text('No item failed.', { color: MUTED, after: 6 });
  const allActionsListed = report.actions.length === report.actionCount;
  if (!allActionsListed) {
    flow.text(
      `This inspection has ${report.actionCount} corrective actions; the first ${report.actions.length} are listed here. ` +
        'Open the inspection in Fieldcheck to see them all.',
      { size: 9.5, color: MUTED, after: 6 },
    );
  }
  const actionsByItem = new Map<string, ReportAction[]>();
  for (const action of report.actions) {
    if (action.item_key) actionsByItem.set(action.item_key, [...(actionsByItem.get(action.item_key) ?? []), action]);
  }
  for (const { section, item } of failed) {
    const answer = report.answers.get(item.key)!;
    flow.room(48);
    flow.text(`${item.label}`, { bold: true, size: 10.5, after: 1 });
    flow.text(`${section.title} · Answer: ${answerText(item, answer.value) || '—'}`, { color: MUTED, size: 9.5, after: 1 });
    if (answer.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
    const actions = actionsByItem.get(item.key) ?? [];
    if (actions.length === 0) {
      flow.text(allActionsListed ? 'No corrective action recorded.' : 'No corrective action among those listed.', { size: 9.5, color: FAIL, indent: 12, after: 2 });
    }
    for (const action of actions) {
      flow.text(
        `• ${action.title} — ${ACTION_PRIORITY_LABELS[action.priority] ?? action.priority} priority, ${ACTION_STATUS_LABELS[action.status] ?? action.status}` +
          `, ${action.assignee_name ? `assigned to ${action.assignee_name}` : 'unassigned'}, due ${siteTime(action.due_at, zone)}` +
          (action.resolution_note ? `. Resolution: ${action.resolution_note}` : ''),
        { size: 9.5, indent: 12, after: 2 },
      );
    }
    flow.y -= 6;
  }
  const failedKeys = new Set(failed.map(({ item }) => item.key));
  const otherActions = report.actions.filter((action) => !action.item_key || !failedKeys.has(action.item_key));
  if (otherActions.length > 0) {
    flow.text('Other corrective actions of this inspection', { bold: true, size: 10.5, after: 2 });
    for (const action of otherActions) {
      flow.text(
        `• ${action.title} — ${ACTION_PRIORITY_LABELS[action.priority] ?? action.priority} priority, ${ACTION_STATUS_LABELS[action.status] ?? action.status}` +
          `, ${action.assignee_name ? `assigned to ${action.assignee_name}` : 'unassigned'}, due ${siteTime(action.due_at, zone)}`,
        { size: 9.5, indent: 12, after: 2 },
      );
    }
  }

  // Every section and item.
  const photos: Photos = { doc, caller, deferred: new Map(), budget: report.decodeBudget, probe };
  const photosByItem = new Map<string, ReportPhoto[]>();
  for (const photo of report.photos) photosByItem.set(photo.item_key, [...(photosByItem.get(photo.item_key) ?? []), photo]);
  for (const [s, section] of sections.entries()) {
    if (s === 0) flow.newPage();
    const shown = section.items.filter((item) => !hidden.has(item.key));
    const answered = shown.filter((item) => report.answers.get(item.key)?.value != null || (photosByItem.get(item.key)?.length ?? 0) > 0).length;
    flow.heading(`${section.title}`, 14);
    flow.text(
      shown.length === 0 ? 'Hidden by the template\'s rules' : `${answered} of ${shown.length} answered` + (shown.length < section.items.length ? ` (${section.items.length - shown.length} hidden by the template's rules)` : ''),
      { size: 9, color: MUTED, after: 4 },
    );
    flow.rule(6);
    for (const item of section.items) await drawItem(flow, item, report, photosByItem.get(item.key) ?? [], photos, zone);
    probe.sample('section');
  }

  // Page numbers and the time of making on every page.
  const pages = doc.getPages();
  const footer = `${organization.name} · ${inspection.title} · generated ${siteTime(new Date(report.generatedAt), zone)}`;
  for (const [i, page] of pages.entries()) {
    flow.page = page;
    const number = `Page ${i + 1} of ${pages.length}`;
    const numberWidth = flow.widthOf(number, 8, false);
    const left = flow.wrap(footer, 8, false, CONTENT_WIDTH - numberWidth - 20)[0];
    page.drawLine({ start: { x: MARGIN.left, y: 44 }, end: { x: PAGE.width - MARGIN.right, y: 44 }, thickness: 0.5, color: RULE });
    flow.line(left, MARGIN.left, 32, 8, false, MUTED);
    flow.line(number, PAGE.width - MARGIN.right - numberWidth, 32, 8, false, MUTED);
    compressPage(doc, page);
  }

  await doc.flush();
  probe.sample('laid out', true);
  return StreamingWriter.stream(doc, photos.deferred, caller, probe);
}

async function drawItem(
  flow: Flow,
  item: TemplateItem,
  report: ReportData,
  itemPhotos: ReportPhoto[],
  photos: Photos,
  zone: string,
) {
  const answer = report.answers.get(item.key);
  const value = answer?.value ?? null;
  const hasValue = value !== null && value !== undefined;
  flow.room(40);
  if (report.inspection.hidden.has(item.key)) {
    // Not asked: the rules hid it. An answer given before it was hidden is kept, and shown as not counted.
    flow.text(item.label, { bold: true, size: 10.5, color: MUTED, width: CONTENT_WIDTH - 50, after: 1 });
    flow.text('Hidden by the template\'s rules: not asked, not counted.', { size: 9.5, color: MUTED });
    if (hasValue) flow.text(`Kept answer, not counted: ${answerText(item, value)}`, { size: 9.5, color: MUTED });
    flow.y -= 4;
    flow.rule(8);
    return;
  }
  itemMark(flow, answer?.failed ?? null, hasValue);
  flow.text(item.label + (item.required ? ' *' : ''), { bold: true, size: 10.5, width: CONTENT_WIDTH - 50, after: 1 });
  if (item.kind === 'photo') {
    flow.text(itemPhotos.length === 0 ? 'No photo' : `${itemPhotos.length} ${itemPhotos.length === 1 ? 'photo' : 'photos'}`, {
      size: 10,
      color: itemPhotos.length ? INK : MUTED,
    });
  } else if (item.kind === 'signature') {
    flow.text(hasValue ? answerText(item, value) : 'Not signed', { size: 10, color: hasValue ? INK : MUTED });
  } else {
    flow.text(hasValue ? answerText(item, value) : 'Not answered', { size: 10, color: hasValue ? (answer?.failed ? FAIL : INK) : MUTED });
  }
  if (answer?.note) flow.text(`Note: ${answer.note}`, { size: 9.5, after: 1 });
  if (answer && (hasValue || answer.note)) {
    flow.text(`${answer.answered_by_name ? `${answer.answered_by_name}, ` : ''}${siteTime(answer.answered_at, zone)}`, { size: 8.5, color: MUTED });
  }

  const signature = item.kind === 'signature' && hasValue ? report.signatureImages.get(item.key) : undefined;
  if (signature && 'omitted' in signature) flow.text(signature.omitted, { size: 9, color: MUTED });
  if (signature && 'dataUrl' in signature) {
    try {
      const png = await embedDecodedPng(flow.doc, signature.dataUrl, flow.probe);
      flow.probe.sample('signature embedded', true);
      flow.room(90);
      placeImage(flow, png.ref, MARGIN.left, flow.y - 4, png.width, png.height, 220, 80);
      flow.page.drawRectangle({ x: MARGIN.left, y: flow.y - 84, width: 220, height: 80, borderColor: RULE, borderWidth: 0.8 });
      flow.y -= 90;
    } catch {
      flow.text('The signature image could not be decoded.', { size: 9, color: FAIL });
    }
  }

  for (let i = 0; i < itemPhotos.length; i += 2) {
    flow.room(PHOTO_BOX.height + 26);
    const top = flow.y - 4;
    for (const [column, photo] of itemPhotos.slice(i, i + 2).entries()) {
      const x = MARGIN.left + column * (PHOTO_BOX.width + 12);
      const slot = await preparePhoto(photos, photo);
      flow.probe.sample('photo');
      if ('ref' in slot) placeImage(flow, slot.ref, x, top, slot.width, slot.height, PHOTO_BOX.width, PHOTO_BOX.height);
      else placeholder(flow, x, top, slot.reason);
      const caption = `Photo ${i + column + 1}${photo.uploaded_by_name ? ` by ${photo.uploaded_by_name}` : ''}, ${siteTime(photo.created_at, zone)}`;
      flow.line(flow.wrap(caption, 7.5, false, PHOTO_BOX.width)[0], x, top - PHOTO_BOX.height - 11, 7.5, false, MUTED);
    }
    flow.y = top - PHOTO_BOX.height - 20;
  }
  flow.y -= 4;
  flow.rule(8);
}


/** "Nov 2026": a month of the trend (its periods start on the 1st). */
function monthName(periodStart: string): string {
  return new Date(`${periodStart}T00:00:00Z`).toLocaleDateString('en-GB', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * The trend as a small table of bars: a row per month, its average score drawn to scale (0–100 %)
 * and written, with how many inspections it averages; the month of this inspection's submission
 * marked. Months without a scored inspection say so rather than draw nothing.
 */
function drawScoreTrend(flow: Flow, trend: ReportScoreTrend, siteName: string, templateName: string, submittedDay: string | null) {
  const ROW = 14;
  const LABEL = 70;
  const BAR = 200;
  flow.y -= 8;
  flow.room(40 + ROW * trend.periods.length);
  flow.heading('Score trend at this site', 12);
  flow.text(
    `Average score of submitted and approved inspections of ${templateName} at ${siteName}, by month of submission on the site's calendar, ` +
      `${monthName(trend.periods[0]?.period_start ?? trend.from)} to ${monthName(trend.periods.at(-1)?.period_start ?? trend.to)}.`,
    { size: 9, color: MUTED, after: 4 },
  );
  const ownMonth = submittedDay ? `${submittedDay.slice(0, 7)}-01` : null;
  for (const period of trend.periods) {
    const own = period.period_start === ownMonth;
    const baseline = flow.y - 10;
    flow.line(monthName(period.period_start), MARGIN.left, baseline, 9, own, own ? INK : MUTED);
    flow.page.drawRectangle({ x: MARGIN.left + LABEL, y: baseline - 1, width: BAR, height: 9, color: RULE });
    if (period.average_score !== null) {
      flow.page.drawRectangle({ x: MARGIN.left + LABEL, y: baseline - 1, width: (BAR * Math.min(100, Math.max(0, period.average_score))) / 100, height: 9, color: own ? INK : PASS });
    }
    const words = period.inspections === 0
      ? 'no inspection'
      : `${period.average_score === null ? 'not scored' : `${Math.round(period.average_score * 10) / 10}%`} · ${period.inspections} ${period.inspections === 1 ? 'inspection' : 'inspections'}` +
        (own ? ' (this inspection\'s month)' : '');
    flow.line(words, MARGIN.left + LABEL + BAR + 8, baseline, 9, own, own ? INK : MUTED);
    flow.y -= ROW;
  }
}

// --- Times and numbers -------------------------------------------------------------------------

/** The statuses the score trend counts (the analytics rollups': submitted and approved). */
const COUNTED_IN_TREND: ReadonlySet<string> = new Set(['submitted', 'approved']);

const formats = new Map<string, Intl.DateTimeFormat>();

/** "26 Nov 2026, 09:05 GMT-8 (America/Los_Angeles)": the clock on site, with its zone. */
export function siteTime(at: Date | null, zone: string): string {
  if (!at) return '';
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'shortOffset',
    });
    formats.set(zone, format);
  }
  return `${format.format(at)} (${zone})`;
}


function scoreText(score: number, max: number): string {
  if (max <= 0) return 'Not scored';
  return `${Math.round((score / max) * 1000) / 10}% (${score} of ${max})`;
}

function geofenceText(report: ReportData): string {
  const { inspection, site } = report;
  if (!inspection.started_at) return 'Not started';
  if (inspection.start_distance_m === null) return 'Started without a location';
  const where = `Started ${Math.round(inspection.start_distance_m)} m from the site` +
    (inspection.start_accuracy_m !== null ? ` (accuracy ${Math.round(inspection.start_accuracy_m)} m)` : '');
  return inspection.start_outside_geofence
    ? `${where}: OUTSIDE its ${site.geofence_m} m geofence`
    : `${where}: inside its ${site.geofence_m} m geofence`;
}
