// The site groups as the screens draw them (web/src/features/site-groups/utils/group-tree.ts):
// the tree built from the api's flat list, counts summed up the tree, the paths that name a group
// in a picker, where a group may move without growing deeper than three levels, and what the
// access editor sends when a group and its subgroup are both ticked.
import { describe, expect, it } from 'vitest';
import {
  accessSummary,
  buildGroupTree,
  checkState,
  flattenTree,
  groupChoices,
  groupFilterOf,
  groupPathText,
  normalizeSelection,
  parentChoices,
  type GroupRow,
} from '../../web/src/features/site-groups/utils/group-tree';

const row = (id: string, name: string, parent_id: string | null, site_count = 0): GroupRow => ({ id, name, parent_id, site_count });

// North › Harbour › Pier, North › Area 10, North › Area 2; South (no subgroups); an empty West.
const rows = [
  row('pier', 'Pier', 'harbour', 2),
  row('south', 'South', null, 4),
  row('north', 'North', null, 1),
  row('harbour', 'Harbour', 'north', 3),
  row('a10', 'Area 10', 'north', 5),
  row('a2', 'Area 2', 'north', 0),
  row('west', 'west', null, 0),
];

describe('the group tree', () => {
  it('nests groups under their parents, siblings by name with numbers in order, whatever the order of the list', () => {
    const tree = buildGroupTree(rows);
    expect(tree.roots.map((node) => node.group.name)).toEqual(['North', 'South', 'west']);
    expect(flattenTree(tree.roots).map((node) => `${node.level}:${node.group.name}`)).toEqual([
      '1:North', '2:Area 2', '2:Area 10', '2:Harbour', '3:Pier', '1:South', '1:west',
    ]);
    expect(buildGroupTree([...rows].reverse()).roots.map((node) => node.group.id)).toEqual(['north', 'south', 'west']);
  });

  it('counts the sites of a group and of every group under it', () => {
    const tree = buildGroupTree(rows);
    expect(tree.byId.get('north')!.totalSites).toBe(1 + 3 + 2 + 5);
    expect(tree.byId.get('harbour')!.totalSites).toBe(5);
    expect(tree.byId.get('south')!.totalSites).toBe(4);
    expect(tree.byId.get('north')!.height).toBe(2);
    expect(tree.byId.get('pier')!.height).toBe(0);
  });

  it('draws a group whose parent the caller cannot see at the top, and a loop at the top instead of hanging', () => {
    // A limited member who sees Harbour but not North (were the api to leave the ancestor out).
    const limited = buildGroupTree([row('harbour', 'Harbour', 'north', 3), row('pier', 'Pier', 'harbour', 2)]);
    expect(limited.roots.map((node) => node.group.name)).toEqual(['Harbour']);
    expect(limited.byId.get('pier')!.level).toBe(2);
    const loop = buildGroupTree([row('a', 'A', 'b'), row('b', 'B', 'a')]);
    expect(flattenTree(loop.roots)).toHaveLength(2);
  });

  it('names a group by its path, and offers every group as a choice in the tree\'s order', () => {
    const tree = buildGroupTree(rows);
    expect(groupPathText(tree, 'pier')).toBe('North › Harbour › Pier');
    expect(groupPathText(tree, 'gone')).toBe('');
    expect(groupChoices(tree).slice(0, 3)).toEqual([
      { value: 'north', label: 'North' },
      { value: 'a2', label: 'North › Area 2' },
      { value: 'a10', label: 'North › Area 10' },
    ]);
  });
});

describe('moving a group', () => {
  const tree = buildGroupTree(rows);
  const parents = (id: string | null) => parentChoices(tree, id).map((choice) => choice.value);

  it('offers no parent that is the group itself or under it', () => {
    expect(parents('north')).not.toContain('north');
    expect(parents('north')).not.toContain('harbour');
    expect(parents('north')).not.toContain('pier');
  });

  it('offers only parents that keep its lowest subgroup at level three', () => {
    // North has two levels under it: it can only stay at the top.
    expect(parents('north')).toEqual([]);
    // Harbour has Pier under it: under a top-level group only (North, where it is, among them).
    expect(parents('harbour')).toEqual(['north', 'south', 'west']);
    // South alone: under any group at level 1 or 2.
    expect(parents('south')).toEqual(['north', 'a2', 'a10', 'harbour', 'west']);
  });

  it('offers a new group every group above level three', () => {
    expect(parents(null)).toEqual(['north', 'a2', 'a10', 'harbour', 'south', 'west']);
  });
});

describe('choosing groups for a member or a key', () => {
  const tree = buildGroupTree(rows);

  it('sends a ticked group once, leaving out the subgroups it already includes, in the tree\'s order', () => {
    expect(normalizeSelection(tree, ['pier', 'south', 'north', 'harbour'])).toEqual(['north', 'south']);
    expect(normalizeSelection(tree, ['pier', 'a2'])).toEqual(['a2', 'pier']);
    expect(normalizeSelection(tree, ['gone'])).toEqual([]);
  });

  it('shows a subgroup of a ticked group as included', () => {
    const chosen = new Set(['north']);
    expect(checkState(tree, chosen, 'north')).toBe('chosen');
    expect(checkState(tree, chosen, 'pier')).toBe('included');
    expect(checkState(tree, chosen, 'south')).toBe('none');
  });

  it('says which groups, counting those the reader cannot see', () => {
    expect(accessSummary(tree, ['north', 'pier'])).toBe('North, North › Harbour › Pier');
    expect(accessSummary(tree, ['south', 'x', 'y'])).toBe('South and 2 other groups');
    expect(accessSummary(tree, ['x'])).toBe('1 group');
    expect(accessSummary(tree, [])).toBe('No site');
  });
});

describe('a group filter from the URL', () => {
  const tree = buildGroupTree(rows);

  it('finds a known group, says so of an unknown one, and is off when empty', () => {
    expect(groupFilterOf(tree, '')).toEqual({ state: 'none' });
    expect(groupFilterOf(tree, 'gone')).toEqual({ state: 'unknown' });
    const found = groupFilterOf(tree, 'harbour');
    expect(found.state === 'found' && found.node.group.name).toBe('Harbour');
  });
});
