import {
  conditionOpsFor,
  MAX_CONDITIONS,
  type ConditionOp,
  type TemplateItem,
  type VisibilityCondition,
  type VisibilityRule,
} from '@schemas/templates';
import { Plus, Split, X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { numberField } from '@/lib/form-values';
import { conditionBody, newCondition, type DraftCondition, type DraftItem, type DraftRule } from '../utils/draft';
import { answerChoicesOf, opWords, ruleWords } from '../utils/rule-format';

/** The draft item as the shared rules read it: kind, scoring settings and options. */
function asTemplateItem(item: DraftItem): TemplateItem {
  const bound = (text: string) => {
    const value = numberField(text, null);
    return typeof value === 'number' ? value : null;
  };
  return {
    key: item.key,
    kind: item.kind,
    label: item.label,
    help: null,
    required: item.required,
    weight: 1,
    fail_on: item.failOn === '' ? null : item.failOn,
    min: bound(item.min),
    max: bound(item.max),
    unit: null,
    options: item.options.map((option) => option.text.trim()),
    failing_options: item.options.filter((option) => option.fails).map((option) => option.text.trim()),
    max_photos: 1,
  } as TemplateItem;
}

/** The tests a rule may put a draft item to (none for photos). */
export function draftOpsFor(item: DraftItem): ConditionOp[] {
  return conditionOpsFor(asTemplateItem(item));
}

/** Whether a condition has its test and every field that test needs. */
function conditionComplete(condition: DraftCondition): boolean {
  switch (condition.op) {
    case '':
      return false;
    case 'equals':
    case 'not_equals':
    case 'less_than':
    case 'greater_than':
      return condition.value !== '';
    case 'one_of':
    case 'none_of':
      return condition.values.length > 0;
    case 'between':
      return condition.min !== '' && condition.max !== '';
    default:
      return true;
  }
}

/** The complete conditions of a draft rule in words, or null while none is complete. */
export function draftRuleWords(rule: DraftRule, items: Map<string, DraftItem>): string | null {
  const complete = rule.conditions
    .filter((condition) => items.get(condition.item) && conditionComplete(condition))
    .map((condition) => conditionBody(condition, items) as VisibilityCondition);
  if (complete.length === 0) return null;
  const words: VisibilityRule = { match: rule.match, conditions: complete };
  return ruleWords(words, (key) => items.get(key));
}

export interface RuleEditorProps {
  rule: DraftRule | null;
  /** Field path of the rule's owner, e.g. `definition.sections.1` or `…items.0`. */
  path: string;
  /** "item" or "section": what the rule shows. */
  owner: 'item' | 'section';
  /** A stable key of the owner, for focus and ids. */
  ownerKey: string;
  /** How the owner's controls name it: "section Kitchen", "Fridge temperature". */
  ownerName: string;
  /** The items a rule here may test: those before the owner. */
  earlier: DraftItem[];
  items: Map<string, DraftItem>;
  /** The tests each item of `items` may be put to, by key (draftOpsFor, worked out once per draft). */
  opsByKey: Map<string, ConditionOp[]>;
  errors: Record<string, string>;
  onChange: (rule: DraftRule | null) => void;
  focusLater: (key: string) => void;
}

/** "Show when …": add, edit and remove the rule of an item or a section, condition by condition. */
export function RuleEditor({ rule, path, owner, ownerKey, ownerName, earlier, items, opsByKey, errors, onChange, focusLater }: RuleEditorProps) {
  const testable = earlier.filter((item) => (opsByKey.get(item.key) ?? []).length > 0);
  const rulePath = `${path}.show_when`;
  const ruleError = errors[rulePath] ?? errors[`${rulePath}.conditions`] ?? errors[`${rulePath}.match`];

  if (!rule) {
    return (
      <div className="rule-none">
        <p className="muted">
          {testable.length === 0
            ? `Always shown. A rule tests answers to earlier items; add ${owner === 'section' ? 'items to an earlier section' : 'an item before this one'} to give it one.`
            : `Always shown.`}
        </p>
        {testable.length > 0 ? (
          <Button
            variant="secondary"
            data-focus={`rule:${ownerKey}:add`}
            aria-label={`Add a rule to ${ownerName}`}
            onClick={() => {
              const condition = newCondition();
              onChange({ match: 'all', conditions: [condition] });
              focusLater(`condition:${condition.id}:item`);
            }}
          >
            <Split aria-hidden="true" size={18} />
            Add a rule
          </Button>
        ) : null}
        {ruleError ? (
          <p className="field-error" role="alert">
            {ruleError}
          </p>
        ) : null}
      </div>
    );
  }

  const words = draftRuleWords(rule, items);
  const setConditions = (conditions: DraftCondition[]) => onChange({ ...rule, conditions });
  return (
    <fieldset className="fieldset rule-fieldset">
      <legend>Show this {owner} when</legend>
      {rule.conditions.length > 1 ? (
        <SelectField
          label="Which conditions"
          name={`${rulePath}.match`}
          options={[
            { value: 'all', label: 'All of these hold' },
            { value: 'any', label: 'Any of these holds' },
          ]}
          value={rule.match}
          onChange={(event) => onChange({ ...rule, match: event.target.value as DraftRule['match'] })}
          error={errors[`${rulePath}.match`]}
        />
      ) : null}
      <ol className="rule-conditions">
        {rule.conditions.map((condition, index) => (
          <ConditionRow
            key={condition.id}
            condition={condition}
            position={index + 1}
            path={`${rulePath}.conditions.${index}`}
            testable={testable}
            items={items}
            opsByKey={opsByKey}
            errors={errors}
            onChange={(patch) => setConditions(rule.conditions.map((candidate, i) => (i === index ? { ...candidate, ...patch } : candidate)))}
            onRemove={() => {
              const next = rule.conditions.filter((_, i) => i !== index);
              if (next.length === 0) {
                onChange(null);
                focusLater(`rule:${ownerKey}:add`);
              } else {
                setConditions(next);
                focusLater(`condition:${next[Math.min(index, next.length - 1)].id}:item`);
              }
            }}
          />
        ))}
      </ol>
      {ruleError ? (
        <p className="field-error" role="alert">
          {ruleError}
        </p>
      ) : null}
      <p className="rule-words" aria-live="polite">
        {words ?? 'Choose an item, a test and an answer.'}
      </p>
      <div className="button-row">
        <Button
          variant="secondary"
          disabled={rule.conditions.length >= MAX_CONDITIONS}
          onClick={() => {
            const condition = newCondition();
            setConditions([...rule.conditions, condition]);
            focusLater(`condition:${condition.id}:item`);
          }}
        >
          <Plus aria-hidden="true" size={18} />
          Add condition
        </Button>
        <Button
          variant="secondary"
          aria-label={`Remove the rule of ${ownerName}`}
          onClick={() => {
            onChange(null);
            focusLater(`rule:${ownerKey}:add`);
          }}
        >
          Remove rule
        </Button>
      </div>
    </fieldset>
  );
}

interface ConditionRowProps {
  condition: DraftCondition;
  position: number;
  path: string;
  testable: DraftItem[];
  items: Map<string, DraftItem>;
  opsByKey: Map<string, ConditionOp[]>;
  errors: Record<string, string>;
  onChange: (patch: Partial<DraftCondition>) => void;
  onRemove: () => void;
}

const itemName = (item: DraftItem, index: number) => item.label.trim() || `Untitled item ${index + 1}`;

function ConditionRow({ condition, position, path, testable, items, opsByKey, errors, onChange, onRemove }: ConditionRowProps) {
  const item = items.get(condition.item);
  const ops = (item && opsByKey.get(item.key)) || [];
  // An item no longer before this one (moved, removed) stays listed so the problem can be seen.
  const itemOptions = [
    { value: '', label: 'Choose an item' },
    ...testable.map((candidate, index) => ({ value: candidate.key, label: itemName(candidate, index) })),
    ...(condition.item && !testable.some((candidate) => candidate.key === condition.item)
      ? [{ value: condition.item, label: item ? `${item.label || 'An item'} (not before this one)` : 'A removed item' }]
      : []),
  ];
  const choices = item ? answerChoicesOf({ kind: item.kind, options: item.options.map((option) => option.text.trim()) }) : [];

  function chooseItem(key: string) {
    const next = items.get(key);
    const nextOps = (next && opsByKey.get(next.key)) || [];
    const keepOp = condition.op !== '' && nextOps.includes(condition.op);
    // Another kind of item: the answers typed for the old one mean nothing to it.
    const sameKind = next && item && next.kind === item.kind;
    onChange({
      item: key,
      op: keepOp ? condition.op : (nextOps[0] ?? ''),
      ...(sameKind ? {} : { value: '', values: [], min: '', max: '' }),
    });
  }

  return (
    <li className="rule-condition">
      <fieldset className="rule-condition-fields">
        <legend className="visually-hidden">Condition {position}</legend>
        <SelectField
          label="Item"
          name={`${path}.item`}
          data-focus={`condition:${condition.id}:item`}
          options={itemOptions}
          value={condition.item}
          onChange={(event) => chooseItem(event.target.value)}
          error={errors[`${path}.item`]}
        />
        {item ? (
          <SelectField
            label="Test"
            name={`${path}.op`}
            options={[
              ...(condition.op === '' || !ops.includes(condition.op as ConditionOp) ? [{ value: condition.op, label: condition.op === '' ? 'Choose a test' : condition.op }] : []),
              ...ops.map((op) => ({ value: op, label: opWords(op, item.kind) })),
            ]}
            value={condition.op}
            onChange={(event) => onChange({ op: event.target.value as ConditionOp })}
            error={errors[`${path}.op`]}
          />
        ) : null}
        {item ? <ConditionAnswer condition={condition} item={item} choices={choices} path={path} errors={errors} onChange={onChange} /> : null}
      </fieldset>
      <Button variant="secondary" className="button-icon rule-condition-remove" aria-label={`Remove condition ${position}`} onClick={onRemove}>
        <X aria-hidden="true" size={18} />
      </Button>
      {errors[path] ? (
        <p className="field-error rule-condition-error" role="alert">
          {errors[path]}
        </p>
      ) : null}
    </li>
  );
}

interface ConditionAnswerProps {
  condition: DraftCondition;
  item: DraftItem;
  choices: Array<[string, string]>;
  path: string;
  errors: Record<string, string>;
  onChange: (patch: Partial<DraftCondition>) => void;
}

function ConditionAnswer({ condition, item, choices, path, errors, onChange }: ConditionAnswerProps) {
  switch (condition.op) {
    case 'equals':
    case 'not_equals':
      if (item.kind === 'number') {
        return (
          <TextField label="Number" name={`${path}.value`} inputMode="decimal" value={condition.value}
            onChange={(event) => onChange({ value: event.target.value })} error={errors[`${path}.value`]} />
        );
      }
      return (
        <SelectField
          label="Answer"
          name={`${path}.value`}
          options={[
            ...(choices.some(([value]) => value === condition.value) ? [] : [{ value: condition.value, label: condition.value === '' ? 'Choose an answer' : `${condition.value} (not an option)` }]),
            ...choices.map(([value, label]) => ({ value, label })),
          ]}
          value={condition.value}
          onChange={(event) => onChange({ value: event.target.value })}
          error={errors[`${path}.value`]}
        />
      );
    case 'one_of':
    case 'none_of': {
      const error = errors[`${path}.values`];
      const missing = condition.values.filter((value) => !choices.some(([choice]) => choice === value));
      return (
        <fieldset className="fieldset rule-choices" aria-invalid={error ? true : undefined}>
          <legend>Answers</legend>
          {[...choices, ...missing.map((value) => [value, `${value} (not an option)`] as [string, string])].map(([value, label]) => (
            <label key={value} className="rule-choice">
              <input
                type="checkbox"
                name={`${path}.values`}
                value={value}
                checked={condition.values.includes(value)}
                onChange={(event) =>
                  onChange({
                    values: event.target.checked ? [...condition.values, value] : condition.values.filter((chosen) => chosen !== value),
                  })
                }
              />
              <span>{label}</span>
            </label>
          ))}
          {error ? (
            <p className="field-error" role="alert">
              {error}
            </p>
          ) : null}
        </fieldset>
      );
    }
    case 'less_than':
    case 'greater_than':
      return (
        <TextField label="Number" name={`${path}.value`} inputMode="decimal" value={condition.value}
          onChange={(event) => onChange({ value: event.target.value })} error={errors[`${path}.value`]} />
      );
    case 'between':
      return (
        <div className="form-row rule-between">
          <TextField label="From" name={`${path}.min`} inputMode="decimal" value={condition.min}
            onChange={(event) => onChange({ min: event.target.value })} error={errors[`${path}.min`]} />
          <TextField label="To" name={`${path}.max`} inputMode="decimal" value={condition.max}
            onChange={(event) => onChange({ max: event.target.value })} error={errors[`${path}.max`]} />
        </div>
      );
    default:
      return null;
  }
}
