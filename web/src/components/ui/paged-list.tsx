// What a list read a page at a time shows: "Load more" (under any such list), and the whole screen
// of a list with filters (ListScreen). One module, so the screens that list share one chunk with
// the lists that only load more (a chunk of its own would be one more name in the entry chunk, on
// every page's first load: docs/offline.md "Weight").
import type { ReactNode } from 'react';
import { Button } from './button';
import { QueryError } from './query-error';

interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** "Load more" under a paged list, while the API has another page of it. */
export function LoadMoreButton({ query }: { query: PagedQuery }) {
  if (!query.hasNextPage) return null;
  return (
    <div>
      <Button variant="secondary" pending={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
        Load more
      </Button>
    </div>
  );
}

/** What the skeleton reads of a paged list's react-query result (useInfiniteQuery over the api's pages). */
export interface PagedListQuery<Row> extends PagedQuery {
  data: { pages: ReadonlyArray<{ data: Row[] }> } | undefined;
  isPending: boolean;
  isError: boolean;
  error: unknown;
  /** The rows shown are the previous filters' while the new ones load. */
  isPlaceholderData: boolean;
  refetch: () => unknown;
}

interface ListScreenProps<Row> {
  /** Names the filters for assistive technology: "Find sites". */
  searchLabel: string;
  /** The class of the filters' row, which lays them out. */
  filtersClassName: string;
  /** The filter fields. */
  filters: ReactNode;
  /** Shown under the filters whatever the list's state: a note on the filters, exports. */
  notes?: ReactNode;
  query: PagedListQuery<Row>;
  /** "Loading sites…" */
  loadingText: string;
  /** What a row is, in the count: `['site', 'sites']`. */
  noun: readonly [singular: string, plural: string];
  /** Said after the count: ", nearest first". */
  countSuffix?: string;
  /** Said when no row came back: "No sites match your search.", "No sites yet." */
  emptyText: string;
  /** The rows as a list; `busy` while they are the previous filters' (for `aria-busy`). Not called when there are none. */
  children: (rows: Row[], busy: true | undefined) => ReactNode;
}

/** "12 sites", "50+ sites" while the api has more pages. */
export function listCountText(count: number, more: boolean, [singular, plural]: readonly [string, string]): string {
  return `${count}${more ? '+' : ''} ${count === 1 ? singular : plural}`;
}

/**
 * A screen that lists an organization's things a page at a time (sites, templates, actions, the
 * audit log, inspections): the filters, a status line that says how many or why none, the list,
 * "Load more", and what went wrong with "Try again" — in place of the list when nothing could be
 * read, under it when a further page could not.
 */
export function ListScreen<Row>({
  searchLabel,
  filtersClassName,
  filters,
  notes,
  query,
  loadingText,
  noun,
  countSuffix = '',
  emptyText,
  children,
}: ListScreenProps<Row>) {
  const rows = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div className="stack">
      <div className={filtersClassName} role="search" aria-label={searchLabel}>
        {filters}
      </div>
      {notes}
      {query.isPending ? (
        <p className="muted">{loadingText}</p>
      ) : query.isError && rows.length === 0 ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : (
        <>
          <p className="muted" role="status">
            {rows.length === 0 ? emptyText : `${listCountText(rows.length, query.hasNextPage, noun)}${countSuffix}`}
          </p>
          {rows.length > 0 ? children(rows, query.isPlaceholderData || undefined) : null}
          <LoadMoreButton query={query} />
          {query.isError ? <QueryError error={query.error} onRetry={() => query.refetch()} /> : null}
        </>
      )}
    </div>
  );
}
