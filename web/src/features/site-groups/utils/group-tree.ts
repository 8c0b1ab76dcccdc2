// The site groups as a tree (docs/site-groups.md, "Screens"): built from the flat list the api
// answers, for the sites page's tree, the pickers and filters that name a group by its path, the
// members' access editor (choosing a group includes its descendants) and the move form (which
// parents a group may move under without growing deeper than three levels). No React, no zod:
// the dashboard's filter reads it on its first load.

/** The fields of a group the tree reads (the api's `SiteGroup`). */
export interface GroupRow {
  id: string;
  name: string;
  parent_id: string | null;
  /** Sites directly in the group. */
  site_count: number;
}

/** The deepest a group may sit: region → area → group (docs/product.md §9). */
export const MAX_GROUP_DEPTH = 3;

export interface GroupNode<Row extends GroupRow = GroupRow> {
  group: Row;
  /** 1 for a group drawn at the top (its parent is none, or not one the caller can see). */
  level: number;
  children: GroupNode<Row>[];
  /** Sites in the group and every group under it. */
  totalSites: number;
  /** Levels below this group: 0 for a group without subgroups. */
  height: number;
}

export interface GroupTree<Row extends GroupRow = GroupRow> {
  roots: GroupNode<Row>[];
  byId: Map<string, GroupNode<Row>>;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function byName(a: GroupNode, b: GroupNode): number {
  return collator.compare(a.group.name, b.group.name) || collator.compare(a.group.id, b.group.id);
}

/**
 * The tree of `rows`, siblings by name ("Area 2" before "Area 10"). A group whose parent is not in
 * the list is drawn at the top; a row that would close a loop is drawn at the top too, so a list
 * changed between two pages never hangs the screen.
 */
export function buildGroupTree<Row extends GroupRow>(rows: readonly Row[]): GroupTree<Row> {
  const byId = new Map<string, GroupNode<Row>>();
  for (const group of rows) byId.set(group.id, { group, level: 1, children: [], totalSites: 0, height: 0 });
  const roots: GroupNode<Row>[] = [];
  for (const node of byId.values()) {
    const parent = node.group.parent_id === null ? undefined : byId.get(node.group.parent_id);
    if (parent && !closesLoop(byId, node)) parent.children.push(node);
    else roots.push(node);
  }
  const visit = (node: GroupNode<Row>, level: number) => {
    node.level = level;
    node.children.sort(byName);
    node.totalSites = node.group.site_count;
    node.height = 0;
    for (const child of node.children) {
      visit(child, level + 1);
      node.totalSites += child.totalSites;
      node.height = Math.max(node.height, child.height + 1);
    }
  };
  roots.sort(byName);
  for (const root of roots) visit(root, 1);
  return { roots, byId };
}

/** Whether following parents up from `node` comes back to it. */
function closesLoop(byId: Map<string, GroupNode<GroupRow>>, node: GroupNode<GroupRow>): boolean {
  const seen = new Set<string>([node.group.id]);
  let parentId = node.group.parent_id;
  while (parentId !== null) {
    if (seen.has(parentId)) return true;
    seen.add(parentId);
    const parent = byId.get(parentId);
    if (!parent) return false;
    parentId = parent.group.parent_id;
  }
  return false;
}

/** Every node in the order the tree is drawn: each group, then its subgroups. */
export function flattenTree<Row extends GroupRow>(roots: readonly GroupNode<Row>[]): GroupNode<Row>[] {
  const out: GroupNode<Row>[] = [];
  const visit = (node: GroupNode<Row>) => {
    out.push(node);
    node.children.forEach(visit);
  };
  roots.forEach(visit);
  return out;
}

/** The ids of a group and every group under it. */
export function subtreeIds(node: GroupNode): string[] {
  return flattenTree([node]).map((each) => each.group.id);
}

/** The names from the top down to the group: ["North", "Harbour"]; empty for an unknown id. */
export function groupPath(tree: GroupTree, groupId: string | null | undefined): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  let node = groupId ? tree.byId.get(groupId) : undefined;
  while (node && !seen.has(node.group.id)) {
    seen.add(node.group.id);
    names.unshift(node.group.name);
    node = node.group.parent_id === null ? undefined : tree.byId.get(node.group.parent_id);
  }
  return names;
}

