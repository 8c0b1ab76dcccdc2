import { isId } from '@schemas/ids';
import { useSearchParams } from 'react-router-dom';

/** The group a screen is filtered by (`?group=<id>`, docs/site-groups.md "Screens"); '' for every site or a malformed id. */
export function groupParamOf(search: URLSearchParams): string {
  const value = search.get('group') ?? '';
  return isId(value) ? value.toLowerCase() : '';
}

/** `?group=` of the current address, and a setter that keeps the address's other parameters. */
export function useGroupParam(): [string, (groupId: string) => void] {
  const [search, setSearch] = useSearchParams();
  function setGroup(groupId: string) {
    const next = new URLSearchParams(search);
    if (groupId === '') next.delete('group');
    else next.set('group', groupId);
    setSearch(next, { replace: true });
  }
  return [groupParamOf(search), setGroup];
}

/** `path` with `?group=` added when a group is chosen: the links of a filtered screen keep its filter. */
export function withGroup(path: string, groupId: string): string {
  if (groupId === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}group=${encodeURIComponent(groupId)}`;
}
