// A site group's subtree as SQL, from the tree's closure table (docs/site-groups.md): the one
// statement of it the lists, the dashboard, compliance and analytics share. Its own module, without
// the routes' imports, so the analytics bench (Node) can build the same statements the api runs.
import { inline, type InlineSql } from '../_shared/sql-literal.ts';

/**
 * The ids of group `groupId` and of every group below it: the database's closure table of the
 * tree (`private.site_group_subtree_ids`, docs/site-groups.md), none for a group of an
 * organization the caller is not in. What the caller sees of those groups' sites is RLS's business.
 */
export function groupSubtree(groupId: string): InlineSql {
  return inline`select private.site_group_subtree_ids(${groupId}::uuid)`;
}