/** "North › Harbour": a group named where the tree is not drawn (a picker, a site's row). */
export function groupPathText(tree: GroupTree, groupId: string | null | undefined): string {
  return groupPath(tree, groupId).join(' › ');
}

export interface GroupChoice {
  value: string;
  label: string;
}

/** Every group as a choice, in the tree's order, each named by its path. */
export function groupChoices(tree: GroupTree): GroupChoice[] {
  return flattenTree(tree.roots).map((node) => ({ value: node.group.id, label: groupPathText(tree, node.group.id) }));
}

/**
 * Where `groupId` may move: under any group that is not itself or below it, and deep enough to
 * keep its lowest subgroup at level three at most. `null` (the top level) is always allowed.
 */
export function parentChoices(tree: GroupTree, groupId: string | null): GroupChoice[] {
  const moving = groupId ? tree.byId.get(groupId) : undefined;
  const below = new Set(moving ? subtreeIds(moving) : []);
  const height = moving?.height ?? 0;
  return flattenTree(tree.roots)
    .filter((node) => !below.has(node.group.id) && node.level + 1 + height <= MAX_GROUP_DEPTH)
    .map((node) => ({ value: node.group.id, label: groupPathText(tree, node.group.id) }));
}

/**
 * The chosen groups as the api should be sent them: a group whose ancestor is chosen is already
 * included, so it is left out; unknown ids are dropped. In the tree's order.
 */
export function normalizeSelection(tree: GroupTree, chosen: Iterable<string>): string[] {
  const set = new Set(chosen);
  return flattenTree(tree.roots)
    .filter((node) => set.has(node.group.id) && !hasChosenAncestor(tree, node, set))
    .map((node) => node.group.id);
}

function hasChosenAncestor(tree: GroupTree, node: GroupNode, chosen: Set<string>): boolean {
  const seen = new Set<string>();
  let parentId = node.group.parent_id;
  while (parentId !== null && !seen.has(parentId)) {
    seen.add(parentId);
    if (chosen.has(parentId)) return true;
    parentId = tree.byId.get(parentId)?.group.parent_id ?? null;
  }
  return false;
}

/** How a group's checkbox shows a selection: chosen itself, included by a chosen ancestor, or neither. */
export function checkState(tree: GroupTree, chosen: ReadonlySet<string>, groupId: string): 'chosen' | 'included' | 'none' {
  const node = tree.byId.get(groupId);
  if (!node) return 'none';
  if (hasChosenAncestor(tree, node, chosen as Set<string>)) return 'included';
  return chosen.has(groupId) ? 'chosen' : 'none';
}

/**
 * A limited member's or key's groups in words: "North, South › Harbour"; ids the caller can't see
 * (outside their own groups) are counted: "North and 2 other groups".
 */
export function accessSummary(tree: GroupTree, groupIds: readonly string[]): string {
  if (groupIds.length === 0) return 'No site';
  const named = groupIds.filter((id) => tree.byId.has(id)).map((id) => groupPathText(tree, id));
  const others = groupIds.length - named.length;
  if (others === 0) return named.join(', ');
  const otherWords = `${others} other group${others === 1 ? '' : 's'}`;
  return named.length === 0 ? `${others} group${others === 1 ? '' : 's'}` : `${named.join(', ')} and ${otherWords}`;
}

/** The group a URL names (`?group=<id>`), if it is one of the tree's; else why not. */
export function groupFilterOf(tree: GroupTree | undefined, groupId: string): { state: 'none' } | { state: 'unknown' } | { state: 'found'; node: GroupNode } {
  if (groupId === '') return { state: 'none' };
  const node = tree?.byId.get(groupId);
  return node ? { state: 'found', node } : { state: 'unknown' };
}

/**
 * The groups a manager may put groups and sites in: every one when org-wide ('all'); for a manager
 * limited to groups, those groups and every group under them (the database's rule, docs/site-groups.md).
 */
export function managedGroupIds(tree: GroupTree | undefined, access: { orgWide: boolean; groupIds?: readonly string[] }): Set<string> | 'all' {
  if (access.orgWide) return 'all';
  const ids = new Set<string>();
  for (const groupId of access.groupIds ?? []) {
    const node = tree?.byId.get(groupId);
    if (node) for (const id of subtreeIds(node)) ids.add(id);
  }
  return ids;
}
