import { Pencil } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Accordion, AccordionSection } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import type { GroupNode, GroupTree } from '../utils/group-tree';
import './site-groups.css';

interface GroupTreeViewProps {
  tree: GroupTree;
  /** The sites directly in a group (null: in none), as the page lists them. */
  renderSites: (groupId: string | null, name: string) => ReactNode;
  /** Whether the caller may rename, move and delete this group. */
  canEdit: (node: GroupNode) => boolean;
  /** The group's edit form, shown at the top of its open section. */
  renderEditor: (node: GroupNode, close: () => void) => ReactNode;
  /** Whether to end with the sites in no group (org-wide members only: the others never see them). */
  showUngrouped: boolean;
}

const UNGROUPED = 'ungrouped';

function siteCount(count: number): string {
  return `${count} ${count === 1 ? 'site' : 'sites'}`;
}

/**
 * The sites page's groups: a tree of sections that open and close (the accordion pattern, nested),
 * each with its sites counted down the tree, its subgroups, then its own sites; the sites in no
 * group last. One top-level group opens by itself.
 */
export function GroupTreeView({ tree, renderSites, canEdit, renderEditor, showUngrouped }: GroupTreeViewProps) {
  const [open, setOpen] = useState<string[]>(() => (tree.roots.length === 1 ? [tree.roots[0].group.id] : []));
  const [editing, setEditing] = useState<string | null>(null);

  function edit(groupId: string) {
    setEditing(groupId);
    if (!open.includes(groupId)) setOpen([...open, groupId]);
  }

  const renderSections = (nodes: GroupNode[]) =>
    nodes.map((node) => (
      <AccordionSection
        key={node.group.id}
        value={node.group.id}
        title={node.group.name}
        trailing={siteCount(node.totalSites)}
        headingLevel={node.level === 1 ? 3 : 4}
        className="group-section"
        actions={
          canEdit(node) && editing !== node.group.id ? (
            <Button variant="secondary" className="group-edit-button" aria-label={`Edit the group ${node.group.name}`} onClick={() => edit(node.group.id)}>
              <Pencil aria-hidden="true" size={16} />
              Edit
            </Button>
          ) : null
        }
      >
        <div className="stack">
          {editing === node.group.id ? renderEditor(node, () => setEditing(null)) : null}
          {node.children.length > 0 ? (
            <Accordion type="multiple" value={open} onValueChange={setOpen} className="group-tree group-subtree">
              {renderSections(node.children)}
            </Accordion>
          ) : null}
          {renderSites(node.group.id, node.group.name)}
        </div>
      </AccordionSection>
    ));

  return (
    <Accordion type="multiple" value={open} onValueChange={setOpen} className="group-tree">
      {renderSections(tree.roots)}
      {showUngrouped ? (
        <AccordionSection value={UNGROUPED} title="Not in a group" headingLevel={3} className="group-section group-section-ungrouped">
          {renderSites(null, 'no group')}
        </AccordionSection>
      ) : null}
    </Accordion>
  );
}
