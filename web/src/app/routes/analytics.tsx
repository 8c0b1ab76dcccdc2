import { ANALYTICS_INTERVALS, type AnalyticsInterval } from '@schemas/analytics';
import { errorCatalogue, formatWording } from '@schemas/errors';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { GroupFilterField, GroupFilterNotFound } from '@/components/ui/group-filter-field';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { ActionTimes } from '@/features/analytics/components/action-times';
import { FailedItems } from '@/features/analytics/components/failed-items';
import { OnTimeRate } from '@/features/analytics/components/on-time';
import { ScoreTrend } from '@/features/analytics/components/score-trend';
import { SiteRanking } from '@/features/analytics/components/site-ranking';
import { useScores } from '@/features/analytics/api/get-scores';
import { type AnalyticsFilters, analyticsAddress, apiQuery, parseAnalyticsFilters } from '@/features/analytics/utils/filters';
import { dayText } from '@/features/analytics/utils/format';
import '@/features/analytics/components/analytics.css';
import { useAllPages } from '@/features/inspections/hooks/use-all-pages';
import { SiteSearchSelect } from '@/features/inspections/components/site-search-select';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { siteQueryOptions } from '@/features/sites/api/get-site';
import { useTemplates } from '@/features/templates/api/get-templates';
import { describeError } from '@/lib/errors';
import { useOrgRoute } from '../org-context';
import { useSiteSearch } from '../use-site-search';

const INTERVAL_OPTIONS: Array<{ value: AnalyticsInterval; label: string }> = ANALYTICS_INTERVALS.map((value) => ({
  value,
  label: value === 'week' ? 'By week' : 'By month',
}));

/**
 * `/o/:org/analytics`: score trends, on-time rate, most failed items, action times and the sites
 * ranked, for the range and filters in the address (docs/analytics.md, "Screens"); every figure a
 * link to the list of the rows it counts.
 */
export function AnalyticsRoute() {
  const { membership } = useOrgRoute();
  const orgId = membership.org_id;
  const orgSlug = membership.org_slug;
  const [search, setSearch] = useSearchParams();
  const { filters, ignored } = parseAnalyticsFilters(search);

  /**
   * Changes some filters, keeping the others and the measures' own view choices (`failed_by`,
   * `priority`, `rank`) as the address has them at this moment: a navigation renders in a
   * transition, so a second choice made before the page shows the first would otherwise be written
   * over the filters last shown, and undo the first (useSearchParams' own updater reads those too).
   */
  function setFilters(change: Partial<AnalyticsFilters>) {
    const now = new URLSearchParams(window.location.search);
    setSearch(analyticsAddress({ ...parseAnalyticsFilters(now).filters, ...change }, now), { replace: true });
  }

  // The range the answers cover: `to` is the device's today unless the address names one; the api
  // fills in the default `from`.
  const scores = useScores(orgId, apiQuery(filters));
  // Offline, the range of the filters before is not said as if it were the new one's.
  const covered = scores.isPlaceholderData && scores.fetchStatus === 'paused' ? undefined : scores.data;

  return (
    <ContentLayout wide title="Analytics" description={`Trends across ${membership.org_name}: is it getting better, and where is it not?`}>
      <AnalyticsFilterForm orgId={orgId} filters={filters} onChange={setFilters} />
      {ignored.length > 0 ? (
        <div className="form-alert form-alert-info" role="status">
          <p>
            Some of the address was not used: {ignored.map((item) => `${item.name} (${item.reason})`).join(', ')}.{' '}
            <Link to={`/o/${orgSlug}/analytics?${analyticsAddress(filters, search)}`} replace>
              Tidy the address
            </Link>
          </p>
        </div>
      ) : null}
      <p className="muted analytics-range" aria-live="polite">
        {covered ? `From ${dayText(covered.from)} to ${dayText(covered.to)}, by ${covered.interval}, on each site's own calendar.` : '\u00a0'}
      </p>
      <nav aria-label="Measures" className="analytics-jump">
        <a href="#scores">Scores</a>
        <a href="#on-time">On time</a>
        <a href="#failed-items">Failed items</a>
        <a href="#actions">Actions</a>
        <a href="#sites">Sites</a>
      </nav>
      <div className="analytics-measures">
        <ScoreTrend orgId={orgId} orgSlug={orgSlug} filters={filters} />
        <OnTimeRate orgId={orgId} orgSlug={orgSlug} filters={filters} />
        <FailedItems orgId={orgId} orgSlug={orgSlug} filters={filters} />
        <ActionTimes orgId={orgId} orgSlug={orgSlug} filters={filters} />
        <SiteRanking orgId={orgId} orgSlug={orgSlug} filters={filters} />
      </div>
    </ContentLayout>
  );
}

