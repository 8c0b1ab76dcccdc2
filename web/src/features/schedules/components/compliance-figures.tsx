import type { ComplianceFigures, ComplianceGroupBy } from '@schemas/schedules';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { CountTile } from '@/components/ui/count-tile';
import { GroupFilterField, GroupFilterNotFound, type GroupFilterChoice } from '@/components/ui/group-filter-field';
import { QueryError } from '@/components/ui/query-error';
import { SelectField } from '@/components/ui/select-field';
import { formatDateTime } from '@/lib/format';
import { useCompliance } from '../api/get-compliance';
import { OCCURRENCE_STATE_LOOK } from './occurrence-state';
import './schedules.css';

const DAY = 86_400_000;

/** The last `days` days up to this minute: the same instants for the figures and the lists they link to. */
function useWindow(days: number): { from: string; to: string } {
  const [to] = useState(() => Math.floor(Date.now() / 60_000) * 60_000);
  return { from: new Date(to - days * DAY).toISOString(), to: new Date(to).toISOString() };
}

export interface OutcomeLink {
  site?: string;
  /** A site group (`?group=` of the list). */
  group?: string;
  scheduleId?: string;
  from: string;
  to: string;
}

/**
 * The inspections list filtered as a compliance figure counts (docs/schedules.md, "Compliance"):
 * due in the span, by outcome — each figure is the length of the list it links to.
 */
export function outcomeListPath(orgSlug: string, link: OutcomeLink, outcome: 'on_time' | 'late' | 'missed' | null): string {
  const params = new URLSearchParams();
  if (link.site) params.set('site', link.site);
  if (link.group) params.set('group', link.group);
  if (link.scheduleId) params.set('schedule_id', link.scheduleId);
  params.set('due_from', link.from);
  params.set('due_to', link.to);
  if (outcome === 'missed') params.set('missed', 'true');
  else if (outcome) params.set('outcome', outcome);
  return `/o/${orgSlug}/inspections?${params}`;
}

export function rateText(figures: ComplianceFigures): string {
  return figures.on_time_rate === null ? '–' : `${Math.round(figures.on_time_rate * 100)}%`;
}

/**
 * The dashboard's: this week's on-time rate, late and missed (the last seven days), each a link to
 * the inspections it counts; of one site group and its subgroups when `groupId` is given.
 */
export function ComplianceTiles({ orgId, orgSlug, groupId = '' }: { orgId: string; orgSlug: string; groupId?: string }) {
  const week = useWindow(7);
  const span = groupId ? { ...week, group: groupId } : week;
  const compliance = useCompliance(orgId, { ...week, groupBy: 'schedule', groupId: groupId || undefined });
  if (compliance.isPending) return <p className="muted">Loading this week's figures…</p>;
  if (compliance.isError && !compliance.data) return <QueryError error={compliance.error} onRetry={() => compliance.refetch()} />;
  const total = compliance.data.total;
  // The icons of the states they count, as the calendar shows them.
  const OnTime = OCCURRENCE_STATE_LOOK.done_on_time.icon;
  const Missed = OCCURRENCE_STATE_LOOK.missed.icon;
  const Late = OCCURRENCE_STATE_LOOK.done_late.icon;
  return (
    <div className="stack">
      <ul className="count-tiles" aria-label="Schedules this week">
        <CountTile to={outcomeListPath(orgSlug, span, 'on_time')} count={rateText(total)}>
          <OnTime aria-hidden="true" size={16} />
          On time this week {total.due === 0 ? '(none was due)' : `(${total.on_time} of ${total.due})`}
        </CountTile>
        <CountTile to={outcomeListPath(orgSlug, span, 'missed')} count={total.missed} alert={total.missed > 0}>
          <Missed aria-hidden="true" size={16} />
          Missed this week
        </CountTile>
        <CountTile to={outcomeListPath(orgSlug, span, 'late')} count={total.late}>
          <Late aria-hidden="true" size={16} />
          Done late this week
        </CountTile>
      </ul>
      <p className="muted">
        Occurrences of schedules due in the last seven days, since {formatDateTime(span.from)}. <Link to={`/o/${orgSlug}/calendar`}>Open the calendar</Link>
      </p>
    </div>
  );
}

