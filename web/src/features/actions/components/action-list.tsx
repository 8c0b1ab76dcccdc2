import { ACTION_PRIORITIES, ACTION_PRIORITY_LABELS, ACTION_STATUSES, ACTION_STATUS_LABELS, type ActionStatus } from '@schemas/action-states';
import { isId } from '@schemas/ids';
import { isCalendarDate } from '@schemas/template-items';
import { Link, useSearchParams } from 'react-router-dom';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { SelectField } from '@/components/ui/select-field';
import { GroupFilterField, GroupFilterNotFound, type GroupFilterChoice } from '@/components/ui/group-filter-field';
import { ListScreen, LoadMoreButton } from '@/components/ui/paged-list';
import { groupParamOf } from '@/lib/group-param';
import { useActions, type ActionFilters } from '../api/get-actions';
import type { Choice } from './action-form';
import { ActionRows } from './action-rows';
import './actions.css';
import { QueryError } from '@/components/ui/query-error';

// Status choices: the usual groups first, then each status alone.
const statusGroups: Record<string, ActionStatus[]> = {
  '': [],
  'open,in_progress': ['open', 'in_progress'],
  ...Object.fromEntries(ACTION_STATUSES.map((status) => [status, [status]])),
};
const statusOptions: Choice[] = [
  { value: '', label: 'Any status' },
  { value: 'open,in_progress', label: 'Open or in progress' },
  ...ACTION_STATUSES.map((status) => ({ value: status, label: ACTION_STATUS_LABELS[status] })),
];
const priorityOptions: Choice[] = [
  { value: '', label: 'Any priority' },
  { value: 'high,critical', label: 'High or critical' },
  ...ACTION_PRIORITIES.map((priority) => ({ value: priority, label: ACTION_PRIORITY_LABELS[priority] })),
];

const DAY_FILTERS = ['opened', 'resolved', 'verified', 'due'].flatMap((day) => [`${day}_day_from`, `${day}_day_to`]);

/**
 * What an analytics figure counts (its link, docs/analytics.md "Screens"), each checked as the api
 * would (the site group is the list's own `group` filter).
 */
const ANALYTICS_FILTERS: Record<string, [apiName: string, valid: (value: string) => boolean]> = {
  template_id: ['template_id', isId],
  missed_due: ['missed_due', (value) => value === 'true' || value === 'false'],
  ...Object.fromEntries(DAY_FILTERS.map((name) => [name, [name, isCalendarDate] as [string, (value: string) => boolean]])),
};

const dayWords = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The analytics filters in words: "As an analytics figure counts them: actions opened from … to …, due and not resolved by then". */
function analyticsFilterWords(analytics: Record<string, string>): string {
  const parts: string[] = [];
  if (analytics.template_id) parts.push('from inspections of one template');
  for (const day of ['opened', 'resolved', 'verified', 'due']) {
    const from = analytics[`${day}_day_from`];
    const to = analytics[`${day}_day_to`];
    if (from && to) parts.push(from === to ? `${day} on ${dayWords(from)}` : `${day} from ${dayWords(from)} to ${dayWords(to)}`);
    else if (from) parts.push(`${day} from ${dayWords(from)}`);
    else if (to) parts.push(`${day} until ${dayWords(to)}`);
  }
  if (analytics.missed_due === 'true') parts.push('not resolved by their due time');
  if (analytics.missed_due === 'false') parts.push('resolved by their due time, or not yet due');
  return `As an analytics figure counts them: actions ${parts.join(', ')}, by each site's own calendar.`;
}

/** Filters live in the URL (`?status=open,in_progress&assignee=me&overdue=true&site=<id>&group=<id>`), so a tile can link to a filtered list. */
export function filtersFromSearch(search: URLSearchParams, userId: string): ActionFilters {
  const list = <T extends string>(value: string | null, allowed: readonly T[]) =>
    (value ?? '').split(',').filter((part): part is T => (allowed as readonly string[]).includes(part));
  const assignee = search.get('assignee') ?? '';
  const analytics: Record<string, string> = {};
  for (const [name, [apiName, valid]] of Object.entries(ANALYTICS_FILTERS)) {
    const value = search.get(name);
    if (value !== null && valid(value)) analytics[apiName] = value;
  }
  return {
    statuses: list(search.get('status'), ACTION_STATUSES),
    priorities: list(search.get('priority'), ACTION_PRIORITIES),
    assigneeId: assignee === 'me' ? userId : assignee,
    siteId: search.get('site') ?? '',
    groupId: groupParamOf(search),
    inspectionId: search.get('inspection') ?? '',
    overdue: search.get('overdue') === 'true',
    ...(Object.keys(analytics).length > 0 ? { analytics } : {}),
  };
}

