import {
  HELP_MAX_LENGTH,
  LABEL_MAX_LENGTH,
  MAX_OPTIONS,
  MAX_PHOTOS_PER_ITEM,
  OPTION_MAX_LENGTH,
  UNIT_MAX_LENGTH,
  type ConditionOp,
  type ItemKind,
} from '@schemas/templates';
import { Plus, Trash2, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { TextAreaField } from '@/components/ui/textarea-field';
import { useField } from '@/components/ui/use-field';
import { itemName, newOption, type DraftItem, type DraftOption } from '../utils/draft';
import { itemKindDescriptions, itemKindLabels } from '../utils/template-format';
import { MoveButtons } from './move-buttons';
import { RuleEditor } from './rule-editor';

export interface ItemEditorProps {
  item: DraftItem;
  /** Field path of the item in the request, e.g. `definition.sections.0.items.3`. */
  path: string;
  /** 1-based place in its section. */
  position: number;
  count: number;
  errors: Record<string, string>;
  onChange: (patch: Partial<DraftItem>) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  /** Asks the editor to focus the control marked `data-focus={key}` once it is rendered. */
  focusLater: (key: string) => void;
  /** The items before this one (earlier sections' and its own section's), which its rule may test. */
  earlier: DraftItem[];
  /** Every item of the draft by key. */
  items: Map<string, DraftItem>;
  /** The tests each item may be put to, by key. */
  opsByKey: Map<string, ConditionOp[]>;
}

// Kinds whose answers never fail, so their weight never counts (docs/product.md §3, docs/templates.md).
const neverScored = new Set<ItemKind>(['text', 'date', 'photo', 'signature']);

const failOnOptions = [
  { value: '', label: 'Never (not scored)' },
  { value: 'yes', label: 'Yes' },
  { value: 'no', label: 'No' },
];

export function ItemEditor({ item, path, position, count, errors, onChange, onMove, onRemove, focusLater, earlier, items, opsByKey }: ItemEditorProps) {
  const name = itemName(item, position);
  // A weight problem of a kind whose weight isn't shown belongs to the item.
  const itemError = errors[path] ?? (neverScored.has(item.kind) ? errors[`${path}.weight`] : undefined);
  return (
    <li className="template-item">
      <fieldset className="template-item-fieldset" aria-describedby={itemError ? `${item.key}-error` : undefined}>
        <legend className="template-item-legend">
          Item {position} · {itemKindLabels[item.kind]}
        </legend>
        <div className="template-item-tools">
          <MoveButtons name={name} focusKey={`item:${item.key}`} first={position === 1} last={position === count} onMove={onMove} />
          <Button variant="danger" className="button-icon" aria-label={`Remove ${name}`} onClick={onRemove}>
            <Trash2 aria-hidden="true" size={18} />
          </Button>
        </div>
        {itemError ? (
          <p id={`${item.key}-error`} className="field-error" role="alert">
            {itemError}
          </p>
        ) : null}
        <p className="muted template-item-kind">{itemKindDescriptions[item.kind]}</p>
        <TextField
          label="Label"
          name={`${path}.label`}
          data-focus={`item:${item.key}:label`}
          required
          maxLength={LABEL_MAX_LENGTH}
          value={item.label}
          onChange={(event) => onChange({ label: event.target.value })}
          placeholder="What the inspector checks"
          error={errors[`${path}.label`]}
        />
        <TextAreaField
          label="Help text"
          name={`${path}.help`}
          maxLength={HELP_MAX_LENGTH}
          value={item.help}
          onChange={(event) => onChange({ help: event.target.value })}
          hint="Optional: how to check it, shown under the label."
          error={errors[`${path}.help`]}
        />
        <div className="form-row template-item-row">
          {neverScored.has(item.kind) ? null : (
            <TextField
              label="Weight"
              name={`${path}.weight`}
              inputMode="decimal"
              value={item.weight}
              onChange={(event) => onChange({ weight: event.target.value })}
              hint="Points in the score when it can fail, 0–100."
              error={errors[`${path}.weight`]}
            />
          )}
          <CheckboxField
            label="Required"
            name={`${path}.required`}
            checked={item.required}
            onChange={(event) => onChange({ required: event.target.checked })}
            hint="Must be answered before submitting."
            error={errors[`${path}.required`]}
          />
        </div>
        <KindSettings item={item} path={path} errors={errors} onChange={onChange} focusLater={focusLater} />
        <RuleEditor
          rule={item.rule}
          path={path}
          owner="item"
          ownerKey={item.key}
          ownerName={name}
          earlier={earlier}
          items={items}
          opsByKey={opsByKey}
          errors={errors}
          onChange={(rule) => onChange({ rule })}
          focusLater={focusLater}
        />
      </fieldset>
    </li>
  );
}

type KindSettingsProps = Pick<ItemEditorProps, 'item' | 'path' | 'errors' | 'onChange' | 'focusLater'>;

function KindSettings({ item, path, errors, onChange, focusLater }: KindSettingsProps) {
  switch (item.kind) {
    case 'yes_no':
      return (
        <SelectField
          label="Fails when answered"
          name={`${path}.fail_on`}
          options={failOnOptions}
          value={item.failOn}
          onChange={(event) => onChange({ failOn: event.target.value as DraftItem['failOn'] })}
          error={errors[`${path}.fail_on`]}
        />
      );
    case 'number':
      return (
        <div className="form-row template-number-row">
          <TextField
            label="Minimum"
            name={`${path}.min`}
            inputMode="decimal"
            value={item.min}
            onChange={(event) => onChange({ min: event.target.value })}
            hint="Optional."
            error={errors[`${path}.min`]}
          />
          <TextField
            label="Maximum"
            name={`${path}.max`}
            inputMode="decimal"
            value={item.max}
            onChange={(event) => onChange({ max: event.target.value })}
            hint="Optional."
            error={errors[`${path}.max`]}
          />
          <TextField
            label="Unit"
            name={`${path}.unit`}
            maxLength={UNIT_MAX_LENGTH}
            value={item.unit}
            onChange={(event) => onChange({ unit: event.target.value })}
            hint="Optional, e.g. °C."
            error={errors[`${path}.unit`]}
          />
        </div>
      );
    case 'single_choice':
    case 'multi_choice':
      return <OptionsEditor item={item} path={path} errors={errors} onChange={onChange} focusLater={focusLater} />;
    case 'photo':
      return (
        <TextField
          label="Maximum photos"
          name={`${path}.max_photos`}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_PHOTOS_PER_ITEM}
          step={1}
          value={item.maxPhotos}
          onChange={(event) => onChange({ maxPhotos: event.target.value })}
          hint={`From 1 to ${MAX_PHOTOS_PER_ITEM}.`}
          error={errors[`${path}.max_photos`]}
        />
      );
    default:
      return null;
  }
}

