import { FAILED_ITEM_GROUPS, type FailedItemGroupBy } from '@schemas/analytics';
import { Link } from 'react-router-dom';
import { SelectField } from '@/components/ui/select-field';
import { useFailedItems } from '../api/get-failed-items';
import { apiQuery, inspectionsHref } from '../utils/filters';
import { countText, rateText } from '../utils/format';
import { useViewParam } from '../utils/view-param';
import { Chart } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

const GROUP_OPTIONS = [
  { value: 'template', label: 'Per template' },
  { value: 'site', label: 'Per site and template' },
];

/** The items that failed most over the range, per template or per site; each a link to the inspections where it failed. */
export function FailedItems({ orgId, orgSlug, filters }: MeasureProps) {
  const [groupBy, setGroupBy] = useViewParam<FailedItemGroupBy>('failed_by', FAILED_ITEM_GROUPS, 'template');
  const query = { ...apiQuery(filters), group_by: groupBy };
  const failed = useFailedItems(orgId, query);
  const bySite = groupBy === 'site';
  return (
    <MeasurePanel
      measure="failed-items"
      heading="Most failed items"
      description="Failed answers among the answers that passed or failed, in submitted and approved inspections; items hidden by a template's rules never count."
      controls={<SelectField label="Items" name="failed_by" options={GROUP_OPTIONS} value={groupBy} onChange={(event) => setGroupBy(event.target.value as FailedItemGroupBy)} />}
      layout="below"
      orgId={orgId}
      query={query}
      result={failed}
      isEmpty={(data) => data.data.length === 0}
      emptyText="No item failed in this range."
    >
      {(data) => {
        const rows = data.data.map((row) => ({
          ...row,
          key: `${row.template_id}/${row.item_key}/${row.site_id ?? ''}`,
          href: inspectionsHref(orgSlug, filters, {
            submitted: data,
            template: row.template_id,
            failedItem: row.item_key,
            ...(row.site_id ? { site: row.site_id } : {}),
          }),
          where: bySite ? `${row.template_name} at ${row.site_name ?? 'a site'}` : row.template_name,
        }));
        return {
          chart: (
            <Chart
              kind="rows"
              series={[{ name: 'Failed', tone: 'fail' }]}
              format={countText}
              points={rows.map((row) => ({
                key: row.key,
                label: `${row.item_label} · ${row.where}`,
                values: [row.failed],
                hrefs: [row.href],
                title: `${row.item_label} (${row.where}): failed ${row.failed} of ${row.answered}, ${rateText(row.failure_rate)}`,
              }))}
            />
          ),
          table: (
            <table className="table">
              <caption className="visually-hidden">Most failed items {bySite ? 'per site and template' : 'per template'}</caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">{bySite ? 'Template and site' : 'Template'}</th>
                  <th scope="col">Failed</th>
                  <th scope="col">Answered</th>
                  <th scope="col">Failure rate</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.key}>
                    <th scope="row">{row.item_label}</th>
                    <td data-label={bySite ? 'Template and site' : 'Template'}>{row.where}</td>
                    <td data-label="Failed">
                      <Link to={row.href} aria-label={`${countText(row.failed)} failed: ${row.item_label}, ${row.where}`}>
                        {countText(row.failed)}
                      </Link>
                    </td>
                    <td data-label="Answered">{countText(row.answered)}</td>
                    <td data-label="Failure rate">{rateText(row.failure_rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ),
        };
      }}
    </MeasurePanel>
  );
}
