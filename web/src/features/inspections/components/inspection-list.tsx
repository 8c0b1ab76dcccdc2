import { isId } from '@schemas/ids';
import { isCalendarDate } from '@schemas/template-items';
import { INSPECTION_STATUSES, STATUS_LABELS } from '@schemas/inspection-states';
import { CircleCheck, HardDriveDownload, MapPin } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { ListScreen } from '@/components/ui/paged-list';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { useDebouncedValue } from '@/lib/use-debounced-value';
import { formatDateTime } from '@/lib/format';
import { inspectionFilterQuery, useInspections, type InspectionFilters } from '../api/get-inspections';
import { DownloadButton } from '@/components/ui/download-button';
import { GroupFilterField, GroupFilterNotFound, type GroupFilterChoice } from '@/components/ui/group-filter-field';
import { groupParamOf } from '@/lib/group-param';
import { apiPath } from '@/lib/api';
import type { InspectionStatus } from '../types';
import { formatScore } from '../utils/inspection-format';
import { InspectionStatusBadge, OverdueBadge } from './inspection-status-badge';
import { SiteSearchSelect, type SiteSearch } from './site-search-select';
import { useInspectionsOnDevice } from '../offline/on-device';
import './inspections.css';

export interface Choice {
  value: string;
  label: string;
}

interface InspectionListProps {
  orgId: string;
  orgSlug: string;
  userId: string;
  /** Sites to filter by (the route searches them). */
  sites: SiteSearch;
  /** Members who can be assigned (the route reads them). */
  assignees: Choice[];
  /** The site groups to filter by (the route reads them); undefined while they load. */
  groups: GroupFilterChoice[] | undefined;
}

const statusOptions: Choice[] = [{ value: '', label: 'Any status' }, ...INSPECTION_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))];

/** The occurrence filters the URL may carry (a compliance figure's link), each checked as the api would. */
const OCCURRENCE_FILTERS: Record<string, (value: string) => boolean> = {
  schedule_id: isId,
  missed: (value) => value === 'true' || value === 'false',
  outcome: (value) => value === 'on_time' || value === 'late' || value === 'missed',
  due_from: (value) => /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value)),
  due_to: (value) => /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(Date.parse(value)),
};

const isDay = (value: string) => isCalendarDate(value);
// templates.ts's KEY_PATTERN, repeated: the list need not import the template schemas (and zod) for it.
const isItemKey = (value: string) => /^[a-z0-9][a-z0-9_-]{0,63}$/.test(value);

/**
 * What an analytics figure counts (its link, docs/analytics.md "Screens"), each checked as the api
 * would (the site group is the list's own `group` filter).
 */
const ANALYTICS_FILTERS: Record<string, [apiName: string, valid: (value: string) => boolean]> = {
  template_id: ['template_id', isId],
  submitted_day_from: ['submitted_day_from', isDay],
  submitted_day_to: ['submitted_day_to', isDay],
  due_day_from: ['due_day_from', isDay],
  due_day_to: ['due_day_to', isDay],
  failed_item: ['failed_item', isItemKey],
};

/** `submitted` or a comma list of statuses (`submitted,approved`); anything else is no status filter. */
function statusOf(value: string): string {
  const statuses = value.split(',');
  return statuses.every((status) => (INSPECTION_STATUSES as readonly string[]).includes(status)) ? value : '';
}

/**
 * Filters live in the URL (`?status=submitted&assignee=me&overdue=true&site=<id>&group=<id>`), so a dashboard
 * tile can link to the list it counts; so do a schedule's occurrences as compliance counts them
 * (`?schedule_id=<id>&missed=true&outcome=late&due_from=…&due_to=…`), which have no field here.
 */
function filtersFromSearch(search: URLSearchParams, userId: string): InspectionFilters {
  const assignee = search.get('assignee') ?? '';
  const occurrences: Record<string, string> = {};
  for (const [name, valid] of Object.entries(OCCURRENCE_FILTERS)) {
    const value = search.get(name);
    if (value !== null && valid(value)) occurrences[name] = value;
  }
  const analytics: Record<string, string> = {};
  for (const [name, [apiName, valid]] of Object.entries(ANALYTICS_FILTERS)) {
    const value = search.get(name);
    if (value !== null && valid(value)) analytics[apiName] = value;
  }
  return {
    q: search.get('q') ?? '',
    status: statusOf(search.get('status') ?? ''),
    siteId: search.get('site') ?? '',
    groupId: groupParamOf(search),
    assigneeId: assignee === 'me' ? userId : assignee,
    overdue: search.get('overdue') === 'true',
    ...(Object.keys(occurrences).length > 0 ? { occurrences } : {}),
    ...(Object.keys(analytics).length > 0 ? { analytics } : {}),
  };
}

const OUTCOME_WORDS: Record<string, string> = { on_time: 'done on time', late: 'done late', missed: 'missed' };

