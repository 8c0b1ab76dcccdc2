// Helpers for the template API tests: a definition with every item kind and its settings in use,
// and a snapshot of an organization's templates and versions to prove a refused request wrote
// nothing. Creating and publishing a template is a fixture (tests/support/fixtures.ts).
import { db } from '../../support/database.ts';

/** One section per use: every kind once, with its settings in use (as the API returns them). */
export const EVERY_KIND_DEFINITION = {
  sections: [
    {
      key: 'kitchen',
      title: 'Kitchen',
      items: [
        { key: 'clean', kind: 'pass_fail', label: 'Counters clean', help: 'Look under them too.', required: true, weight: 2 },
        { key: 'soap', kind: 'yes_no', label: 'Soap at every sink', help: null, required: false, weight: 1, fail_on: 'no' },
        { key: 'fridge', kind: 'number', label: 'Fridge temperature', help: null, required: true, weight: 3, min: 0, max: 5, unit: '°C' },
        { key: 'remarks', kind: 'text', label: 'Remarks', help: null, required: false, weight: 1 },
      ],
    },
    {
      key: 'records',
      title: 'Records',
      items: [
        { key: 'state', kind: 'single_choice', label: 'Overall state', help: null, required: false, weight: 1, options: ['Good', 'Fair', 'Poor'], failing_options: ['Poor'] },
        { key: 'seen', kind: 'multi_choice', label: 'Records seen', help: null, required: false, weight: 1, options: ['Logs', 'Labels'], failing_options: [] },
        { key: 'checked_on', kind: 'date', label: 'Last pest check', help: null, required: false, weight: 1 },
        { key: 'photos', kind: 'photo', label: 'Storeroom', help: null, required: false, weight: 0, max_photos: 3 },
        { key: 'sign', kind: 'signature', label: 'Manager on duty', help: null, required: true, weight: 0 },
      ],
    },
  ],
};

/** Every template and version row of an organization, and its audit entries about them. */
export async function templateSnapshot(orgId: string) {
  const sql = db();
  const [templates, versions, audit] = await Promise.all([
    sql`select * from public.templates where org_id = ${orgId} order by id`,
    sql`select * from public.template_versions where org_id = ${orgId} order by id`,
    sql`select count(*)::int as n from public.audit_log where org_id = ${orgId} and entity in ('templates', 'template_versions')`,
  ]);
  return { templates: [...templates], versions: [...versions], auditEntries: audit[0].n };
}
