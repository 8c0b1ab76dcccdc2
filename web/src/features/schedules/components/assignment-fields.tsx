import { MoveDown, MoveUp, X } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';

export interface PersonChoice {
  value: string;
  label: string;
}

export type AssignmentKind = 'anyone' | 'person' | 'rotation';

export interface Assignment {
  kind: AssignmentKind;
  assigneeId: string;
  /** In turn order; someone may appear twice (twice as often). */
  rotation: string[];
}

interface AssignmentFieldsProps {
  assignment: Assignment;
  onChange: (assignment: Assignment) => void;
  /** Members who may fill in inspections. */
  people: PersonChoice[];
  errors: { assignee_id?: string; rotation_user_ids?: string };
}

const KIND_LABELS: Record<AssignmentKind, string> = {
  anyone: 'Anyone: any inspector may claim each occurrence',
  person: 'One person',
  rotation: 'A rotation: people take the occurrences in turn',
};

/** Who does the occurrences: anyone who claims them, one person, or people in turn. */
export function AssignmentFields({ assignment, onChange, people, errors }: AssignmentFieldsProps) {
  const id = useId();
  const [adding, setAdding] = useState('');
  const set = (changes: Partial<Assignment>) => onChange({ ...assignment, ...changes });
  const nameOf = (userId: string) => people.find((person) => person.value === userId)?.label ?? 'A former member';
  const move = (index: number, delta: -1 | 1) => {
    const rotation = [...assignment.rotation];
    [rotation[index], rotation[index + delta]] = [rotation[index + delta], rotation[index]];
    set({ rotation });
  };
  return (
    <fieldset className="fieldset">
      <legend>Assigned to</legend>
      {(Object.keys(KIND_LABELS) as AssignmentKind[]).map((kind) => (
        <label key={kind} className="checkbox-row">
          <input type="radio" name={`${id}-assignment`} checked={assignment.kind === kind} onChange={() => set({ kind })} />
          {KIND_LABELS[kind]}
        </label>
      ))}
      {assignment.kind === 'person' ? (
        <SelectField
          label="Person"
          name="assignee_id"
          options={[{ value: '', label: people.length === 0 ? 'Loading members…' : 'Choose a person' }, ...people]}
          value={assignment.assigneeId}
          onChange={(event) => set({ assigneeId: event.target.value })}
          error={errors.assignee_id}
        />
      ) : null}
      {assignment.kind === 'rotation' ? (
        <div className="stack">
          {assignment.rotation.length > 0 ? (
            <ol className="rotation-list" aria-label="Rotation, in turn order">
              {assignment.rotation.map((userId, index) => (
                <li key={`${userId}-${index}`}>
                  <span className="rotation-name">{nameOf(userId)}</span>
                  <span className="button-row rotation-buttons">
                    <Button variant="secondary" className="icon-button" aria-label={`Move ${nameOf(userId)} earlier`} disabled={index === 0} onClick={() => move(index, -1)}>
                      <MoveUp aria-hidden="true" size={18} />
                    </Button>
                    <Button
                      variant="secondary"
                      className="icon-button"
                      aria-label={`Move ${nameOf(userId)} later`}
                      disabled={index === assignment.rotation.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      <MoveDown aria-hidden="true" size={18} />
                    </Button>
                    <Button
                      variant="secondary"
                      className="icon-button"
                      aria-label={`Take ${nameOf(userId)} out of the rotation`}
                      onClick={() => set({ rotation: assignment.rotation.filter((_, i) => i !== index) })}
                    >
                      <X aria-hidden="true" size={18} />
                    </Button>
                  </span>
                </li>
              ))}
            </ol>
          ) : (
            <p className="muted">Nobody in the rotation yet.</p>
          )}
          <div className="form-row form-row-end">
            <SelectField
              label="Add to the rotation"
              name="rotation_user_ids"
              options={[{ value: '', label: 'Choose a person' }, ...people]}
              value={adding}
              onChange={(event) => setAdding(event.target.value)}
              error={errors.rotation_user_ids}
              hint="The first occurrence goes to the first person, the next to the second, and so on, at every site alike."
            />
            <div>
              <Button
                variant="secondary"
                disabled={adding === ''}
                onClick={() => {
                  set({ rotation: [...assignment.rotation, adding] });
                  setAdding('');
                }}
              >
                Add
              </Button>
            </div>
          </div>
        </div>
      ) : null}
    </fieldset>
  );
}
