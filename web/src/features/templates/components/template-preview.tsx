import type { TemplateDefinition, TemplateItem } from '@schemas/templates';
import { isScored, itemsOf } from '@schemas/template-items';
import type { RuleItem } from '../utils/rule-format';
import { ruleWords } from '../utils/rule-format';
import { Accordion, AccordionSection } from '@/components/ui/accordion';
import { itemCountText, itemKindLabels, itemSettingsText } from '../utils/template-format';
import '../templates.css';

function PreviewItem({ item, position, itemOf }: { item: TemplateItem; position: number; itemOf: (key: string) => RuleItem | undefined }) {
  const settings = itemSettingsText(item);
  return (
    <li className="template-preview-item">
      <p className="template-preview-label">
        <span className="template-item-number">{position}.</span> {item.label}
        {item.required ? <span className="badge template-required">Required</span> : null}
      </p>
      <p className="muted">
        {itemKindLabels[item.kind]}
        {settings ? ` · ${settings}` : ''}
        {isScored(item) ? ` · Weight ${item.weight}` : ''}
      </p>
      {item.help ? <p className="template-preview-help">{item.help}</p> : null}
      {item.show_when ? <p className="muted template-preview-rule">{ruleWords(item.show_when, itemOf)}</p> : null}
      {item.kind === 'single_choice' || item.kind === 'multi_choice' ? (
        <ul className="template-preview-options" aria-label={`Options of ${item.label}`}>
          {item.options.map((option) => (
            <li key={option}>
              {option}
              {item.failing_options.includes(option) ? <span className="badge template-fails">Fails</span> : null}
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** A definition to read: sections in the accordion, every item with its settings. */
export function TemplatePreview({ definition }: { definition: TemplateDefinition }) {
  if (definition.sections.length === 0) return <p className="muted">No sections yet.</p>;
  const byKey = new Map(itemsOf(definition).map((item) => [item.key, item]));
  const itemOf = (key: string) => byKey.get(key);
  return (
    <Accordion type="multiple" defaultValue={[definition.sections[0].key]}>
      {definition.sections.map((section) => (
        <AccordionSection
          key={section.key}
          value={section.key}
          title={section.title}
          trailing={itemCountText(section.items.length)}
        >
          {section.show_when ? <p className="muted template-preview-rule">{ruleWords(section.show_when, itemOf)}</p> : null}
          {section.items.length === 0 ? (
            <p className="muted">No items in this section.</p>
          ) : (
            <ol className="template-preview-items">
              {section.items.map((item, index) => (
                <PreviewItem key={item.key} item={item} position={index + 1} itemOf={itemOf} />
              ))}
            </ol>
          )}
        </AccordionSection>
      ))}
    </Accordion>
  );
}
