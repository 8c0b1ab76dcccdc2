import { evaluateVisibility, itemsOf, type TemplateDefinition, type TemplateItem } from '@schemas/templates';
import { useMemo, useState } from 'react';
import { Button } from '@/components/ui/button';
import { numberField } from '@/lib/form-values';
import { answerChoicesOf, ruleWords } from '../utils/rule-format';
import { itemCountText } from '../utils/template-format';

/**
 * The run page as an inspector would meet it, answered here and nowhere else: items and sections
 * appear and disappear as the answers change, by the same evaluator the run page and (in SQL)
 * submit and scoring use. Nothing is saved.
 */
export function TemplateRunPreview({ definition }: { definition: TemplateDefinition }) {
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  // Clearing starts the inputs afresh (the number fields keep what was typed otherwise).
  const [round, setRound] = useState(0);
  const items = useMemo(() => itemsOf(definition), [definition]);
  const itemsByKey = useMemo(() => new Map(items.map((item) => [item.key, item])), [items]);
  const { hiddenSections, hiddenItems } = evaluateVisibility(definition, (key) => answers[key]);
  const hidden = new Set(hiddenItems);
  const hiddenSection = new Set(hiddenSections);
  const shown = items.length - hidden.size;
  const answer = (key: string, value: unknown) => setAnswers((current) => ({ ...current, [key]: value }));

  return (
    <div className="run-preview" aria-label="Preview of the run page" role="region">
      <div className="run-preview-bar">
        <p role="status">
          {itemCountText(shown)} of {items.length} {shown === 1 ? 'shows' : 'show'} for these answers.
        </p>
        <Button variant="secondary" disabled={Object.keys(answers).length === 0} onClick={() => {
            setAnswers({});
            setRound((current) => current + 1);
          }}>
          Clear answers
        </Button>
      </div>
      {definition.sections.map((section) =>
        hiddenSection.has(section.key) ? null : (
          <section key={`${section.key}-${round}`} className="run-preview-section" aria-label={section.title}>
            <h3>{section.title}</h3>
            {section.show_when ? <p className="muted run-preview-rule">{ruleWords(section.show_when, (key) => itemsByKey.get(key))}</p> : null}
            {section.items.filter((item) => !hidden.has(item.key)).length === 0 ? <p className="muted">No items show in this section.</p> : null}
            <ol className="run-preview-items">
              {section.items
                .filter((item) => !hidden.has(item.key))
                .map((item) => (
                  <li key={item.key} className="run-preview-item">
                    <PreviewAnswer item={item} value={answers[item.key] ?? null} onChange={(value) => answer(item.key, value)} />
                    {item.show_when ? <p className="muted run-preview-rule">{ruleWords(item.show_when, (key) => itemsByKey.get(key))}</p> : null}
                  </li>
                ))}
            </ol>
          </section>
        ),
      )}
      {hiddenSections.length > 0 ? (
        <p className="muted">
          Hidden for these answers: {definition.sections.filter((section) => hiddenSection.has(section.key)).map((section) => section.title).join(', ')}.
        </p>
      ) : null}
    </div>
  );
}

function PreviewAnswer({ item, value, onChange }: { item: TemplateItem; value: unknown; onChange: (value: unknown) => void }) {
  const label = (
    <span className="run-preview-label">
      {item.label}
      {item.required ? <span className="badge template-required">Required</span> : null}
    </span>
  );
  const choices = answerChoicesOf(item);
  switch (item.kind) {
    case 'pass_fail':
    case 'yes_no':
      return (
        <div className="run-preview-field">
          <span id={`preview-${item.key}`}>{label}</span>
          <div className="run-preview-toggles" role="group" aria-labelledby={`preview-${item.key}`}>
            {choices.map(([choice, words]) => (
              <button key={choice} type="button" className="button button-secondary" aria-pressed={value === choice} onClick={() => onChange(value === choice ? null : choice)}>
                {words}
              </button>
            ))}
          </div>
        </div>
      );
    case 'single_choice':
      return (
        <label className="run-preview-field">
          {label}
          <select value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}>
            <option value="">No answer</option>
            {choices.map(([choice, words]) => (
              <option key={choice} value={choice}>
                {words}
              </option>
            ))}
          </select>
        </label>
      );
    case 'multi_choice': {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      return (
        <fieldset className="run-preview-field fieldset">
          <legend>{label}</legend>
          {choices.map(([choice, words]) => (
            <label key={choice} className="rule-choice">
              <input
                type="checkbox"
                checked={chosen.includes(choice)}
                onChange={(event) => {
                  const next = item.options.filter((option) => (option === choice ? event.target.checked : chosen.includes(option)));
                  onChange(next.length === 0 ? null : next);
                }}
              />
              <span>{words}</span>
            </label>
          ))}
        </fieldset>
      );
    }
    case 'number':
      return (
        <label className="run-preview-field">
          {label}
          <input
            inputMode="decimal"
            defaultValue={typeof value === 'number' ? String(value) : ''}
            onChange={(event) => {
              const number = numberField(event.target.value, null);
              onChange(typeof number === 'number' ? number : null);
            }}
          />
        </label>
      );
    case 'text':
    case 'date':
      return (
        <label className="run-preview-field">
          {label}
          <input type={item.kind === 'date' ? 'date' : 'text'} value={typeof value === 'string' ? value : ''} onChange={(event) => onChange(event.target.value.trim() === '' ? null : event.target.value)} />
        </label>
      );
    case 'signature':
      return (
        <label className="run-preview-field run-preview-check">
          <input type="checkbox" checked={value !== null} onChange={(event) => onChange(event.target.checked ? { signer: 'Preview', image: '' } : null)} />
          {label} <span className="muted">(signed)</span>
        </label>
      );
    case 'photo':
      return (
        <div className="run-preview-field">
          {label}
          <span className="muted">Photos are taken on site.</span>
        </div>
      );
  }
}
