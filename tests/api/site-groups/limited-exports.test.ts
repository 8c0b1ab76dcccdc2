// The CSV exports and the inspection PDF of a member or key limited to site groups (issue 27 part
// 5): the files hold nothing of a site outside their groups — the CSVs are parsed (csv-parse) and
// every record checked, the PDF's text read with pdf.js — while the same files of an org-wide
// member hold both; `site_group_id` narrows the exports to a subtree; a PDF of an inspection
// outside is refused exactly as another organization's.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, expectStatus, post } from '../../support/api.ts';
import { answerItems, inProgressInspection, inspectionPath, tag } from '../../support/fixtures.ts';
import { createKey, type Key } from '../keys/support.ts';
import { accessTokenOf, csvReport, rawReport } from '../reports/support.ts';
import { at, expectSameRefusal, regionWorldAndOtherOrg } from './support.ts';

const { world, other } = regionWorldAndOtherOrg('exports');
const org = () => world.org.id;

/** Words only the south inspection holds, in its title and an answer: they must never reach a limited file. */
const southWords = `Southern secret ${tag()}`;
const harborWords = `Harbor remark ${tag()}`;
let harbor: string;
let south: string;
let otherOrgs: string;
let key: Key;

/** Every page's text of a PDF, as pdf.js reads it. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const document = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const content = await (await document.getPage(n)).getTextContent();
    pages.push(content.items.map((item: any) => item.str).join(' '));
  }
  await document.destroy();
  return pages.join('\n');
}

beforeAll(async () => {
  const answered = async (site: any, title: string, remark: string) => {
    const w = at(world, site);
    const id = await inProgressInspection(w, world.manager, { title });
    await answerItems(w, id, world.manager, { remarks: remark, floor_clean: 'fail' });
    return id;
  };
  harbor = await answered(world.sites.harbor, `Harbor audit ${tag()}`, harborWords);
  south = await answered(world.sites.south, southWords, southWords);
  otherOrgs = expectStatus(await post(other.owner.client, `orgs/${other.org.id}/inspections`, { site_id: other.site.id, template_id: other.template.id }), 201).id;
  key = await createKey(world.owner, org(), 'viewer', { site_group_ids: [world.groups.north.id] });
});

/** Every cell of every record, to look for words that must not be there. */
const allText = (records: Record<string, string>[]) => records.map((record) => Object.values(record).join('\u0001')).join('\n');

describe('inspections.csv and answers.csv', () => {
  it('an org-wide member gets both regions', async () => {
    const { records } = await csvReport(world.viewer.client, org(), 'inspections');
    expect(records.map((r) => r.inspection_id)).toEqual(expect.arrayContaining([harbor, south]));
    expect(allText((await csvReport(world.viewer.client, org(), 'answers')).records)).toContain(southWords);
  });

  for (const who of ['the limited viewer', 'the limited inspector', 'a limited key'] as const) {
    it(`${who} gets only its groups' sites: every record parsed, nothing of the south`, async () => {
      const client = who === 'a limited key' ? key.client : who === 'the limited viewer' ? world.limited.viewer.client : world.limited.inspector.client;
      const inspections = (await csvReport(client, org(), 'inspections')).records;
      expect(inspections.map((r) => r.inspection_id)).toContain(harbor);
      // Harbor's site is the only one in North and below in this world.
      expect(new Set(inspections.map((r) => r.site_id))).toEqual(new Set([world.sites.harbor.id]));
      expect(allText(inspections)).not.toContain(southWords);
      expect(allText(inspections)).not.toContain(world.sites.south.name);

      const answers = (await csvReport(client, org(), 'answers')).records;
      expect(answers.length).toBeGreaterThan(0);
      expect(new Set(answers.map((r) => r.site_id))).toEqual(new Set([world.sites.harbor.id]));
      expect(answers.map((r) => r.inspection_id)).toContain(harbor);
      expect(allText(answers)).toContain(harborWords);
      expect(allText(answers)).not.toContain(southWords);
      expect(allText(answers)).not.toContain(world.sites.south.name);

      // Asking for the south, by site or by group, gives an empty file, as another organization's site would.
      expect((await csvReport(client, org(), 'inspections', { site_id: world.sites.south.id })).records).toEqual([]);
      expect((await csvReport(client, org(), 'answers', { site_group_id: world.groups.south.id })).records).toEqual([]);
    });
  }

  it('site_group_id narrows an org-wide export to a group and its subgroups', async () => {
    const north = (await csvReport(world.owner.client, org(), 'inspections', { site_group_id: world.groups.north.id })).records;
    expect(north.map((r) => r.inspection_id)).toContain(harbor);
    expect(north.map((r) => r.inspection_id)).not.toContain(south);
    const southOnly = (await csvReport(world.owner.client, org(), 'answers', { site_group_id: world.groups.south.id })).records;
    expect(new Set(southOnly.map((r) => r.inspection_id))).toEqual(new Set([south]));
  });
});

describe('the inspection PDF', () => {
  it('a limited member gets the PDF of an inspection inside its groups, with nothing of the south in it', async () => {
    for (const token of [await accessTokenOf(world.limited.viewer), key.secret]) {
      const response = await rawReport(token, `${inspectionPath(org(), harbor)}/report.pdf`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      const text = await pdfText(new Uint8Array(await response.arrayBuffer()));
      expect(text).toContain(harborWords);
      expect(text).not.toContain(southWords);
      expect(text).not.toContain(world.sites.south.name);
    }
  });

  it("the PDF of an inspection outside its groups is refused exactly as another organization's", async () => {
    for (const client of [world.limited.viewer.client, key.client]) {
      const outside = await call(client, `${inspectionPath(org(), south)}/report.pdf`);
      const elsewhere = await call(client, `${inspectionPath(org(), otherOrgs)}/report.pdf`);
      expect(outside.status).toBe(404);
      expectSameRefusal(outside, elsewhere, 'report.pdf');
      expect(JSON.stringify(outside.body)).not.toContain(southWords);
    }
  });
});