/** The occurrence filters in words: "Occurrences of one schedule, missed, due from … to …". */
function occurrenceFilterWords(occurrences: Record<string, string>): string {
  const parts = [occurrences.schedule_id ? 'Occurrences of one schedule' : 'Occurrences of schedules'];
  if (occurrences.outcome) parts.push(OUTCOME_WORDS[occurrences.outcome]);
  if (occurrences.missed) parts.push(occurrences.missed === 'true' ? 'missed' : 'not missed');
  if (occurrences.due_from && occurrences.due_to) parts.push(`due from ${formatDateTime(occurrences.due_from)} to ${formatDateTime(occurrences.due_to)}`);
  else if (occurrences.due_from) parts.push(`due from ${formatDateTime(occurrences.due_from)}`);
  else if (occurrences.due_to) parts.push(`due before ${formatDateTime(occurrences.due_to)}`);
  return `${parts.join(', ')}.`;
}

/** "Submitted or approved": a comma list of statuses in words. */
function statusListLabel(value: string): string {
  const words = value.split(',').map((status) => STATUS_LABELS[status as InspectionStatus] ?? status);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)!.toLowerCase()}` : words[0];
}

const dayWords = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The analytics filters in words: "As an analytics figure counts: of one template, submitted from 2 Nov 2026 to 8 Nov 2026 (each site's day), …". */
function analyticsFilterWords(analytics: Record<string, string>): string {
  const parts: string[] = [];
  const span = (from: string | undefined, to: string | undefined) =>
    from && to ? (from === to ? `on ${dayWords(from)}` : `from ${dayWords(from)} to ${dayWords(to)}`) : from ? `from ${dayWords(from)}` : `until ${dayWords(to!)}`;
  if (analytics.template_id) parts.push('of one template');
  if (analytics.failed_item) parts.push(`where the item "${analytics.failed_item}" failed`);
  if (analytics.submitted_day_from || analytics.submitted_day_to) parts.push(`submitted ${span(analytics.submitted_day_from, analytics.submitted_day_to)}`);
  if (analytics.due_day_from || analytics.due_day_to) parts.push(`due ${span(analytics.due_day_from, analytics.due_day_to)}`);
  return `As an analytics figure counts them: inspections ${parts.join(', ')}, by each site's own calendar.`;
}

