import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { describeErrorSentence } from '@/lib/errors';
import { newIdempotencyKey } from '@/lib/idempotency-key';
import { SITES_PER_MOVE, useMoveSites } from '../api/move-sites';
import type { GroupChoice } from '../utils/group-tree';

const NO_GROUP = 'none';

interface MoveSitesBarProps {
  orgId: string;
  /** The ticked sites' ids. */
  siteIds: string[];
  /** The groups they may go to. */
  targets: GroupChoice[];
  /** Whether "No group" is offered (org-wide managers: a limited one would lose sight of the sites). */
  allowNoGroup: boolean;
  onMoved: (notice: string) => void;
  onClear: () => void;
}

/** Kept at the bottom while sites are ticked: how many, where to, Move, and a way to untick them all. */
export function MoveSitesBar({ orgId, siteIds, targets, allowNoGroup, onMoved, onClear }: MoveSitesBarProps) {
  const moveSites = useMoveSites();
  const options = [{ value: '', label: 'Choose a group' }, ...targets, ...(allowNoGroup ? [{ value: NO_GROUP, label: 'No group' }] : [])];
  const [target, setTarget] = useState('');
  const [error, setError] = useState<string | undefined>();
  const count = `${siteIds.length} ${siteIds.length === 1 ? 'site' : 'sites'}`;

  async function move() {
    if (target === '') return setError('Choose where to move them.');
    setError(undefined);
    const groupId = target === NO_GROUP ? null : target;
    try {
      // The api moves at most SITES_PER_MOVE at once; more go in turn, each a request of its own.
      for (let start = 0; start < siteIds.length; start += SITES_PER_MOVE) {
        await moveSites.mutateAsync({ orgId, groupId, siteIds: siteIds.slice(start, start + SITES_PER_MOVE), idempotencyKey: newIdempotencyKey() });
      }
      const where = groupId === null ? 'out of their groups' : `to ${targets.find((choice) => choice.value === groupId)?.label ?? 'the group'}`;
      setTarget('');
      onMoved(`${count} moved ${where}.`);
    } catch (cause) {
      setError(describeErrorSentence(cause));
    }
  }

  return (
    <div className="sticky-bar move-sites-bar" role="region" aria-label="Move the ticked sites">
      <p className="move-sites-count" role="status">
        {count} ticked
      </p>
      <div className="move-sites-controls">
        <SelectField label="Move to" name="move_to" options={options} value={target} onChange={(event) => setTarget(event.target.value)} />
        <Button onClick={() => void move()} pending={moveSites.isPending}>
          Move
        </Button>
        <Button variant="secondary" onClick={onClear} disabled={moveSites.isPending}>
          Untick all
        </Button>
      </div>
      <FormAlert message={error} />
    </div>
  );
}