function OptionsEditor({ item, path, errors, onChange, focusLater }: KindSettingsProps) {
  const options = item.options;
  const listError = errors[`${path}.options`];
  const listField = useField('Tick “Fails” for the answers that fail the item.', listError);

  function setOptions(next: DraftOption[]) {
    onChange({ options: next });
  }

  function addOption() {
    const option = newOption();
    setOptions([...options, option]);
    focusLater(`option:${item.key}:${option.id}`);
  }

  function removeOption(index: number) {
    const next = options.filter((_, i) => i !== index);
    setOptions(next);
    // Focus stays in the list: on the option that took its place, or the one before, or "Add option".
    const neighbour = next[Math.min(index, next.length - 1)];
    focusLater(neighbour ? `option:${item.key}:${neighbour.id}` : `options:${item.key}:add`);
  }

  return (
    <fieldset className="fieldset template-options" aria-describedby={listField.controlProps['aria-describedby']}>
      <legend>Options</legend>
      {listField.hint}
      {options.length > 0 ? (
        <ol className="template-option-list">
          {options.map((option, index) => (
            <OptionRow
              key={option.id}
              option={option}
              position={index + 1}
              itemKey={item.key}
              name={`${path}.options.${index}`}
              error={errors[`${path}.options.${index}`]}
              onChange={(patch) => setOptions(options.map((candidate, i) => (i === index ? { ...candidate, ...patch } : candidate)))}
              onRemove={() => removeOption(index)}
            />
          ))}
        </ol>
      ) : null}
      {listField.error}
      <div>
        <Button variant="secondary" data-focus={`options:${item.key}:add`} disabled={options.length >= MAX_OPTIONS} onClick={addOption}>
          <Plus aria-hidden="true" size={18} />
          Add option
        </Button>
      </div>
    </fieldset>
  );
}

interface OptionRowProps {
  option: DraftOption;
  position: number;
  itemKey: string;
  name: string;
  error?: string;
  onChange: (patch: Partial<DraftOption>) => void;
  onRemove: () => void;
}

function OptionRow({ option, position, itemKey, name, error, onChange, onRemove }: OptionRowProps) {
  const field = useField(undefined, error);
  return (
    <li className="template-option">
      <div className="template-option-row">
        <input
          className="template-option-text"
          name={name}
          aria-label={`Option ${position}`}
          data-focus={`option:${itemKey}:${option.id}`}
          maxLength={OPTION_MAX_LENGTH}
          value={option.text}
          onChange={(event) => onChange({ text: event.target.value })}
          {...field.controlProps}
        />
        <span className="template-option-controls">
          <label className="template-option-fails">
            <input
              type="checkbox"
              aria-label={`Option ${position} fails`}
              checked={option.fails}
              onChange={(event) => onChange({ fails: event.target.checked })}
            />
            <span aria-hidden="true">Fails</span>
          </label>
          <Button variant="secondary" className="button-icon" aria-label={`Remove option ${position}`} onClick={onRemove}>
            <X aria-hidden="true" size={18} />
          </Button>
        </span>
      </div>
      {field.error}
    </li>
  );
}
