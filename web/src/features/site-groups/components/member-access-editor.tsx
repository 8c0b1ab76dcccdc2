import type { Member } from '@schemas/members';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { describeError, type UserFacingError } from '@/lib/errors';
import { useSetMemberAccess } from '../api/set-member-access';
import { accessSummary, normalizeSelection, type GroupTree } from '../utils/group-tree';
import { SiteAccessField, type SiteAccessChoice } from './site-access-field';

/** What a member sees, in words: "All sites" for owners, admins and org-wide members, else their groups. */
export function memberAccessText(member: Pick<Member, 'role' | 'org_wide' | 'site_group_ids'>, tree: GroupTree | undefined): string {
  if (member.org_wide || member.role === 'owner' || member.role === 'admin') return 'All sites';
  if (!tree) return member.site_group_ids.length === 1 ? '1 group' : `${member.site_group_ids.length} groups`;
  return accessSummary(tree, member.site_group_ids);
}

/** The choice a limited member's groups make: none ticked stays limited (and sees no site). */
export function accessChoiceOf(member: Pick<Member, 'org_wide' | 'site_group_ids'>): SiteAccessChoice {
  return member.org_wide ? { limited: false, groupIds: [] } : { limited: true, groupIds: member.site_group_ids };
}

/** "Choose at least one group" when limited to none: an empty list would mean every site. */
export const NO_GROUP_CHOSEN = 'Tick at least one group, or choose every site.';

interface MemberAccessEditorProps {
  orgId: string;
  member: Member;
  name: string;
  tree: GroupTree | undefined;
  /** Where groups are made, for an organization without any. */
  noGroups: ReactNode;
  onDone: (notice?: string) => void;
}

/** Every site, or only the chosen groups' (and their subgroups'): `PUT …/members/{user_id}/access`. */
export function MemberAccessEditor({ orgId, member, name, tree, noGroups, onDone }: MemberAccessEditorProps) {
  const setAccess = useSetMemberAccess();
  const [choice, setChoice] = useState<SiteAccessChoice>(() => accessChoiceOf(member));
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const siteGroupIds = choice.limited && tree ? normalizeSelection(tree, choice.groupIds) : [];
    if (choice.limited && siteGroupIds.length === 0) return setFailure({ fieldErrors: { site_group_ids: NO_GROUP_CHOSEN } });
    setFailure(null);
    setAccess.mutate(
      { orgId, userId: member.user_id, siteGroupIds },
      {
        onSuccess: (saved) => onDone(saved.org_wide ? `${name} now sees every site.` : `${name} now sees the sites in ${memberAccessText(saved, tree)}.`),
        onError: (error) => setFailure(describeError(error)),
      },
    );
  }

  // The groups' message beside them; any other field's, or a refusal of the whole request, above.
  const { site_group_ids: fieldError, ...otherFields } = failure?.fieldErrors ?? {};
  const others = Object.values(otherFields);
  const message = others.length > 0 ? others.join(' ') : fieldError ? undefined : failure?.message;

  return (
    <form className="form member-access-editor" onSubmit={submit} noValidate aria-label={`Sites ${name} sees`}>
      <FormAlert message={message} />
      <SiteAccessField
        legend={`Sites ${name} sees`}
        name="site_group_ids"
        tree={tree}
        value={choice}
        onChange={(next) => {
          setChoice(next);
          if (fieldError) setFailure(null);
        }}
        error={fieldError}
        noGroups={noGroups}
      />
      <div className="button-row">
        <Button type="submit" pending={setAccess.isPending}>
          Save access
        </Button>
        <Button variant="secondary" onClick={() => onDone()}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