interface ActionListProps {
  orgId: string;
  orgSlug: string;
  userId: string;
  /** Members who work actions, to filter by. */
  assignees: Choice[];
  /** The site groups to filter by (the route reads them); undefined while they load. */
  groups: GroupFilterChoice[] | undefined;
}

/** Every action of the organization, newest first, filtered by the URL; kept live by org-live-updates. */
export function ActionList({ orgId, orgSlug, userId, assignees, groups }: ActionListProps) {
  const [search, setSearch] = useSearchParams();
  const filters = filtersFromSearch(search, userId);
  const actions = useActions(orgId, filters);
  // The note on a site or inspection filter names it from the first action listed.
  const first = actions.data?.pages[0]?.data[0];
  const filtered = [...search.keys()].length > 0;

  function setParam(name: string, value: string) {
    const next = new URLSearchParams(search);
    if (value === '') next.delete(name);
    else next.set(name, value);
    setSearch(next, { replace: true });
  }

  const statusValue = filters.statuses.join(',');
  const priorityValue = filters.priorities.join(',');
  const assigneeValue = search.get('assignee') ?? '';
  const assigneeOptions: Choice[] = [
    { value: '', label: 'Anyone' },
    { value: 'me', label: 'Me' },
    ...assignees.filter((assignee) => assignee.value !== userId),
  ];

  return (
    <ListScreen
      searchLabel="Filter actions"
      filtersClassName="action-filters"
      filters={
        <>
          <SelectField
            label="Status"
            name="status"
            options={statusGroups[statusValue] ? statusOptions : [...statusOptions, { value: statusValue, label: statusValue.replace(/_/g, ' ') }]}
            value={statusValue}
            onChange={(event) => setParam('status', event.target.value)}
          />
          <SelectField
            label="Priority"
            name="priority"
            options={priorityOptions.some((option) => option.value === priorityValue) ? priorityOptions : [...priorityOptions, { value: priorityValue, label: priorityValue }]}
            value={priorityValue}
            onChange={(event) => setParam('priority', event.target.value)}
          />
          {/* The group filter is offered once the organization has groups (or the address names one). */}
          {(groups?.length ?? 0) > 0 || filters.groupId ? (
            <GroupFilterField choices={groups} value={filters.groupId ?? ''} onChange={(groupId) => setParam('group', groupId)} />
          ) : null}
          <SelectField label="Assignee" name="assignee" options={assigneeOptions} value={assigneeValue} onChange={(event) => setParam('assignee', event.target.value)} />
          <CheckboxField label="Overdue only" name="overdue" checked={filters.overdue} onChange={(event) => setParam('overdue', event.target.checked ? 'true' : '')} />
        </>
      }
      notes={
        <>
          <GroupFilterNotFound choices={groups} value={filters.groupId ?? ''} onClear={() => setParam('group', '')} />
          {filters.siteId || filters.inspectionId ? (
            <p className="muted">
              {filters.siteId ? 'At one site' : 'From one inspection'}
              {first ? ` (${filters.siteId ? first.site_name : first.inspection_title})` : ''}.{' '}
              <Link to={`/o/${orgSlug}/actions`}>Show all actions</Link>
            </p>
          ) : null}
          {filters.analytics ? (
            <p className="form-alert form-alert-info">
              {analyticsFilterWords(filters.analytics)} <Link to={`/o/${orgSlug}/actions`}>Show all actions</Link>
            </p>
          ) : null}
        </>
      }
      query={actions}
      loadingText="Loading actions…"
      noun={['action', 'actions']}
      emptyText={filtered ? 'No actions match these filters.' : 'No actions yet. Submitting an inspection with failed items opens one per item.'}
    >
      {(rows) => <ActionRows actions={rows} orgSlug={orgSlug} label="Actions" />}
    </ListScreen>
  );
}

/** "Assigned to you": the caller's open and in-progress actions, first on the actions page. */
export function MyActions({ orgId, orgSlug, userId }: { orgId: string; orgSlug: string; userId: string }) {
  const actions = useActions(orgId, { statuses: ['open', 'in_progress'], priorities: [], assigneeId: userId, siteId: '', inspectionId: '', overdue: false });
  const rows = actions.data?.pages.flatMap((page) => page.data) ?? [];
  if (actions.isPending) return <p className="muted">Loading your actions…</p>;
  if (actions.isError) return <QueryError error={actions.error} onRetry={() => actions.refetch()} />;
  return (
    <div className="stack">
      <p className="muted" role="status">
        {rows.length === 0 ? 'Nothing assigned to you is open. Well done.' : `${rows.length}${actions.hasNextPage ? '+' : ''} open for you`}
      </p>
      {rows.length > 0 ? <ActionRows actions={rows} orgSlug={orgSlug} label="Assigned to you" /> : null}
      <LoadMoreButton query={actions} />
    </div>
  );
}