const PERIODS = [
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

interface ComplianceTableProps {
  orgId: string;
  orgSlug: string;
  /** A site's page: its figures by schedule. A schedule's page: its figures by site. */
  groupBy: Extract<ComplianceGroupBy, 'site' | 'schedule'>;
  siteId?: string;
  scheduleId?: string;
  /** A schedule's page: its figures of the sites in one site group (`?group=` of the page). */
  siteGroups?: { choices: GroupFilterChoice[] | undefined; groupId: string; onChange: (groupId: string) => void };
}

/** Compliance over a chosen period, per schedule or per site, with the total; every figure a link to the inspections it counts. */
export function ComplianceTable({ siteGroups, ...props }: ComplianceTableProps) {
  const [days, setDays] = useState('30');
  const groupId = siteGroups?.groupId ?? '';
  // Only the figures start afresh with a new period (a new window up to this minute): the select
  // stays the same element, so the focus stays on it.
  return (
    <div className="stack">
      <div className="compliance-filters">
        <div className="compliance-period">
          <SelectField label="Period" name="period" options={PERIODS} value={days} onChange={(event) => setDays(event.target.value)} />
        </div>
        {siteGroups && ((siteGroups.choices?.length ?? 0) > 0 || groupId) ? (
          <div className="compliance-period">
            <GroupFilterField choices={siteGroups.choices} value={groupId} onChange={siteGroups.onChange} />
          </div>
        ) : null}
      </div>
      {siteGroups ? <GroupFilterNotFound choices={siteGroups.choices} value={groupId} onClear={() => siteGroups.onChange('')} /> : null}
      <ComplianceFiguresFor key={days} days={Number(days)} groupId={groupId} {...props} />
    </div>
  );
}

function ComplianceFiguresFor({ orgId, orgSlug, groupBy, siteId, scheduleId, groupId, days }: ComplianceTableProps & { days: number; groupId: string }) {
  const span = useWindow(days);
  const compliance = useCompliance(orgId, { ...span, groupBy, siteId, scheduleId, groupId: groupId || undefined });
  const linkOf = (group: { site?: string; scheduleId?: string }): OutcomeLink => ({
    ...span,
    site: group.site ?? siteId,
    scheduleId: group.scheduleId ?? scheduleId,
    // The total of a group's sites links to the group's inspections; one site's row to that site's.
    group: group.site ? undefined : groupId || undefined,
  });
  const figureCells = (figures: ComplianceFigures, link: OutcomeLink) => (
    <>
      <td data-label="Due">{figures.due}</td>
      <td data-label="On time">
        <Link to={outcomeListPath(orgSlug, link, 'on_time')}>{figures.on_time}</Link>
      </td>
      <td data-label="Late">
        <Link to={outcomeListPath(orgSlug, link, 'late')}>{figures.late}</Link>
      </td>
      <td data-label="Missed">
        <Link to={outcomeListPath(orgSlug, link, 'missed')}>{figures.missed}</Link>
      </td>
      <td data-label="On-time rate">{rateText(figures)}</td>
    </>
  );
  return (
    <>
      {compliance.isPending ? (
        <p className="muted">Loading compliance…</p>
      ) : compliance.isError && !compliance.data ? (
        <QueryError error={compliance.error} onRetry={() => compliance.refetch()} />
      ) : compliance.data.groups.length === 0 ? (
        <p className="muted">No occurrence of a schedule was due {groupBy === 'schedule' ? 'here ' : ''}in this period.</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-stacked compliance-table">
            <caption className="visually-hidden">Occurrences due in the period, by {groupBy}</caption>
            <thead>
              <tr>
                <th scope="col">{groupBy === 'schedule' ? 'Schedule' : 'Site'}</th>
                <th scope="col">Due</th>
                <th scope="col">On time</th>
                <th scope="col">Late</th>
                <th scope="col">Missed</th>
                <th scope="col">On-time rate</th>
              </tr>
            </thead>
            <tbody>
              {compliance.data.groups.map((group) => (
                <tr key={group.id}>
                  <th scope="row">
                    <Link to={groupBy === 'schedule' ? `/o/${orgSlug}/schedules/${group.id}` : `/o/${orgSlug}/sites/${group.id}`}>{group.name}</Link>
                  </th>
                  {figureCells(group, linkOf(groupBy === 'schedule' ? { scheduleId: group.id } : { site: group.id }))}
                </tr>
              ))}
              {compliance.data.groups.length > 1 ? (
                <tr className="compliance-total">
                  <th scope="row">Total</th>
                  {figureCells(compliance.data.total, linkOf({}))}
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted">Counted: occurrences due from {formatDateTime(span.from)} to now, not canceled; done early counts as on time.</p>
    </>
  );
}
