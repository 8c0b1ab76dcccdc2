import { Link } from 'react-router-dom';
import { useOnTime } from '../api/get-on-time';
import { apiQuery, inspectionsHref, periodDays, periodLabel } from '../utils/filters';
import { countText, rateText } from '../utils/format';
import { Chart } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

/** A percentage (0–100) as the rate is written: "92%". */
const wholePercentText = (value: number) => rateText(value / 100);

const OUTCOMES = [
  { key: 'on_time', name: 'On time', tone: 'pass' },
  { key: 'late', name: 'Late', tone: 'warn' },
  { key: 'missed', name: 'Missed', tone: 'fail' },
] as const;

/** Schedules' occurrences due per period: the on-time rate's line, and on time, late and missed (each a link to them). */
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
            // The rate's trend; a point opens the occurrences done on time (the rate's numerator,
            // as a site's rate links); the late and missed are the table's.
            <Chart
              kind="line"
              series={[{ name: 'On-time rate', tone: 'pass' }]}
              max={100}
              format={wholePercentText}
              points={rows.map((row) => ({
                key: row.period_start,
                label: periodLabel(row.period_start, data.interval, 'short'),
                values: [row.on_time_rate === null ? null : row.on_time_rate * 100],
                hrefs: [row.hrefs[0]], // OUTCOMES[0]: on time
                title: `${row.label}: ${rateText(row.on_time_rate)} on time (${countText(row.on_time)} of ${countText(row.due)} due), ${countText(row.late)} late, ${countText(row.missed)} missed`,
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
