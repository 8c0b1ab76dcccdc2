import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { describeError, type UserFacingError } from '@/lib/errors';
import { useIdempotencyKey } from '@/lib/idempotency-key';
import { useCreateSiteGroup, useDeleteSiteGroup, useUpdateSiteGroup } from '../api/save-site-group';
import type { SiteGroup } from '../types';
import type { GroupChoice, GroupNode } from '../utils/group-tree';

const NAME_MAX_LENGTH = 120;
const TOP_LEVEL = '';

/** Where a group may go: the top level (when the caller may put one there) and the groups offered. */
export interface ParentOptions {
  topLevel: boolean;
  groups: GroupChoice[];
}

function parentSelectOptions({ topLevel, groups }: ParentOptions) {
  return [...(topLevel ? [{ value: TOP_LEVEL, label: 'Top level (no group above)' }] : []), ...groups];
}

/** The name as the api takes it (1–120 characters, trimmed), or why not, in the api's words. */
function nameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (trimmed === '') return 'Enter a group name.';
  if (trimmed.length > NAME_MAX_LENGTH) return `Use at most ${NAME_MAX_LENGTH} characters.`;
  return undefined;
}

/** The api's problem as the form shows it: the fields' messages beside them, the rest above. */
function placed(failure: UserFacingError): UserFacingError {
  const { name, parent_id, ...others } = failure.fieldErrors;
  const fieldErrors: Record<string, string> = {};
  if (name) fieldErrors.name = name;
  if (parent_id) fieldErrors.parent_id = parent_id;
  const elsewhere = Object.values(others);
  // The fields' own messages say it all; a refusal of the whole group (its deletion) is said above.
  const message = elsewhere.length > 0 ? elsewhere.join(' ') : Object.keys(fieldErrors).length > 0 ? undefined : failure.message;
  return { ...failure, message, fieldErrors };
}

interface NewGroupFormProps {
  orgId: string;
  parents: ParentOptions;
  onCreated: (group: SiteGroup) => void;
  onCancel: () => void;
}

/** A new group: its name and where it goes. */
export function NewGroupForm({ orgId, parents, onCreated, onCancel }: NewGroupFormProps) {
  const createGroup = useCreateSiteGroup();
  const idempotency = useIdempotencyKey();
  const options = parentSelectOptions(parents);
  const [name, setName] = useState('');
  const [parentId, setParentId] = useState(options[0]?.value ?? TOP_LEVEL);
  const [failure, setFailure] = useState<UserFacingError | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setFailure({ fieldErrors: { name: problem } });
    const body = { name: name.trim(), parent_id: parentId === TOP_LEVEL ? null : parentId };
    setFailure(null);
    createGroup.mutate(
      { orgId, body, idempotencyKey: idempotency.keyFor(body) },
      {
        onSuccess: (group) => {
          idempotency.reset();
          onCreated(group);
        },
        onError: (error) => setFailure(placed(describeError(error))),
      },
    );
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="New group">
      <FormAlert message={failure?.message} />
      <div className="form-row">
        <TextField
          label="Name"
          name="name"
          value={name}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="off"
          placeholder="North region"
          onChange={(event) => setName(event.target.value)}
          error={failure?.fieldErrors.name}
        />
        <SelectField
          label="Inside"
          name="parent_id"
          options={options}
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
          hint="Groups go at most three levels deep."
          error={failure?.fieldErrors.parent_id}
        />
      </div>
      <div className="button-row">
        <Button type="submit" pending={createGroup.isPending}>
          Add group
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

interface GroupEditorProps {
  orgId: string;
  node: GroupNode;
  parents: ParentOptions;
  onDone: (notice?: string) => void;
}

/** A group's name and place, and its deletion (refused while sites or subgroups are in it). */
export function GroupEditor({ orgId, node, parents, onDone }: GroupEditorProps) {
  const { group } = node;
  const updateGroup = useUpdateSiteGroup();
  const deleteGroup = useDeleteSiteGroup();
  const options = parentSelectOptions(parents);
  const currentParent = group.parent_id ?? TOP_LEVEL;
  // Where it is now stays offered even where the caller could not put it (a limited manager's group's parent).
  if (!options.some((option) => option.value === currentParent)) options.unshift({ value: currentParent, label: currentParent === TOP_LEVEL ? 'Top level (no group above)' : 'Where it is now' });
  const [name, setName] = useState(group.name);
  const [parentId, setParentId] = useState(currentParent);
  const [failure, setFailure] = useState<UserFacingError | null>(null);
  const empty = node.children.length === 0 && group.site_count === 0;

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = nameProblem(name);
    if (problem) return setFailure({ fieldErrors: { name: problem } });
    const body: { name?: string; parent_id?: string | null } = {};
    if (name.trim() !== group.name) body.name = name.trim();
    if (parentId !== currentParent) body.parent_id = parentId === TOP_LEVEL ? null : parentId;
    if (Object.keys(body).length === 0) return onDone();
    setFailure(null);
    updateGroup.mutate(
      { orgId, groupId: group.id, body },
      {
        onSuccess: (saved) => onDone(`${saved.name} was saved.`),
        onError: (error) => setFailure(placed(describeError(error))),
      },
    );
  }

  function remove() {
    setFailure(null);
    deleteGroup.mutate(
      { orgId, groupId: group.id },
      {
        onSuccess: () => onDone(`${group.name} was deleted.`),
        onError: (error) => setFailure(placed(describeError(error))),
      },
    );
  }

  return (
    <form className="form group-editor" onSubmit={submit} noValidate aria-label={`Edit the group ${group.name}`}>
      <FormAlert message={failure?.message} />
      <div className="form-row">
        <TextField
          label="Name"
          name="name"
          value={name}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="off"
          onChange={(event) => setName(event.target.value)}
          error={failure?.fieldErrors.name}
        />
        <SelectField
          label="Inside"
          name="parent_id"
          options={options}
          value={parentId}
          onChange={(event) => setParentId(event.target.value)}
          error={failure?.fieldErrors.parent_id}
        />
      </div>
      <div className="button-row group-editor-buttons">
        <Button type="submit" pending={updateGroup.isPending}>
          Save group
        </Button>
        <Button variant="secondary" onClick={() => onDone()}>
          Cancel
        </Button>
        <ConfirmButton
          label={`Delete the group ${group.name}`}
          question={empty ? `Delete ${group.name}?` : `Delete ${group.name}? Move its sites and subgroups out first.`}
          confirmText="Yes, delete"
          pending={deleteGroup.isPending}
          onConfirm={remove}
        >
          Delete group
        </ConfirmButton>
      </div>
    </form>
  );
}
