import { ITEM_KINDS, MAX_ITEMS, type ConditionOp, type ItemKind } from '@schemas/templates';
import { NAME_MAX_LENGTH } from '@schemas/common';
import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { AccordionSection } from '@/components/ui/accordion';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { sectionName, type DraftItem, type DraftRule, type DraftSection } from '../utils/draft';
import { itemCountText, itemKindLabels } from '../utils/template-format';
import { ItemEditor } from './item-editor';
import { MoveButtons } from './move-buttons';
import { RuleEditor } from './rule-editor';

const kindOptions = ITEM_KINDS.map((kind) => ({ value: kind, label: itemKindLabels[kind] }));

export interface SectionEditorProps {
  section: DraftSection;
  /** 0-based place among the sections. */
  index: number;
  count: number;
  /** Items in the whole template, for its limit. */
  totalItems: number;
  errors: Record<string, string>;
  onTitle: (title: string) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  onAddItem: (kind: ItemKind) => void;
  onItemChange: (itemIndex: number, patch: Partial<DraftItem>) => void;
  onItemMove: (itemIndex: number, delta: -1 | 1) => void;
  onItemRemove: (itemIndex: number) => void;
  onRule: (rule: DraftRule | null) => void;
  focusLater: (key: string) => void;
  /** Items of the sections before this one: its rule may test them. */
  earlier: DraftItem[];
  /** Every item of the draft by key. */
  items: Map<string, DraftItem>;
  /** The tests each item may be put to, by key. */
  opsByKey: Map<string, ConditionOp[]>;
}

/** One section in the editor's accordion: its title, its items and the control that adds one. */
export function SectionEditor({
  section,
  index,
  count,
  totalItems,
  errors,
  onTitle,
  onMove,
  onRemove,
  onAddItem,
  onItemChange,
  onItemMove,
  onItemRemove,
  onRule,
  focusLater,
  earlier,
  items,
  opsByKey,
}: SectionEditorProps) {
  const [newKind, setNewKind] = useState<ItemKind>('pass_fail');
  const path = `definition.sections.${index}`;
  const name = sectionName(section, index);
  const sectionError = errors[path] ?? errors[`${path}.items`];
  const hasError = Object.keys(errors).some((field) => field === path || field.startsWith(`${path}.`));

  return (
    <AccordionSection
      value={section.key}
      id={`section-${section.key}`}
      title={name}
      trailing={
        <>
          {hasError ? <span className="template-section-problem">Needs attention ·</span> : null}
          {section.rule ? <span className="template-section-rule">Shown by a rule ·</span> : null}
          {itemCountText(section.items.length)}
        </>
      }
      className={hasError ? 'template-section-invalid' : undefined}
      actions={
        <>
          <MoveButtons name={`section ${name}`} focusKey={`section:${section.key}`} first={index === 0} last={index === count - 1} onMove={onMove} />
          {section.items.length > 0 ? (
            <ConfirmButton
              label={`Remove section ${name}`}
              question={`Remove ${name} and its ${itemCountText(section.items.length)}?`}
              confirmText="Yes, remove"
              onConfirm={onRemove}
            >
              <Trash2 aria-hidden="true" size={18} />
            </ConfirmButton>
          ) : (
            <Button variant="danger" className="button-icon" aria-label={`Remove section ${name}`} onClick={onRemove}>
              <Trash2 aria-hidden="true" size={18} />
            </Button>
          )}
        </>
      }
    >
      <div className="stack">
        {sectionError ? (
          <p className="field-error" role="alert">
            {sectionError}
          </p>
        ) : null}
        <TextField
          label="Section title"
          name={`${path}.title`}
          data-focus={`section:${section.key}:title`}
          required
          maxLength={NAME_MAX_LENGTH}
          value={section.title}
          onChange={(event) => onTitle(event.target.value)}
          error={errors[`${path}.title`]}
        />
        <RuleEditor
          rule={section.rule}
          path={path}
          owner="section"
          ownerKey={section.key}
          ownerName={`section ${name}`}
          earlier={earlier}
          items={items}
          opsByKey={opsByKey}
          errors={errors}
          onChange={onRule}
          focusLater={focusLater}
        />
        {section.items.length === 0 ? (
          <p className="muted">No items yet. Choose a kind and add the first one.</p>
        ) : (
          <ol className="template-items" aria-label={`Items of ${name}`}>
            {section.items.map((item, itemIndex) => (
              <ItemEditor
                key={item.key}
                item={item}
                path={`${path}.items.${itemIndex}`}
                position={itemIndex + 1}
                count={section.items.length}
                errors={errors}
                onChange={(patch) => onItemChange(itemIndex, patch)}
                onMove={(delta) => onItemMove(itemIndex, delta)}
                onRemove={() => onItemRemove(itemIndex)}
                focusLater={focusLater}
                earlier={[...earlier, ...section.items.slice(0, itemIndex)]}
                items={items}
                opsByKey={opsByKey}
              />
            ))}
          </ol>
        )}
        <div className="template-add-item">
          <SelectField
            label="New item kind"
            name={`new-item-kind-${section.key}`}
            options={kindOptions}
            value={newKind}
            onChange={(event) => setNewKind(event.target.value as ItemKind)}
          />
          <div className="filters-action">
            <Button
              variant="secondary"
              data-focus={`section:${section.key}:add-item`}
              disabled={totalItems >= MAX_ITEMS}
              onClick={() => onAddItem(newKind)}
            >
              <Plus aria-hidden="true" size={18} />
              Add item
            </Button>
          </div>
        </div>
      </div>
    </AccordionSection>
  );
}
