import { useEffect } from 'react';
import { useMemberChoices, worksActions, type Choice } from '../use-member-choices';

/** Reads who can be given an action and hands the list to the run page (which loads this lazily). */
export function AssigneeChoices({ orgId, onChoices }: { orgId: string; onChoices: (choices: Choice[]) => void }) {
  const choices = useMemberChoices(orgId, worksActions);
  useEffect(() => onChoices(choices), [choices, onChoices]);
  return null;
}
