import { ChevronDown } from 'lucide-react';
import { createContext, useContext, useId, useState, type HTMLAttributes, type KeyboardEvent, type ReactNode } from 'react';
import './accordion.css';

/**
 * Sections that open and close, several at once, as the WAI-ARIA accordion pattern has them: each
 * header is a button in a heading with aria-expanded and aria-controls, its content a region
 * named by it; Enter and Space toggle, the arrow keys, Home and End move between headers.
 *
 * Written here rather than taken from Radix (which this replaced): Radix's accordion was 9 KB of
 * the run page's 150 KB first-load budget (issue 12, docs/offline.md "Weight"), for the few lines
 * below.
 */
interface AccordionState {
  isOpen: (value: string) => boolean;
  toggle: (value: string) => void;
}

const AccordionContext = createContext<AccordionState | null>(null);

interface AccordionProps extends Omit<HTMLAttributes<HTMLDivElement>, 'defaultValue'> {
  /** Only "multiple" (any number open at once) is offered, as every screen uses it. */
  type: 'multiple';
  /** The open sections' values, when the caller keeps them (with onValueChange). */
  value?: string[];
  /** The sections open at first, when the accordion keeps them itself. */
  defaultValue?: string[];
  onValueChange?: (value: string[]) => void;
}

export function Accordion({ type: _type, value, defaultValue = [], onValueChange, className, children, ...props }: AccordionProps) {
  const [ownValue, setOwnValue] = useState(defaultValue);
  const open = value ?? ownValue;
  const state: AccordionState = {
    isOpen: (section) => open.includes(section),
    toggle: (section) => {
      const next = open.includes(section) ? open.filter((other) => other !== section) : [...open, section];
      if (value === undefined) setOwnValue(next);
      onValueChange?.(next);
    },
  };
  return (
    <AccordionContext.Provider value={state}>
      <div className={['accordion', className].filter(Boolean).join(' ')} {...props}>
        {children}
      </div>
    </AccordionContext.Provider>
  );
}

/** Moves focus among the headers of the accordion that holds `trigger`. */
function moveFocus(event: KeyboardEvent<HTMLButtonElement>) {
  const trigger = event.currentTarget;
  const root = trigger.closest('.accordion');
  if (!root) return;
  const triggers = Array.from(root.querySelectorAll<HTMLButtonElement>('.accordion-trigger')).filter((button) => button.closest('.accordion') === root);
  const at = triggers.indexOf(trigger);
  const target =
    event.key === 'ArrowDown' ? triggers[(at + 1) % triggers.length]
    : event.key === 'ArrowUp' ? triggers[(at - 1 + triggers.length) % triggers.length]
    : event.key === 'Home' ? triggers[0]
    : event.key === 'End' ? triggers[triggers.length - 1]
    : undefined;
  if (!target) return;
  event.preventDefault();
  target.focus();
}

interface AccordionSectionProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  /** Which section this is, among the accordion's values. */
  value: string;
  /** The trigger's text: the section's name. */
  title: ReactNode;
  /** Shown at the end of the trigger and part of its name, e.g. "7 of 12" or a check-circle: no controls here. */
  trailing?: ReactNode;
  /** Controls beside the trigger (buttons, menus); kept outside it, since a button can't hold buttons. */
  actions?: ReactNode;
  /** The heading level of the trigger's heading, to fit the page's outline. */
  headingLevel?: 2 | 3 | 4;
  /** Keep the content in the page while closed (hidden), e.g. to keep inputs' state. */
  keepMounted?: boolean;
}

/** One section of an Accordion: a heading whose button toggles the content below it. */
export function AccordionSection({
  value,
  title,
  trailing,
  actions,
  headingLevel = 3,
  keepMounted = false,
  className,
  children,
  ...props
}: AccordionSectionProps) {
  const accordion = useContext(AccordionContext);
  if (!accordion) throw new Error('AccordionSection must be inside an Accordion');
  const open = accordion.isOpen(value);
  const state = open ? 'open' : 'closed';
  const id = useId();
  const triggerId = `${id}-trigger`;
  const contentId = `${id}-content`;
  const Heading = `h${headingLevel}` as const;
  return (
    <div className={['accordion-section', className].filter(Boolean).join(' ')} data-state={state} {...props}>
      <div className="accordion-header">
        <Heading className="accordion-heading">
          <button
            type="button"
            id={triggerId}
            className="accordion-trigger"
            aria-expanded={open}
            aria-controls={contentId}
            data-state={state}
            onClick={() => accordion.toggle(value)}
            onKeyDown={moveFocus}
          >
            <ChevronDown aria-hidden="true" className="accordion-chevron" size={20} />
            <span className="accordion-title">{title}</span>
            {trailing ? <span className="accordion-trailing">{trailing}</span> : null}
          </button>
        </Heading>
        {actions ? <div className="accordion-actions">{actions}</div> : null}
      </div>
      {open || keepMounted ? (
        <div id={contentId} className="accordion-content" role="region" aria-labelledby={triggerId} data-state={state} hidden={!open}>
          <div className="accordion-content-inner">{children}</div>
        </div>
      ) : null}
    </div>
  );
}
