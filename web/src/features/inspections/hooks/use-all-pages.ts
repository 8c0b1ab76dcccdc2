import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import { useEffect } from 'react';

type PagedQuery = Pick<UseInfiniteQueryResult, 'hasNextPage' | 'isFetchingNextPage' | 'isError' | 'fetchNextPage'>;

/** Reads page after page until none is left: a picker of members or templates must offer every one. */
export function useAllPages({ hasNextPage, isFetchingNextPage, isError, fetchNextPage }: PagedQuery) {
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
}