interface FilterFormProps {
  orgId: string;
  filters: AnalyticsFilters;
  /** Applies the filters changed (the others stay as the address has them). */
  onChange: (change: Partial<AnalyticsFilters>) => void;
}

/** The range, interval, group, site and template: each change goes to the address at once. */
function AnalyticsFilterForm({ orgId, filters, onChange }: FilterFormProps) {
  const groups = useGroupTree(orgId);
  const sites = useSiteSearch(orgId);
  // The chosen site keeps its name while a search no longer lists it (or before any search).
  const chosenSite = useQuery({ ...siteQueryOptions(orgId, filters.site), enabled: filters.site !== '' });
  // A site the caller cannot see (deleted, or not one of theirs) stays chosen, named so, rather than
  // the select showing "Every site" over figures of none; the alert below offers the way out.
  const siteNotFound = filters.site !== '' && chosenSite.isError && describeError(chosenSite.error).code === 'not_found';
  const selectedSite = filters.site ? { value: filters.site, label: chosenSite.data?.name ?? (siteNotFound ? 'Unknown site' : chosenSite.fetchStatus === 'fetching' ? 'Loading site…' : 'Chosen site') } : undefined;
  const templates = useTemplates(orgId, { q: '', status: 'active' });
  // Templates are few enough to list completely.
  useAllPages(templates);
  const templateOptions = useMemo(() => {
    const listed = (templates.data?.pages.flatMap((page) => page.data) ?? []).map((template) => ({ value: template.id, label: template.name }));
    if (filters.template && !listed.some((option) => option.value === filters.template)) {
      listed.push({ value: filters.template, label: templates.isPending ? 'Loading templates…' : 'Another template (archived)' });
    }
    return [{ value: '', label: 'Every template' }, ...listed];
  }, [templates.data, templates.isPending, filters.template]);

  // A date applies once typed in full (a half-typed one reads as empty); emptied, it applies on leaving the field.
  const [from, setFrom] = useState(filters.from);
  const [to, setTo] = useState(filters.to);
  useEffect(() => setFrom(filters.from), [filters.from]);
  useEffect(() => setTo(filters.to), [filters.to]);

  return (
    <form className="panel analytics-filters" aria-label="Filter analytics" onSubmit={(event) => event.preventDefault()}>
      <TextField
        label="From"
        name="from"
        type="date"
        value={from}
        onChange={(event) => {
          setFrom(event.target.value);
          if (event.target.value) onChange({ from: event.target.value });
        }}
        onBlur={() => {
          if (!from && filters.from) onChange({ from: '' });
        }}
      />
      <TextField
        label="To"
        name="to"
        type="date"
        value={to}
        onChange={(event) => {
          setTo(event.target.value);
          if (event.target.value) onChange({ to: event.target.value });
        }}
        onBlur={() => {
          if (!to && filters.to) onChange({ to: '' });
        }}
      />
      <SelectField label="Interval" name="interval" options={INTERVAL_OPTIONS} value={filters.interval} onChange={(event) => onChange({ interval: event.target.value as AnalyticsInterval })} />
      <GroupFilterField choices={groups.choices} value={filters.group} onChange={(group) => onChange({ group })} label="Site group" />
      <div className="analytics-site-filter">
        <SiteSearchSelect search={sites} noneLabel="Every site" selected={selectedSite} value={filters.site} onChange={(event) => onChange({ site: event.target.value })} />
      </div>
      <SelectField label="Template" name="template" options={templateOptions} value={filters.template} onChange={(event) => onChange({ template: event.target.value })} />
      <GroupFilterNotFound choices={groups.choices} value={filters.group} onClear={() => onChange({ group: '' })} />
      {siteNotFound ? <SiteFilterNotFound onClear={() => onChange({ site: '' })} /> : null}
    </form>
  );
}

const siteNotFoundWording = formatWording(errorCatalogue.not_found.title, { thing: 'site' });

/** A site in the address that is not one of the caller's: said so, with the way back (as `GroupFilterNotFound`). */
function SiteFilterNotFound({ onClear }: { onClear: () => void }) {
  return (
    <div className="form-alert form-alert-error site-filter-not-found" role="alert">
      <p>{siteNotFoundWording} It may have been deleted, or it is not one of yours.</p>
      <div>
        <Button variant="secondary" onClick={onClear}>
          Show every site
        </Button>
      </div>
    </div>
  );
}
