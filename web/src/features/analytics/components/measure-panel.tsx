import type { AnalyticsMeasure } from '@schemas/analytics';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { DownloadButton } from '@/components/ui/download-button';
import { isWaitingForNetwork, NotOnDevice } from '@/components/ui/not-on-device';
import { QueryError } from '@/components/ui/query-error';
import { apiPath } from '@/lib/api';
import type { AnalyticsFilters } from '../utils/filters';

/** What every measure's section is given: the organization and the page's filters. */
export interface MeasureProps {
  orgId: string;
  orgSlug: string;
  filters: AnalyticsFilters;
}

interface MeasurePanelProps<T> {
  /** The measure (its CSV export is `…/analytics/<measure>.csv`). */
  measure: AnalyticsMeasure;
  heading: string;
  /** One line under the heading: what is counted. */
  description: ReactNode;
  /** Choices that change this measure only (group by, priority, order). */
  controls?: ReactNode;
  orgId: string;
  /** The measure's query, as the api and its CSV take it. */
  query: Record<string, string>;
  result: UseQueryResult<T>;
  /** Whether the answer has nothing to draw. */
  isEmpty: (data: T) => boolean;
  emptyText: string;
  /** `beside`: the table beside the chart on a wide screen; `below`: under it (a table of many columns). */
  layout?: 'beside' | 'below';
  /** The chart and, beside it, the table of the same figures and links. */
  children: (data: T) => { chart: ReactNode; table: ReactNode };
}

/** What a measure says offline when its figures for the filters chosen were never fetched on this device. */
const measureNotOnDevice = "The figures for these filters aren't on this device yet. Connect to the internet to see them.";

/** A measure's section: heading, its own controls, the chart beside its table, the CSV of its figures. */
export function MeasurePanel<T>({ measure, heading, description, controls, orgId, query, result, isEmpty, emptyText, layout = 'beside', children }: MeasurePanelProps<T>) {
  const headingId = `${measure}-heading`;
  let body: ReactNode;
  // Offline, a new choice of filters waits for the network: the figures kept from the last ones
  // (placeholder data) are not these filters' and must not stand in for them, nor "Loading…" stay
  // forever; the section says what to do instead (issue 23), and the new figures come back online.
  // Figures of these very filters kept on the device still show.
  const nothingOfTheseFilters = !result.data || result.isPlaceholderData;
  if (nothingOfTheseFilters && (result.fetchStatus === 'paused' || isWaitingForNetwork(result))) {
    body = <NotOnDevice message={measureNotOnDevice} />;
  } else if (result.isPending) body = <p className="muted">Loading {heading.toLowerCase()}…</p>;
  else if (result.isError && !result.data) body = <QueryError error={result.error} onRetry={() => result.refetch()} />;
  else if (isEmpty(result.data!)) body = <p className="muted">{emptyText}</p>;
  else {
    const { chart, table } = children(result.data!);
    body = (
      // Dimmed and busy while the figures shown are the last filters', kept until the new ones come.
      <div className={`measure-figures measure-figures-${layout}`} aria-busy={result.isPlaceholderData}>
        {chart}
        <div className="measure-table">{table}</div>
      </div>
    );
  }
  return (
    <section className="panel measure-panel" aria-labelledby={headingId} id={measure}>
      <div className="measure-heading">
        <div>
          <h2 id={headingId}>{heading}</h2>
          <p className="muted">{description}</p>
        </div>
        <DownloadButton path={apiPath('orgs', orgId, 'analytics', `${measure}.csv`)} query={query} fallbackName={`${measure}.csv`}>
          {`Download ${heading.toLowerCase()} (CSV)`}
        </DownloadButton>
      </div>
      {controls ? <div className="measure-controls">{controls}</div> : null}
      {body}
    </section>
  );
}
