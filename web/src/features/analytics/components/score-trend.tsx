import { Link } from 'react-router-dom';
import { useScores } from '../api/get-scores';
import { apiQuery, inspectionsHref, periodDays, periodLabel } from '../utils/filters';
import { countText, percentText } from '../utils/format';
import { Chart } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

/** The average score per period, with how many inspections it averages; each a link to them. */
export function ScoreTrend({ orgId, orgSlug, filters }: MeasureProps) {
  const query = apiQuery(filters);
  const scores = useScores(orgId, query);
  return (
    <MeasurePanel
      measure="scores"
      heading="Average score"
      description="Submitted and approved inspections, by the day they were submitted at their site."
      orgId={orgId}
      query={query}
      result={scores}
      isEmpty={(data) => data.data.every((row) => row.inspections === 0)}
      emptyText="No inspection was submitted in this range."
    >
      {(data) => {
        const rows = data.data.map((row) => {
          const days = periodDays(row.period_start, data.interval, data);
          return { ...row, href: inspectionsHref(orgSlug, filters, { submitted: days }), label: periodLabel(row.period_start, data.interval) };
        });
        return {
          chart: (
            <Chart
              kind="line"
              series={[{ name: 'Average score', tone: 'accent' }]}
              max={100}
              format={percentText}
              points={rows.map((row) => ({
                key: row.period_start,
                label: periodLabel(row.period_start, data.interval, 'short'),
                values: [row.average_score],
                hrefs: [row.href],
                title: `${row.label}: ${percentText(row.average_score)} over ${row.scored} scored of ${row.inspections} inspections`,
              }))}
            />
          ),
          table: (
            <table className="table">
              <caption className="visually-hidden">Average score by period</caption>
              <thead>
                <tr>
                  <th scope="col">Period</th>
                  <th scope="col">Average score</th>
                  <th scope="col">Inspections</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.period_start}>
                    <th scope="row">{row.label}</th>
                    <td data-label="Average score">{percentText(row.average_score)}</td>
                    <td data-label="Inspections">
                      <Link to={row.href} aria-label={`${countText(row.inspections)} inspections, ${row.label}`}>
                        {countText(row.inspections)}
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
