import { Link } from 'react-router-dom';
import { useOnTime } from '../api/get-on-time';
import { apiQuery, inspectionsHref, periodDays, periodLabel } from '../utils/filters';
import { countText, rateText } from '../utils/format';
import { Chart } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

const OUTCOMES = [
  { key: 'on_time', name: 'On time', tone: 'pass' },
  { key: 'late', name: 'Late', tone: 'warn' },
  { key: 'missed', name: 'Missed', tone: 'fail' },
] as const;

/** Schedules' occurrences due per period: on time, late and missed (each a link to them), and the on-time rate. */
export function OnTimeRate({ orgId, orgSlug, filters }: MeasureProps) {
  const query = apiQuery(filters);
  const onTime = useOnTime(orgId, query);
  return (
    <MeasurePanel
      measure="on-time"
      heading="On-time rate"
      description="Occurrences of schedules by the day they were due at their site: done by the due time, after it, or never."
      orgId={orgId}
      query={query}
      result={onTime}
      isEmpty={(data) => data.data.every((row) => row.due === 0)}
      emptyText="No occurrence of a schedule was due in this range."
    >
      {(data) => {
        const rows = data.data.map((row) => {
          const due = periodDays(row.period_start, data.interval, data);
          const hrefs = OUTCOMES.map((outcome) => inspectionsHref(orgSlug, filters, { due, outcome: outcome.key }));
          return { ...row, hrefs, label: periodLabel(row.period_start, data.interval) };
        });
        return {
          chart: (
            <Chart
              kind="stacked"
              series={OUTCOMES.map(({ name, tone }) => ({ name, tone }))}
              format={countText}
              points={rows.map((row) => ({
                key: row.period_start,
                label: periodLabel(row.period_start, data.interval, 'short'),
                values: OUTCOMES.map((outcome) => row[outcome.key]),
                hrefs: row.hrefs,
                title: `${row.label}: ${rateText(row.on_time_rate)} on time of ${row.due} due`,
              }))}
            />
          ),
          table: (
            <table className="table">
              <caption className="visually-hidden">Occurrences due by period</caption>
              <thead>
                <tr>
                  <th scope="col">Period</th>
                  <th scope="col">On-time rate</th>
                  <th scope="col">Due</th>
                  {OUTCOMES.map((outcome) => (
                    <th scope="col" key={outcome.key}>
                      {outcome.name}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.period_start}>
                    <th scope="row">{row.label}</th>
                    <td data-label="On-time rate">{rateText(row.on_time_rate)}</td>
                    <td data-label="Due">{countText(row.due)}</td>
                    {OUTCOMES.map((outcome, index) => (
                      <td data-label={outcome.name} key={outcome.key}>
                        <Link to={row.hrefs[index]} aria-label={`${countText(row[outcome.key])} ${outcome.name.toLowerCase()}, ${row.label}`}>
                          {countText(row[outcome.key])}
                        </Link>
                      </td>
                    ))}
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
