import { SITE_ORDERS, type SiteOrder } from '@schemas/analytics';
import { Link } from 'react-router-dom';
import { SelectField } from '@/components/ui/select-field';
import { useSiteRanking } from '../api/get-site-ranking';
import { apiQuery, inspectionsHref } from '../utils/filters';
import { changeText, countText, percentText, rateText } from '../utils/format';
import { useViewParam } from '../utils/view-param';
import { Chart } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

const ORDER_OPTIONS: Array<{ value: SiteOrder; label: string }> = [
  { value: 'score', label: 'Highest average score' },
  { value: 'on_time', label: 'Highest on-time rate' },
  { value: 'score_change', label: 'Score slipping most' },
  { value: 'on_time_change', label: 'On-time rate slipping most' },
];

/** "Pike Place Bistro (−2.5 pts)"; the name alone when there is nothing before to compare with. */
const changeLabel = (name: string, change: string) => (change === '–' ? name : `${name} (${change})`);

/** Sites ranked over the range by score or on-time rate, with the change from the range as long before it. */
export function SiteRanking({ orgId, orgSlug, filters }: MeasureProps) {
  const [sort, setSort] = useViewParam<SiteOrder>('rank', SITE_ORDERS, 'score');
  const query = { ...apiQuery(filters), sort };
  const ranking = useSiteRanking(orgId, query);
  const byRate = sort === 'on_time' || sort === 'on_time_change';
  return (
    <MeasurePanel
      measure="sites"
      heading="Sites"
      description="Each site's average score and on-time rate over the range, and the change from the same length of time before it."
      controls={<SelectField label="Order" name="rank" options={ORDER_OPTIONS} value={sort} onChange={(event) => setSort(event.target.value as SiteOrder)} />}
      layout="below"
      orgId={orgId}
      query={query}
      result={ranking}
      isEmpty={(data) => data.data.length === 0}
      emptyText="No site had an inspection submitted or an occurrence due in this range."
    >
      {(data) => {
        const rows = data.data.map((row) => ({
          ...row,
          inspectionsHref: inspectionsHref(orgSlug, filters, { submitted: data, site: row.site_id }),
          onTimeHref: inspectionsHref(orgSlug, filters, { due: data, site: row.site_id, outcome: 'on_time' }),
        }));
        return {
          chart: (
            <Chart
              kind="rows"
              series={[{ name: byRate ? 'On-time rate' : 'Average score', tone: 'accent' }]}
              max={100}
              format={percentText}
              points={rows.map((row) => ({
                key: row.site_id,
                label: changeLabel(row.site_name, byRate ? changeText(row.on_time_change, 'rate') : changeText(row.score_change, 'score')),
                values: [byRate ? (row.on_time_rate === null ? null : row.on_time_rate * 100) : row.average_score],
                hrefs: [byRate ? row.onTimeHref : row.inspectionsHref],
                title: byRate
                  ? `${row.site_name}: ${rateText(row.on_time_rate)} on time of ${row.due} due, ${changeText(row.on_time_change, 'rate')}`
                  : `${row.site_name}: ${percentText(row.average_score)} over ${row.inspections} inspections, ${changeText(row.score_change, 'score')}`,
              }))}
            />
          ),
          table: (
            <table className="table">
              <caption className="visually-hidden">Sites ranked, with the change from the range before</caption>
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col">Average score</th>
                  <th scope="col">Score change</th>
                  <th scope="col">Inspections</th>
                  <th scope="col">On-time rate</th>
                  <th scope="col">On-time change</th>
                  <th scope="col">On time</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.site_id}>
                    <th scope="row">
                      <Link to={`/o/${orgSlug}/sites/${row.site_id}`}>{row.site_name}</Link>
                    </th>
                    <td data-label="Average score">
                      {percentText(row.average_score)}
                      {row.score_rank ? <span className="muted"> (#{row.score_rank})</span> : null}
                    </td>
                    <td data-label="Score change">{changeText(row.score_change, 'score')}</td>
                    <td data-label="Inspections">
                      <Link to={row.inspectionsHref} aria-label={`${countText(row.inspections)} inspections at ${row.site_name}`}>
                        {countText(row.inspections)}
                      </Link>
                    </td>
                    <td data-label="On-time rate">
                      {rateText(row.on_time_rate)}
                      {row.on_time_rank ? <span className="muted"> (#{row.on_time_rank})</span> : null}
                    </td>
                    <td data-label="On-time change">{changeText(row.on_time_change, 'rate')}</td>
                    <td data-label="On time">
                      <Link to={row.onTimeHref} aria-label={`${countText(row.on_time)} of ${countText(row.due)} on time at ${row.site_name}`}>
                        {`${countText(row.on_time)} of ${countText(row.due)}`}
                      </Link>
                    </td>
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
