import { Button } from './button';

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
