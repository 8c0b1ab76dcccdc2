// Items and their answers without zod: the item order, the plain answer values, scoring and
// failing (templates.ts has the schemas and re-exports these), so the run page carries no
// validation library on first load.
import type { TemplateDefinition, TemplateItem } from './templates.ts';

/** Every item of a definition in order, sections flattened. */
export function itemsOf(definition: TemplateDefinition): TemplateItem[] {
  return definition.sections.flatMap((section) => section.items);
}

export const PASS_FAIL_VALUES = ['pass', 'fail', 'na'] as const;
export const YES_NO_VALUES = ['yes', 'no'] as const;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' naming a day that exists (no 2025-02-30). */
export function isCalendarDate(value: string): boolean {
  const match = DATE_PATTERN.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether answers to `item` count towards the score (docs/product.md §3; docs/templates.md). */
export function isScored(item: TemplateItem): boolean {
  switch (item.kind) {
    case 'pass_fail':
      return true;
    case 'yes_no':
      return item.fail_on !== null;
    case 'number':
      return item.min !== null || item.max !== null;
    case 'single_choice':
    case 'multi_choice':
      return item.failing_options.length > 0;
    default:
      return false;
  }
}

/**
 * Whether `value` fails `item`: null when the item is not scored, the value is empty, or it is
 * n/a. Assumes a value `answerValueSchemaFor(item)` accepts. The database computes the same.
 */
export function itemFails(item: TemplateItem, value: unknown): boolean | null {
  if (value === null || value === undefined || !isScored(item)) return null;
  switch (item.kind) {
    case 'pass_fail':
      return value === 'na' ? null : value === 'fail';
    case 'yes_no':
      return value === item.fail_on;
    case 'number': {
      if (typeof value !== 'number') return null;
      return (item.min !== null && value < item.min) || (item.max !== null && value > item.max);
    }
    case 'single_choice':
      return typeof value === 'string' ? item.failing_options.includes(value) : null;
    case 'multi_choice':
      return Array.isArray(value) ? value.some((v) => item.failing_options.includes(v)) : null;
    default:
      return null;
  }
}
