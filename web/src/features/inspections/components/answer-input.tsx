import type { TemplateItem } from '@schemas/templates';
import { itemFails } from '@schemas/template-items';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { CharacterCount, useCharacterLimit } from '@/components/ui/character-count';
import { numberField } from '@/lib/form-values';
import { passFailChoices, yesNoChoices, type AnswerChoice } from '../utils/answer-values';

// The signature pad loads when an item that needs it is shown (most sections have none).
const SignaturePad = lazy(() => import('./signature-pad').then((module) => ({ default: module.SignaturePad })));

export interface AnswerInputProps {
  item: TemplateItem;
  value: unknown;
  /** Labels the controls: the item's label element. */
  labelId: string;
  /** The control a label points at (number, text, date). */
  controlId: string;
  describedBy?: string;
  invalid: boolean;
  disabled: boolean;
  /** A new value; `immediate` for a tap (saved at once) rather than typing (saved after a pause). */
  onChange: (value: unknown, immediate: boolean) => void;
}

/** Big toggle buttons; tapping the chosen one again keeps it (clearing is its own control, "Clear answer"). */
function ToggleChoices({ item, choices, value, labelId, describedBy, disabled, onChange }: AnswerInputProps & { choices: AnswerChoice[] }) {
  return (
    <div className="answer-toggles" role="group" aria-labelledby={labelId} aria-describedby={describedBy}>
      {choices.map((choice) => (
        <button
          key={choice.value}
          type="button"
          // Coloured by what the choice means for this item: red only where it fails it.
          className={`answer-toggle${itemFails(item, choice.value) ? ' answer-toggle-failing' : ''}${choice.value === 'na' ? ' answer-toggle-neutral' : ''}`}
          aria-pressed={value === choice.value}
          disabled={disabled}
          onClick={() => {
            if (value !== choice.value) onChange(choice.value, true);
          }}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}

/** The text of a number field: what the user typed, until the saved value says otherwise. */
function NumberInput({ item, value, controlId, describedBy, invalid, disabled, onChange }: AnswerInputProps) {
  const shown = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const [text, setText] = useState(shown);
  useEffect(() => {
    // Another person's value, or ours saved: follow it unless it is what we typed.
    setText((typed) => (Number(typed.replace(',', '.')) === value ? typed : shown));
  }, [shown, value]);
  const unit = item.kind === 'number' ? item.unit : null;
  return (
    <div className="answer-number">
      <input
        id={controlId}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onChange={(event) => {
          setText(event.target.value);
          // Not a number: kept as text so the schema says what is wrong.
          onChange(numberField(event.target.value, null), false);
        }}
      />
      {unit ? <span className="answer-unit">{unit}</span> : null}
    </div>
  );
}

function ChoiceInputs({ item, value, labelId, describedBy, disabled, onChange }: AnswerInputProps) {
  const name = useId();
  if (item.kind !== 'single_choice' && item.kind !== 'multi_choice') return null;
  const multiple = item.kind === 'multi_choice';
  const chosen = new Set(multiple ? (Array.isArray(value) ? (value as string[]) : []) : typeof value === 'string' ? [value] : []);
  return (
    <div className="answer-choices" role={multiple ? 'group' : 'radiogroup'} aria-labelledby={labelId} aria-describedby={describedBy}>
      {item.options.map((option) => (
        <label key={option} className="answer-choice">
          <input
            type={multiple ? 'checkbox' : 'radio'}
            name={name}
            value={option}
            checked={chosen.has(option)}
            disabled={disabled}
            onChange={(event) => {
              if (!multiple) return onChange(option, true);
              const next = item.options.filter((candidate) => (candidate === option ? event.target.checked : chosen.has(candidate)));
              onChange(next.length === 0 ? null : next, true);
            }}
          />
          <span>{option}</span>
        </label>
      ))}
    </div>
  );
}

const TEXT_MAX = 4000;

/** A text answer, with its limit in sight near it. */
function TextAnswer({ value, controlId, describedBy, invalid, disabled, onChange }: AnswerInputProps) {
  const text = typeof value === 'string' ? value : '';
  const limit = useCharacterLimit(TEXT_MAX);
  return (
    <div>
      <textarea
        id={controlId}
        className="answer-text"
        rows={3}
        maxLength={TEXT_MAX}
        value={text}
        disabled={disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        onPaste={limit.onPaste}
        onChange={(event) => {
          limit.onEdit();
          onChange(event.target.value.trim() === '' ? null : event.target.value, false);
        }}
      />
      <CharacterCount length={text.length} max={TEXT_MAX} kept={limit.kept} />
    </div>
  );
}

/** The control for an item's kind, sized for a thumb. Photos are attachments (PhotoEvidence). */
export function AnswerInput(props: AnswerInputProps) {
  const { item, value, controlId, describedBy, invalid, disabled, onChange } = props;
  switch (item.kind) {
    case 'pass_fail':
      return <ToggleChoices {...props} choices={passFailChoices} />;
    case 'yes_no':
      return <ToggleChoices {...props} choices={yesNoChoices} />;
    case 'number':
      return <NumberInput {...props} />;
    case 'text':
      return <TextAnswer {...props} />;
    case 'single_choice':
    case 'multi_choice':
      return <ChoiceInputs {...props} />;
    case 'date':
      return (
        <input
          id={controlId}
          className="answer-date"
          type="date"
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.value === '' ? null : event.target.value, true)}
        />
      );
    case 'signature':
      return (
        <Suspense
          fallback={
            <div className="signature">
              <div className="signature-canvas" aria-hidden="true" />
            </div>
          }
        >
          <SignaturePad {...props} />
        </Suspense>
      );
    case 'photo':
      return null;
  }
}
