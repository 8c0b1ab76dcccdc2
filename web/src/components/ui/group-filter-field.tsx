import { errorCatalogue, formatWording } from '@schemas/errors';
import { Button } from './button';
import { SelectField } from './select-field';

export interface GroupFilterChoice {
  value: string;
  label: string;
}

interface GroupFilterFieldProps {
  /** The groups, each named by its path ("North › Harbour"); undefined while they load. */
  choices: readonly GroupFilterChoice[] | undefined;
  /** The chosen group's id; '' for every site. */
  value: string;
  onChange: (groupId: string) => void;
  label?: string;
  disabled?: boolean;
}

/**
 * "Group": every site, or one group and the groups under it (`?group=<id>` in the screen's URL,
 * docs/site-groups.md "Screens"). While the groups load, a chosen group holds its place.
 */
export function GroupFilterField({ choices, value, onChange, label = 'Group', disabled }: GroupFilterFieldProps) {
  const options = [{ value: '', label: 'All sites' }, ...(choices ?? [])];
  if (value !== '' && !options.some((option) => option.value === value)) {
    options.push({ value, label: choices ? 'Unknown group' : 'Loading groups…' });
  }
  return <SelectField label={label} name="group" options={options} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value)} />;
}

const groupNotFound = formatWording(errorCatalogue.not_found.title, { thing: 'group' });

/** A group in the URL that is not one of the caller's (deleted, or outside their sites): said so, with the way back. */
export function GroupFilterNotFound({ choices, value, onClear }: { choices: readonly GroupFilterChoice[] | undefined; value: string; onClear: () => void }) {
  if (value === '' || !choices || choices.some((choice) => choice.value === value)) return null;
  return (
    <div className="form-alert form-alert-error group-filter-not-found" role="alert">
      <p>{groupNotFound} It may have been deleted, or it is not one of yours.</p>
      <div>
        <Button variant="secondary" onClick={onClear}>
          Show all sites
        </Button>
      </div>
    </div>
  );
}
