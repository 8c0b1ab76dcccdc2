import { can } from '@schemas/roles';
import type { Site } from '@schemas/sites';
import { FolderPlus, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ContentLayout } from '@/components/layouts/content-layout';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { GroupFilterField, GroupFilterNotFound } from '@/components/ui/group-filter-field';
import { GroupEditor, NewGroupForm, type ParentOptions } from '@/features/site-groups/components/group-forms';
import { GroupTreeView } from '@/features/site-groups/components/group-tree-view';
import { MoveSitesBar } from '@/features/site-groups/components/move-sites-bar';
import { useGroupTree } from '@/features/site-groups/hooks/use-group-tree';
import { groupPathText, managedGroupIds, parentChoices, type GroupNode } from '@/features/site-groups/utils/group-tree';
import { SiteList, SitesInGroup } from '@/features/sites/components/site-list';
import { useGroupParam } from '@/lib/group-param';
import { scopeOfMembership } from '@/lib/org-channel';
import { useOrgRoute } from '../org-context';

/** `/o/:org/sites`: the sites in their groups (a tree), or found by a search, a filter or distance; managers arrange them. */
export function SitesRoute() {
  const { membership } = useOrgRoute();
  const orgId = membership.org_id;
  const canManage = can.manageSites(membership.role);
  const scope = scopeOfMembership(membership);
  const groups = useGroupTree(orgId);
  const { tree, choices } = groups;
  const [groupId, setGroupId] = useGroupParam();
  const [adding, setAdding] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  const [selected, setSelected] = useState<Map<string, Site>>(() => new Map());

  const scopeKey = scope.orgWide ? 'org-wide' : scope.groupIds.join(',');
  // scope is read through scopeKey: a new object each render must not recompute.
  const managed = useMemo(() => managedGroupIds(tree, scope), [tree, scopeKey]);
  const mayManage = (id: string | null) => canManage && (managed === 'all' || (id !== null && managed.has(id)));
  const parentsFor = (movingId: string | null): ParentOptions => ({
    topLevel: managed === 'all',
    groups: tree ? parentChoices(tree, movingId).filter((choice) => mayManage(choice.value)) : [],
  });
  const moveTargets = (choices ?? []).filter((choice) => mayManage(choice.value));
  const hasGroups = (tree?.roots.length ?? 0) > 0;

  function toggle(site: Site, on: boolean) {
    setSelected((current) => {
      const next = new Map(current);
      if (on) next.set(site.id, site);
      else next.delete(site.id);
      return next;
    });
  }
  // A manager ticks sites to move them: the sites it may move (all, or those in its groups).
  const selection = canManage && (hasGroups || managed === 'all') ? { selected: new Set(selected.keys()), onToggle: toggle } : undefined;
  const groupLabel = (site: Site) => (tree ? groupPathText(tree, site.group_id) || 'No group' : undefined);

  return (
    <ContentLayout
      title="Sites"
      description={membership.org_name}
      actions={
        canManage ? (
          <>
            {!adding && (managed === 'all' || hasGroups) ? (
              <Button variant="secondary" onClick={() => setAdding(true)}>
                <FolderPlus aria-hidden="true" size={18} />
                New group
              </Button>
            ) : null}
            <Link className="button button-primary" to={`/o/${membership.org_slug}/sites/new`}>
              <Plus aria-hidden="true" size={18} />
              Add site
            </Link>
          </>
        ) : null
      }
    >
      <div className="stack">
        <FormAlert tone="success" message={notice} />
        {adding ? (
          <section className="panel" aria-labelledby="new-group-heading">
            <h2 id="new-group-heading">New group</h2>
            <NewGroupForm
              orgId={orgId}
              parents={parentsFor(null)}
              onCreated={(group) => {
                setAdding(false);
                setNotice(`${group.name} was added.`);
              }}
              onCancel={() => setAdding(false)}
            />
          </section>
        ) : null}
        <SiteList
          orgId={orgId}
          orgSlug={membership.org_slug}
          selection={selection}
          groupLabel={hasGroups ? groupLabel : undefined}
          groupFilter={
            hasGroups || groupId !== ''
              ? {
                  groupId,
                  field: <GroupFilterField choices={choices} value={groupId} onChange={setGroupId} />,
                  note: <GroupFilterNotFound choices={choices} value={groupId} onClear={() => setGroupId('')} />,
                }
              : undefined
          }
          // Without groups (or when they can't be read) the sites are one list, as they always were.
          whenBrowsing={
            groups.query.isError || (tree && !hasGroups)
              ? undefined
              : (archived) =>
            !tree ? (
              <p className="muted">Loading sites…</p>
            ) : (
              <section aria-labelledby="groups-heading" className="stack">
                <h2 id="groups-heading">Groups</h2>
                <GroupTreeView
                  tree={tree}
                  showUngrouped={scope.orgWide}
                  canEdit={(node: GroupNode) => mayManage(node.group.parent_id)}
                  renderEditor={(node, close) => (
                    <GroupEditor
                      orgId={orgId}
                      node={node}
                      parents={parentsFor(node.group.id)}
                      onDone={(done) => {
                        close();
                        if (done) setNotice(done);
                      }}
                    />
                  )}
                  renderSites={(id, name) => (
                    <SitesInGroup
                      orgId={orgId}
                      orgSlug={membership.org_slug}
                      groupId={id}
                      archived={archived}
                      label={id === null ? 'Sites in no group' : `Sites in ${name}`}
                      emptyText={id === null ? 'Every site is in a group.' : `No site is directly in ${name}.`}
                      selection={selection}
                    />
                  )}
                />
              </section>
            )
          }
        />
        {selection && selected.size > 0 ? (
          <MoveSitesBar
            orgId={orgId}
            siteIds={[...selected.keys()]}
            targets={moveTargets}
            allowNoGroup={managed === 'all'}
            onMoved={(moved) => {
              setSelected(new Map());
              setNotice(moved);
            }}
            onClear={() => setSelected(new Map())}
          />
        ) : null}
      </div>
    </ContentLayout>
  );
}
