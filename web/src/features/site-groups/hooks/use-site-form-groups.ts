import { useMemo } from 'react';
import { managedGroupIds } from '../utils/group-tree';
import { useGroupTree } from './use-group-tree';

export interface SiteFormGroupChoices {
  choices: Array<{ value: string; label: string }>;
  allowNone: boolean;
}

/**
 * The groups a manager may put a site in, for the site form: every group and "No group" when
 * org-wide, only their own groups and those under them when limited. Undefined while the groups
 * load, and for an organization without any (the form then has no group field).
 */
export function useSiteFormGroups(orgId: string, access: { orgWide: boolean; groupIds: readonly string[] }): SiteFormGroupChoices | undefined {
  const { tree, choices } = useGroupTree(orgId);
  const accessKey = access.orgWide ? 'org-wide' : access.groupIds.join(',');
  return useMemo(() => {
    if (!tree || !choices || choices.length === 0) return undefined;
    const managed = managedGroupIds(tree, access);
    return {
      choices: managed === 'all' ? choices : choices.filter((choice) => managed.has(choice.value)),
      allowNone: managed === 'all',
    };
    // access is read through accessKey.
  }, [tree, choices, accessKey]);
}
