import { useMemo } from 'react';
import { useSiteGroups } from '../api/get-site-groups';
import { buildGroupTree, groupChoices, type GroupChoice, type GroupTree } from '../utils/group-tree';

export interface GroupTreeQuery {
  /** The groups the caller sees, as a tree; undefined until read. */
  tree: GroupTree | undefined;
  /** Every group, named by its path, in the tree's order: a filter's or a picker's choices. */
  choices: GroupChoice[] | undefined;
  query: ReturnType<typeof useSiteGroups>;
}

/** The organization's site groups as the caller sees them, drawn as a tree. */
export function useGroupTree(orgId: string): GroupTreeQuery {
  const query = useSiteGroups(orgId);
  const tree = useMemo(() => (query.data ? buildGroupTree(query.data) : undefined), [query.data]);
  const choices = useMemo(() => (tree ? groupChoices(tree) : undefined), [tree]);
  return { tree, choices, query };
}
