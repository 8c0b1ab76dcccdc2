import * as AccordionPrimitive from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';
import type { ComponentPropsWithoutRef, ReactNode } from 'react';
import './accordion.css';

type AccordionProps = ComponentPropsWithoutRef<typeof AccordionPrimitive.Root>;

/**
 * Sections that open and close: Radix gives the keyboard (arrows, Home, End), aria-expanded and
 * aria-controls. Use `type="multiple"` so several sections can stay open at once.
 */
export function Accordion({ className, ...props }: AccordionProps) {
  return <AccordionPrimitive.Root className={['accordion', className].filter(Boolean).join(' ')} {...props} />;
}

interface AccordionSectionProps extends Omit<ComponentPropsWithoutRef<typeof AccordionPrimitive.Item>, 'title'> {
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
  children?: ReactNode;
}

/** One section of an Accordion: a heading whose button toggles the content below it. */
export function AccordionSection({
  title,
  trailing,
  actions,
  headingLevel = 3,
  keepMounted = false,
  className,
  children,
  ...itemProps
}: AccordionSectionProps) {
  const Heading = `h${headingLevel}` as const;
  return (
    <AccordionPrimitive.Item className={['accordion-section', className].filter(Boolean).join(' ')} {...itemProps}>
      <div className="accordion-header">
        <AccordionPrimitive.Header asChild>
          <Heading className="accordion-heading">
            <AccordionPrimitive.Trigger className="accordion-trigger">
              <ChevronDown aria-hidden="true" className="accordion-chevron" size={20} />
              <span className="accordion-title">{title}</span>
              {trailing ? <span className="accordion-trailing">{trailing}</span> : null}
            </AccordionPrimitive.Trigger>
          </Heading>
        </AccordionPrimitive.Header>
        {actions ? <div className="accordion-actions">{actions}</div> : null}
      </div>
      <AccordionPrimitive.Content className="accordion-content" forceMount={keepMounted ? true : undefined}>
        <div className="accordion-content-inner">{children}</div>
      </AccordionPrimitive.Content>
    </AccordionPrimitive.Item>
  );
}