/** Inspections newest first, filtered; kept live by the organization's channel (org-live-updates). */
export function InspectionList({ orgId, orgSlug, userId, sites, assignees, groups }: InspectionListProps) {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search, userId);
  function setFilters(next: InspectionFilters) {
    const params = new URLSearchParams();
    if (next.q.trim()) params.set('q', next.q.trim());
    if (next.status) params.set('status', next.status);
    if (next.siteId) params.set('site', next.siteId);
    if (next.groupId) params.set('group', next.groupId);
    if (next.assigneeId) params.set('assignee', next.assigneeId === userId ? 'me' : next.assigneeId);
    if (next.overdue) params.set('overdue', 'true');
    for (const [name, value] of Object.entries(next.occurrences ?? {})) params.set(name, value);
    for (const [name, [apiName]] of Object.entries(ANALYTICS_FILTERS)) {
      const value = next.analytics?.[apiName];
      if (value !== undefined) params.set(name, value);
    }
    setSearch(params, { replace: true });
  }
  // The filtering site stays offered while a new search leaves it out.
  const [filterSite, setFilterSite] = useState<Choice | undefined>();
  // The search box filters as you type: the URL (and the request) follow a moment later.
  const [typed, setTyped] = useState(filters.q);
  const debounced = useDebouncedValue(typed);
  useEffect(() => {
    if (debounced.trim() !== filters.q.trim()) setFilters({ ...filters, q: debounced });
    // Only a new search moves the URL; the other filters set it themselves.
  }, [debounced]);
  const inspections = useInspections(orgId, filters);
  const onDevice = useInspectionsOnDevice(useQueryClient(), orgId);
  const filtered =
    filters.q !== '' || filters.status !== '' || filters.siteId !== '' || filters.groupId !== '' || filters.assigneeId !== '' || filters.overdue ||
    filters.occurrences !== undefined || filters.analytics !== undefined;
  // The group filter is offered once the organization has groups (or the address names one).
  const showGroups = (groups?.length ?? 0) > 0 || filters.groupId !== '';

  const assigneeOptions: Choice[] = [
    { value: '', label: 'Anyone' },
    { value: userId, label: 'Me' },
    ...assignees.filter((assignee) => assignee.value !== userId),
  ];

  return (
    <ListScreen
      searchLabel="Filter inspections"
      filtersClassName="inspection-filters"
      filters={
        <>
          <TextField label="Search" name="q" type="search" placeholder="Title or site" value={typed} onChange={(event) => setTyped(event.target.value)} />
          <SelectField
            label="Status"
            name="status"
            options={statusOptions.some((option) => option.value === filters.status) ? statusOptions : [...statusOptions, { value: filters.status, label: statusListLabel(filters.status) }]}
            value={filters.status}
            onChange={(event) => setFilters({ ...filters, status: event.target.value })}
          />
          <SiteSearchSelect
            search={sites}
            noneLabel="Any site"
            selected={filterSite}
            value={filters.siteId}
            onChange={(event) => {
              const siteId = event.target.value;
              if (siteId !== filterSite?.value) setFilterSite(sites.choices.find((choice) => choice.value === siteId));
              setFilters({ ...filters, siteId });
            }}
          />
          {showGroups ? <GroupFilterField choices={groups} value={filters.groupId ?? ''} onChange={(groupId) => setFilters({ ...filters, groupId })} /> : null}
          <SelectField
            label="Assignee"
            name="assignee_id"
            options={assigneeOptions}
            value={filters.assigneeId}
            onChange={(event) => setFilters({ ...filters, assigneeId: event.target.value })}
          />
          <CheckboxField
            label="Overdue only"
            name="overdue"
            checked={filters.overdue}
            onChange={(event) => setFilters({ ...filters, overdue: event.target.checked })}
          />
        </>
      }
      notes={
        <>
        <GroupFilterNotFound choices={groups} value={filters.groupId ?? ''} onClear={() => setFilters({ ...filters, groupId: '' })} />
        {filters.occurrences ? (
          <div className="form-alert form-alert-info occurrence-filter-note">
            <p>{occurrenceFilterWords(filters.occurrences)}</p>
            <div className="occurrence-filter-links">
              {filters.occurrences.schedule_id ? <Link to={`/o/${orgSlug}/schedules/${filters.occurrences.schedule_id}`}>See the schedule</Link> : null}
              <Button variant="link" onClick={() => setFilters({ ...filters, occurrences: undefined })}>
                Show all inspections
              </Button>
            </div>
          </div>
        ) : null}
        {filters.analytics ? (
          <div className="form-alert form-alert-info occurrence-filter-note">
            <p>{analyticsFilterWords(filters.analytics)}</p>
            <div className="occurrence-filter-links">
              <Button variant="link" onClick={() => setFilters({ ...filters, analytics: undefined })}>
                Show all inspections
              </Button>
            </div>
          </div>
        ) : null}
        {/* Every inspection the filters select, not only the pages loaded: streamed by the api (docs/reports.md). */}
        <div className="report-exports" aria-label="Export">
          <DownloadButton path={apiPath('orgs', orgId, 'reports', 'inspections.csv')} query={inspectionFilterQuery(filters)} fallbackName="inspections.csv">
            Export inspections CSV
          </DownloadButton>
          <DownloadButton path={apiPath('orgs', orgId, 'reports', 'answers.csv')} query={inspectionFilterQuery(filters)} fallbackName="answers.csv">
            Export answers CSV
          </DownloadButton>
        </div>
        </>
      }
      query={inspections}
      loadingText="Loading inspections…"
      noun={['inspection', 'inspections']}
      emptyText={filtered ? 'No inspections match these filters.' : 'No inspections yet.'}
    >
      {(rows, busy) => (
        <ul className="inspection-list" aria-label="Inspections" aria-busy={busy}>
          {rows.map((inspection) => {
            const score = formatScore(inspection);
            return (
              <li key={inspection.id} className="inspection-row">
                <div className="inspection-row-main">
                  <Link to={`/o/${orgSlug}/inspections/${inspection.id}`} className="inspection-row-title">
                    {inspection.title}
                  </Link>
                  <p className="inspection-row-meta">
                    <span className="inline-icon">
                      <MapPin aria-hidden="true" size={16} />
                      {inspection.site_name}
                    </span>
                    <span>{inspection.assignee_name ? `Assigned to ${inspection.assignee_name}` : 'Unassigned'}</span>
                    {inspection.due_at ? <span>Due {formatDateTime(inspection.due_at, inspection.site_timezone)}</span> : null}
                  </p>
                  {/* Progress is how much is answered; the score is how well it went: two things, shown apart. */}
                  <p className="inspection-row-progress">
                    <span className="inline-icon">
                      <CircleCheck aria-hidden="true" size={16} />
                      Answered {inspection.answered_count} of {inspection.item_count}
                    </span>
                    {score ? <span>Score {score}</span> : null}
                    {inspection.failed_count > 0 ? <span>{inspection.failed_count} failed</span> : null}
                    {/* Opens without a network: its data is on this device (issue 23). */}
                    {onDevice.has(inspection.id) ? (
                      <span className="inline-icon available-offline">
                        <HardDriveDownload aria-hidden="true" size={16} />
                        Available offline
                      </span>
                    ) : null}
                  </p>
                </div>
                <div className="inspection-row-state">
                  <InspectionStatusBadge status={inspection.status} />
                  {/* A schedule's occurrence due and never submitted is missed (and still startable), not merely overdue. */}
                  {inspection.missed ? <span className="status-badge status-overdue">Missed</span> : inspection.overdue ? <OverdueBadge /> : null}
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </ListScreen>
  );
}
