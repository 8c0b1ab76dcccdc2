import { canOpenActions } from '@schemas/action-states';
import type { Member } from '@schemas/members';
import { useMemo } from 'react';
import { useMembers } from '../features/members/api/get-members';
import { useAllPages } from '../features/inspections/hooks/use-all-pages';

export interface Choice {
  value: string;
  label: string;
}

const everyone = () => true;

/** Who can be given an action: a member who works actions (not a viewer). */
export const worksActions = (member: Member) => canOpenActions(member.role);

/** The organization's members (those `include` keeps; pass a module-level predicate) as choices for a picker. */
export function useMemberChoices(orgId: string, include: (member: Member) => boolean = everyone): Choice[] {
  const members = useMembers(orgId);
  // Members are few enough to list completely.
  useAllPages(members);
  return useMemo(
    () =>
      (members.data?.pages.flatMap((page) => page.data) ?? [])
        .filter(include)
        .map((member) => ({ value: member.user_id, label: member.display_name || member.email || 'A member' })),
    [members.data, include],
  );
}
