import { useSearchParams } from 'react-router-dom';

/**
 * A choice that changes one measure's view (`?failed_by=site`, `?priority=high`, `?rank=score_change`),
 * kept in the address beside the filters so a shared link shows the same view. A value not among
 * `allowed` reads as the default; choosing the default leaves it out of the address.
 */
export function useViewParam<T extends string>(name: string, allowed: readonly T[], fallback: T): [T, (value: T) => void] {
  const [search, setSearch] = useSearchParams();
  const value = search.get(name);
  const current = (allowed as readonly string[]).includes(value ?? '') ? (value as T) : fallback;
  function choose(next: T) {
    // Over the address as it is now, not as last rendered: a filter chosen a moment before may not
    // be shown yet (a navigation renders in a transition), and must not be undone.
    const params = new URLSearchParams(window.location.search);
    if (next === fallback) params.delete(name);
    else params.set(name, next);
    setSearch(params, { replace: true });
  }
  return [current, choose];
}
