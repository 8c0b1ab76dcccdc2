import { ACTION_PRIORITIES, ACTION_PRIORITY_LABELS, type ActionPriority } from '@schemas/action-states';
import { Link } from 'react-router-dom';
import { SelectField } from '@/components/ui/select-field';
import { useActionTimes } from '../api/get-action-times';
import { type ActionFigure, actionsHref, apiQuery, periodDays, periodLabel } from '../utils/filters';
import { countText, hoursText } from '../utils/format';
import { useViewParam } from '../utils/view-param';
import { Chart, type ChartTone } from './chart';
import { MeasurePanel, type MeasureProps } from './measure-panel';

const FIGURES: Array<{ key: ActionFigure; name: string; tone: ChartTone }> = [
  { key: 'opened', name: 'Opened', tone: 'info' },
  { key: 'resolved', name: 'Resolved', tone: 'accent' },
  { key: 'verified', name: 'Verified', tone: 'pass' },
  { key: 'overdue', name: 'Overdue', tone: 'fail' },
];

const PRIORITY_CHOICES = ['all', ...ACTION_PRIORITIES] as const;
type PriorityChoice = (typeof PRIORITY_CHOICES)[number];
const PRIORITY_OPTIONS = PRIORITY_CHOICES.map((value) => ({ value, label: value === 'all' ? 'Every priority' : ACTION_PRIORITY_LABELS[value] }));

/** Corrective actions per period for one priority or all: opened, resolved, verified, overdue (each a link), and the median times. */
export function ActionTimes({ orgId, orgSlug, filters }: MeasureProps) {
  const [choice, setChoice] = useViewParam<PriorityChoice>('priority', PRIORITY_CHOICES, 'all');
  const priority: ActionPriority | null = choice === 'all' ? null : choice;
  const query = apiQuery(filters);
  const actions = useActionTimes(orgId, query);
  return (
    <MeasurePanel
      measure="actions"
      heading="Corrective actions"
      description="Opened, resolved and verified by the day it happened at their site; overdue by the day they were due, when not resolved by then. Canceled actions never count."
      controls={<SelectField label="Priority" name="priority" options={PRIORITY_OPTIONS} value={choice} onChange={(event) => setChoice(event.target.value as PriorityChoice)} />}
      layout="below"
      orgId={orgId}
      query={query}
      result={actions}
      isEmpty={(data) => data.data.every((row) => row.priority !== null || (row.opened === 0 && row.resolved === 0 && row.verified === 0 && row.overdue === 0))}
      emptyText="No corrective action was opened, resolved, verified or due in this range."
    >
      {(data) => {
        const rows = data.data
          .filter((row) => row.priority === priority)
          .map((row) => {
            const days = periodDays(row.period_start, data.interval, data);
            return {
              ...row,
              label: periodLabel(row.period_start, data.interval),
              hrefs: FIGURES.map((figure) => actionsHref(orgSlug, filters, figure.key, days, priority)),
            };
          });
        const which = priority ? `${ACTION_PRIORITY_LABELS[priority].toLowerCase()} priority` : 'every priority';
        return {
          chart: (
            <Chart
              kind="bars"
              series={FIGURES.map(({ name, tone }) => ({ name, tone }))}
              format={countText}
              points={rows.map((row) => ({
                key: row.period_start,
                label: periodLabel(row.period_start, data.interval, 'short'),
                values: FIGURES.map((figure) => row[figure.key]),
                hrefs: row.hrefs,
                title: `${row.label}, ${which}: median ${hoursText(row.median_hours_to_resolve)} to resolve, ${hoursText(row.median_hours_to_verify)} to verify`,
              }))}
            />
          ),
          table: (
            <table className="table">
              <caption className="visually-hidden">Corrective actions by period, {which}</caption>
              <thead>
                <tr>
                  <th scope="col">Period</th>
                  {FIGURES.map((figure) => (
                    <th scope="col" key={figure.key}>
                      {figure.name}
                    </th>
                  ))}
                  <th scope="col">Median time to resolve</th>
                  <th scope="col">Median time to verify</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row) => (
                  <tr key={row.period_start}>
                    <th scope="row">{row.label}</th>
                    {FIGURES.map((figure, index) => (
                      <td data-label={figure.name} key={figure.key}>
                        <Link to={row.hrefs[index]} aria-label={`${countText(row[figure.key])} ${figure.name.toLowerCase()}, ${row.label}`}>
                          {countText(row[figure.key])}
                        </Link>
                      </td>
                    ))}
                    <td data-label="Median time to resolve">{hoursText(row.median_hours_to_resolve)}</td>
                    <td data-label="Median time to verify">{hoursText(row.median_hours_to_verify)}</td>
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
