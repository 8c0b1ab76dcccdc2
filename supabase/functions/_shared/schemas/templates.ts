// Templates (`/orgs/{org}/templates`): checklists built of sections and items, edited as a draft
// and published as immutable numbered versions. The definition format is one zod discriminated
// union on `kind`, shared by the api function and the editor; the database repeats every rule in
// private.template_definition_problem (docs/templates.md).
import { z } from 'zod';
import { isCalendarDate, isScored, PASS_FAIL_VALUES, YES_NO_VALUES } from './template-items.ts';
import { CONDITION_OPS, conditionOpsFor, MAX_CONDITIONS, RULE_MATCHES } from './visibility-rules.ts';
import { CONTROL_CHARACTERS, nameSchema, optionalTextSchema, pageQuerySchema, type Role, searchQuerySchema } from './common.ts';
import { pngHeaderOfDataUrl } from './png.ts';

export const MAX_SECTIONS = 50;
export const MAX_ITEMS = 500;
export const MAX_OPTIONS = 50;
export const MAX_PHOTOS_PER_ITEM = 10;
export const LABEL_MAX_LENGTH = 500;
export const HELP_MAX_LENGTH = 2000;
export const OPTION_MAX_LENGTH = 120;
export const UNIT_MAX_LENGTH = 20;
export const WEIGHT_MAX = 100;
export const DEFAULT_WEIGHT = 1;
export const DESCRIPTION_MAX_LENGTH = 2000;
export const TEXT_ANSWER_MAX_LENGTH = 4000;
export const SIGNER_MAX_LENGTH = 120;
export const SIGNATURE_IMAGE_MAX_LENGTH = 200_000;
/**
 * Width × height a signature's PNG may declare (issue 24): a report decodes it to pixels. The web
 * app's signature pad makes 600 × 200 (0.12 MP); 2 MP leaves room for a pad drawn at three times
 * that resolution, and bounds what one signature costs a report (docs/reports.md).
 */
export const SIGNATURE_MAX_PIXELS = 2_000_000;

export const ITEM_KINDS = [
  'pass_fail',
  'yes_no',
  'number',
  'text',
  'single_choice',
  'multi_choice',
  'date',
  'photo',
  'signature',
] as const;
export type ItemKind = (typeof ITEM_KINDS)[number];

/** Stable identities of sections and items across versions; answers refer to items by key. */
export const KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const keySchema = z
  .string({ error: 'Enter a key.' })
  .regex(KEY_PATTERN, { error: 'Use 1 to 64 lowercase letters, digits, - or _, starting with a letter or digit.' });

/** A one-line text that must say something: trimmed, 1..max, no control characters. */
function lineSchema(what: string, max: number) {
  return z
    .string({ error: `Enter ${what}.` })
    .trim()
    .min(1, { error: `Enter ${what}.` })
    .max(max, { error: `Use at most ${max} characters.` })
    .refine((value) => !CONTROL_CHARACTERS.test(value), { error: 'Remove the control characters.' });
}

// --- Visibility rules (docs/templates.md, "Logic") ---------------------------------------------

const optionValueSchema = z
  .string({ error: 'Choose one of the item\'s options.' })
  .trim()
  .min(1, { error: 'Choose one of the item\'s options.' });
const conditionNumberSchema = (message: string) => z.number({ error: message });
const conditionBase = { item: z.string({ error: 'Choose an item.' }) };
const conditionSchemas = [
  z.strictObject({
    ...conditionBase,
    op: z.enum(['equals', 'not_equals']),
    value: z.union([z.number(), optionValueSchema], { error: 'Enter the answer to compare with.' }),
  }),
  z.strictObject({
    ...conditionBase,
    op: z.enum(['one_of', 'none_of']),
    values: z.array(optionValueSchema, { error: 'Choose at least one option.' })
      .min(1, { error: 'Choose at least one option.' })
      .max(MAX_OPTIONS, { error: `Choose at most ${MAX_OPTIONS} options.` }),
  }),
  z.strictObject({
    ...conditionBase,
    op: z.enum(['less_than', 'greater_than']),
    value: conditionNumberSchema('Enter a number.'),
  }),
  z.strictObject({
    ...conditionBase,
    op: z.literal('between'),
    min: conditionNumberSchema('Enter the lowest number.'),
    max: conditionNumberSchema('Enter the highest number.'),
  }),
  z.strictObject({ ...conditionBase, op: z.enum(['failed', 'answered', 'not_answered']) }),
] as const;

/** One test of an earlier item's answer: `{item, op, value | values | min + max}` by `op`. */
export const conditionSchema = z.discriminatedUnion('op', conditionSchemas, {
  error: (issue) => (issue.code === 'invalid_union' ? `Choose a condition: ${CONDITION_OPS.join(', ')}.` : 'Describe the condition as an object.'),
});

/** When an item or section shows: all (or any) of its conditions hold. Absent or null: always. */
export const visibilityRuleSchema = z.strictObject({
  match: z.enum(RULE_MATCHES, { error: 'Choose all or any.' }).default('all'),
  conditions: z.array(conditionSchema, { error: 'List the conditions.' })
    .min(1, { error: 'Add at least one condition.' })
    .max(MAX_CONDITIONS, { error: `Use at most ${MAX_CONDITIONS} conditions in a rule.` }),
}, { error: 'Describe the rule as an object with match and conditions, or leave it out.' });

export type VisibilityCondition = z.output<typeof conditionSchema>;
export type VisibilityRule = z.output<typeof visibilityRuleSchema>;
export type ConditionOp = VisibilityCondition['op'];

const showWhenSchema = visibilityRuleSchema.nullable().optional();

const itemBase = {
  key: keySchema,
  label: lineSchema('a label', LABEL_MAX_LENGTH),
  // Empty help means none, so the editor can send what the field holds.
  help: optionalTextSchema(HELP_MAX_LENGTH).default(null),
  required: z.boolean({ error: 'Use true or false.' }).default(false),
  // zod 4's number already refuses NaN and ±Infinity.
  weight: z.number({ error: `Enter a weight from 0 to ${WEIGHT_MAX}.` })
    .min(0, { error: `Enter a weight from 0 to ${WEIGHT_MAX}.` })
    .max(WEIGHT_MAX, { error: `Enter a weight from 0 to ${WEIGHT_MAX}.` })
    .default(DEFAULT_WEIGHT),
  show_when: showWhenSchema,
};

const optionSchema = lineSchema('an option', OPTION_MAX_LENGTH);

const choiceExtras = {
  options: z
    .array(optionSchema, { error: 'Add at least one option.' })
    .min(1, { error: 'Add at least one option.' })
    .max(MAX_OPTIONS, { error: `Use at most ${MAX_OPTIONS} options.` }),
  failing_options: z.array(z.string({ error: 'Choose one of the options.' }), { error: 'List the failing options.' })
    .default([]),
};

const boundSchema = z.number({ error: 'Enter a number, or leave it empty.' }).nullable().default(null);

const passFailItem = z.strictObject({ ...itemBase, kind: z.literal('pass_fail') });
const yesNoItem = z.strictObject({
  ...itemBase,
  kind: z.literal('yes_no'),
  fail_on: z.enum(['yes', 'no'], { error: 'Choose yes, no or neither.' }).nullable().default(null),
});
const numberItem = z.strictObject({
  ...itemBase,
  kind: z.literal('number'),
  min: boundSchema,
  max: boundSchema,
  unit: lineSchema('a unit', UNIT_MAX_LENGTH).nullable().default(null),
});
const textItem = z.strictObject({ ...itemBase, kind: z.literal('text') });
const singleChoiceItem = z.strictObject({ ...itemBase, kind: z.literal('single_choice'), ...choiceExtras });
const multiChoiceItem = z.strictObject({ ...itemBase, kind: z.literal('multi_choice'), ...choiceExtras });
const dateItem = z.strictObject({ ...itemBase, kind: z.literal('date') });
const photoItem = z.strictObject({
  ...itemBase,
  kind: z.literal('photo'),
  max_photos: z
    .number({ error: `Enter a whole number of photos from 1 to ${MAX_PHOTOS_PER_ITEM}.` })
    .int({ error: `Enter a whole number of photos from 1 to ${MAX_PHOTOS_PER_ITEM}.` })
    .min(1, { error: `Enter a whole number of photos from 1 to ${MAX_PHOTOS_PER_ITEM}.` })
    .max(MAX_PHOTOS_PER_ITEM, { error: `Enter a whole number of photos from 1 to ${MAX_PHOTOS_PER_ITEM}.` })
    .default(1),
});
const signatureItem = z.strictObject({ ...itemBase, kind: z.literal('signature') });

/** Rules between the fields of one item: a range that can be met, failing options that exist. */
function checkItemRules(item: TemplateItem, ctx: z.RefinementCtx) {
  if (item.kind === 'number' && item.min !== null && item.max !== null && item.min > item.max) {
    ctx.addIssue({ code: 'custom', path: ['max'], message: 'Use a maximum at least as large as the minimum.' });
  }
  if (item.kind === 'single_choice' || item.kind === 'multi_choice') {
    const seen = new Set<string>();
    item.options.forEach((option, i) => {
      if (seen.has(option)) ctx.addIssue({ code: 'custom', path: ['options', i], message: 'Remove the repeated option.' });
      seen.add(option);
    });
    const failing = new Set<string>();
    item.failing_options.forEach((option, i) => {
      if (!seen.has(option)) {
        ctx.addIssue({ code: 'custom', path: ['failing_options', i], message: 'Choose failing options from the item\'s options.' });
      } else if (failing.has(option)) {
        ctx.addIssue({ code: 'custom', path: ['failing_options', i], message: 'Remove the repeated failing option.' });
      }
      failing.add(option);
    });
  }
}

export const itemSchema = z
  .discriminatedUnion(
    'kind',
    [passFailItem, yesNoItem, numberItem, textItem, singleChoiceItem, multiChoiceItem, dateItem, photoItem, signatureItem],
    { error: (issue) => (issue.code === 'invalid_union' ? `Choose a kind: ${ITEM_KINDS.join(', ')}.` : 'Describe the item as an object.') },
  )
  .superRefine(checkItemRules);

export const sectionSchema = z.strictObject({
  key: keySchema,
  title: nameSchema('a section title'),
  show_when: showWhenSchema,
  items: z.array(itemSchema, { error: 'List the section\'s items.' })
    .max(MAX_ITEMS, { error: `Use at most ${MAX_ITEMS} items in a template.` }),
});

const KIND_WORDS: Record<ItemKind, string> = {
  pass_fail: 'a pass / fail',
  yes_no: 'a yes / no',
  number: 'a number',
  text: 'a text',
  single_choice: 'a single choice',
  multi_choice: 'a multiple choice',
  date: 'a date',
  photo: 'a photo',
  signature: 'a signature',
};

/** Why `answer` can't be an answer of `item` in a condition (choices and numbers), or null. */
function conditionValueProblem(item: TemplateItem, answer: string | number): string | null {
  switch (item.kind) {
    case 'number':
      return typeof answer === 'number' ? null : 'Enter a number.';
    case 'pass_fail':
      return (PASS_FAIL_VALUES as readonly unknown[]).includes(answer) ? null : 'Choose pass, fail or na.';
    case 'yes_no':
      return (YES_NO_VALUES as readonly unknown[]).includes(answer) ? null : 'Choose yes or no.';
    default:
      return typeof answer === 'string' && (item as ItemOfKind<'single_choice'>).options.includes(answer)
        ? null
        : 'Choose one of the item\'s options.';
  }
}

/**
 * What is wrong with one condition of a rule, as [field below the condition, message], or null:
 * the item it tests must come earlier, and the test and its answers must fit that item's kind.
 * The database repeats these checks (private.visibility_condition_problem).
 */
export function conditionProblem(
  condition: VisibilityCondition,
  earlier: ReadonlyMap<string, TemplateItem>,
  allItemKeys: ReadonlySet<string>,
  forSection: boolean,
): [string, string] | null {
  const item = earlier.get(condition.item);
  if (!item) {
    if (!allItemKeys.has(condition.item)) return ['item', 'Choose an item of this template.'];
    return ['item', forSection ? 'Choose an item from an earlier section.' : 'Choose an item that comes before this one.'];
  }
  if (item.kind === 'photo') return ['item', 'Photo items can\'t be used in a rule; choose another item.'];
  if (condition.op === 'failed' && !isScored(item)) return ['op', 'This item is not scored, so it never fails; choose another condition.'];
  const ops = conditionOpsFor(item);
  if (!ops.includes(condition.op)) return ['op', `Choose a condition that fits ${KIND_WORDS[item.kind]} item: ${ops.join(', ')}.`];
  switch (condition.op) {
    case 'equals':
    case 'not_equals': {
      const problem = conditionValueProblem(item, condition.value);
      return problem ? ['value', problem] : null;
    }
    case 'one_of':
    case 'none_of': {
      const seen = new Set<string>();
      for (const [k, value] of condition.values.entries()) {
        const problem = conditionValueProblem(item, value);
        if (problem) return [`values.${k}`, problem];
        if (seen.has(value)) return [`values.${k}`, 'Remove the repeated option.'];
        seen.add(value);
      }
      return null;
    }
    case 'between':
      return condition.min > condition.max ? ['max', 'Use a maximum at least as large as the minimum.'] : null;
    default:
      return null;
  }
}

function checkRule(
  rule: VisibilityRule | null | undefined,
  earlier: ReadonlyMap<string, TemplateItem>,
  allItemKeys: ReadonlySet<string>,
  path: (string | number)[],
  ctx: z.RefinementCtx,
) {
  if (!rule) return;
  const forSection = path.length === 2;
  rule.conditions.forEach((condition, n) => {
    const problem = conditionProblem(condition, earlier, allItemKeys, forSection);
    if (problem) {
      ctx.addIssue({ code: 'custom', path: [...path, 'show_when', 'conditions', n, ...problem[0].split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part))], message: problem[1] });
    }
  });
}

/**
 * Keys unique (sections among sections, items across the whole template), the item total, and
 * rules that test only earlier items (so visibility has no cycles) with answers those items have.
 */
function checkDefinitionRules(definition: TemplateDefinition, ctx: z.RefinementCtx) {
  const sectionKeys = new Set<string>();
  const itemKeys = new Set<string>();
  const allItemKeys = new Set(definition.sections.flatMap((section) => section.items.map((item) => item.key)));
  const earlier = new Map<string, TemplateItem>();
  let itemCount = 0;
  definition.sections.forEach((section, s) => {
    if (sectionKeys.has(section.key)) {
      ctx.addIssue({ code: 'custom', path: ['sections', s, 'key'], message: 'Use a key no other section has.' });
    }
    sectionKeys.add(section.key);
    checkRule(section.show_when, earlier, allItemKeys, ['sections', s], ctx);
    section.items.forEach((item, i) => {
      if (itemKeys.has(item.key)) {
        ctx.addIssue({ code: 'custom', path: ['sections', s, 'items', i, 'key'], message: 'Use a key no other item has.' });
      }
      itemKeys.add(item.key);
      checkRule(item.show_when, earlier, allItemKeys, ['sections', s, 'items', i], ctx);
      if (!earlier.has(item.key)) earlier.set(item.key, item);
    });
    itemCount += section.items.length;
  });
  if (itemCount > MAX_ITEMS) {
    ctx.addIssue({ code: 'custom', path: ['sections'], message: `Use at most ${MAX_ITEMS} items in a template (this one has ${itemCount}).` });
  }
}

export const definitionSchema = z
  .strictObject({
    sections: z.array(sectionSchema, { error: 'List the sections.' })
      .max(MAX_SECTIONS, { error: `Use at most ${MAX_SECTIONS} sections.` }),
  }, { error: 'Send the definition as an object with sections.' })
  .superRefine(checkDefinitionRules);

/**
 * The definition as stored: a `show_when` of null (always shown) is left out, as it is for items
 * that never had a rule, so one definition has one form and "unpublished changes" compares alike.
 */
export function withoutEmptyRules(definition: TemplateDefinition): TemplateDefinition {
  const drop = <T extends { show_when?: VisibilityRule | null }>(part: T): T => {
    if (part.show_when !== null) return part;
    const { show_when: _dropped, ...rest } = part;
    return rest as T;
  };
  return { sections: definition.sections.map((section) => drop({ ...section, items: section.items.map(drop) })) };
}

export type TemplateItem = z.output<typeof itemSchema>;
export type TemplateSection = z.output<typeof sectionSchema>;
export type TemplateDefinition = z.output<typeof definitionSchema>;
/** What the editor may send: optional settings fall back to their defaults. */
export type TemplateItemInput = z.input<typeof itemSchema>;
export type TemplateDefinitionInput = z.input<typeof definitionSchema>;
export type ItemOfKind<K extends ItemKind> = Extract<TemplateItem, { kind: K }>;

// --- Requests ---------------------------------------------------------------------------------

export const templateDescriptionSchema = optionalTextSchema(DESCRIPTION_MAX_LENGTH);

export const templateCreateSchema = z.strictObject({
  name: nameSchema('a template name'),
  description: templateDescriptionSchema.optional(),
  definition: definitionSchema.optional(),
});

export const templateUpdateSchema = z
  .strictObject({
    name: nameSchema('a template name').optional(),
    description: templateDescriptionSchema.optional(),
    definition: definitionSchema.optional(),
    /** The revision the editor started from; a different current revision is stale_version. */
    base_revision: z
      .number({ error: 'Use the revision you last read.' })
      .int({ error: 'Use the revision you last read.' })
      .min(1, { error: 'Use the revision you last read.' })
      .optional(),
  })
  .refine((value) => value.name !== undefined || value.description !== undefined || value.definition !== undefined, {
    error: 'Change at least one of name, description or definition.',
  });

export const TEMPLATE_STATUSES = ['draft', 'published', 'archived'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

export const templateListQuerySchema = pageQuerySchema.extend({
  /** active (default): drafts and published ones; or one status. */
  status: z
    .enum(['active', ...TEMPLATE_STATUSES], { error: 'Use status=active, draft, published or archived.' })
    .default('active'),
  q: searchQuerySchema,
});

export type TemplateCreate = z.infer<typeof templateCreateSchema>;
export type TemplateUpdate = z.infer<typeof templateUpdateSchema>;
export type TemplateListQuery = z.infer<typeof templateListQuerySchema>;

// --- Responses (components of openapi.json, docs/openapi.md) ----------------------------------

export const templateStatusSchema = z.enum(TEMPLATE_STATUSES).meta({ id: 'TemplateStatus' });

/** A definition in an answer: what `definitionSchema` makes of one (its output side). */
export const templateDefinitionSchema = definitionSchema.meta({ id: 'TemplateDefinition' });

export const templateSummarySchema = z.object({
  id: z.string(),
  org_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: templateStatusSchema,
  latest_version: z.number().nullable().describe('Number of the newest published version; null before the first publish.'),
  has_unpublished_changes: z.boolean().describe(
    'The draft differs from the newest published version (always true before the first publish).',
  ),
  item_count: z.number().describe('Items in the draft.'),
  revision: z.number(),
  archived_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}).meta({ id: 'TemplateSummary' });

export const templateSchema = templateSummarySchema.extend({ definition: templateDefinitionSchema }).meta({ id: 'Template' });

export const templateVersionSchema = z.object({
  id: z.string(),
  template_id: z.string(),
  org_id: z.string(),
  version: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  definition: templateDefinitionSchema,
  published_by: z.string().nullable(),
  published_at: z.string(),
}).meta({ id: 'TemplateVersion' });

export type TemplateSummary = z.output<typeof templateSummarySchema>;
export type Template = z.output<typeof templateSchema>;
export type TemplateVersion = z.output<typeof templateVersionSchema>;

/** Owners, admins and managers build templates (docs/product.md §6). */
export const TEMPLATE_MANAGERS = ['owner', 'admin', 'manager'] as const satisfies readonly Role[];

export function canManageTemplates(role: Role): boolean {
  return (TEMPLATE_MANAGERS as readonly Role[]).includes(role);
}

// --- Answers to items -------------------------------------------------------------------------

const SIGNATURE_IMAGE_PATTERN = /^data:image\/png;base64,[A-Za-z0-9+/]+={0,2}$/;
const NOT_A_PNG_DATA_URL = 'Send the signature as a PNG data URL.';

/**
 * What is wrong with the size a signature's PNG declares in its header, read without decoding it;
 * null when it fits. The same rule and wording as private.answer_value_problem.
 */
export function signatureImageSizeProblem(image: string): string | null {
  const header = pngHeaderOfDataUrl(image);
  if (!header) return NOT_A_PNG_DATA_URL;
  if (header.width * header.height > SIGNATURE_MAX_PIXELS) {
    return `The signature image is too large (${header.width} × ${header.height} pixels; the limit is ${SIGNATURE_MAX_PIXELS / 1e6} megapixels); clear it and sign again.`;
  }
  return null;
}

function nonNullValueSchemaFor(item: TemplateItem): z.ZodType {
  switch (item.kind) {
    case 'pass_fail':
      return z.enum(PASS_FAIL_VALUES, { error: 'Choose pass, fail or n/a.' });
    case 'yes_no':
      return z.enum(YES_NO_VALUES, { error: 'Choose yes or no.' });
    case 'number':
      return z.number({ error: 'Enter a number.' });
    case 'text':
      return z
        .string({ error: 'Enter some text.' })
        .max(TEXT_ANSWER_MAX_LENGTH, { error: `Use at most ${TEXT_ANSWER_MAX_LENGTH} characters.` })
        .refine((value) => value.trim().length > 0, { error: 'Enter some text, or clear the answer.' });
    case 'single_choice':
      return z.string({ error: 'Choose one of the options.' })
        .refine((value) => item.options.includes(value), { error: 'Choose one of the options.' });
    case 'multi_choice':
      return z
        .array(z.string({ error: 'Choose from the options.' }), { error: 'Choose at least one option.' })
        .min(1, { error: 'Choose at least one option, or clear the answer.' })
        .refine((values) => values.every((value) => item.options.includes(value)), { error: 'Choose from the options.' })
        .refine((values) => new Set(values).size === values.length, { error: 'Choose each option once.' });
    case 'date':
      return z.string({ error: 'Enter a date as YYYY-MM-DD.' })
        .refine(isCalendarDate, { error: 'Enter a date that exists, as YYYY-MM-DD.' });
    case 'photo':
      return z.null({ error: 'Add photos as attachments; a photo item has no value.' });
    case 'signature':
      return z.strictObject({
        signer: lineSchema('the signer\'s name', SIGNER_MAX_LENGTH),
        image: z
          .string({ error: 'Sign in the box.' })
          .max(SIGNATURE_IMAGE_MAX_LENGTH, { error: 'The signature image is too large; clear it and sign again.' })
          .regex(SIGNATURE_IMAGE_PATTERN, { error: NOT_A_PNG_DATA_URL })
          .superRefine((image, ctx) => {
            // Only an image the checks above let through: one problem at a time, as in SQL.
            if (image.length > SIGNATURE_IMAGE_MAX_LENGTH || !SIGNATURE_IMAGE_PATTERN.test(image)) return;
            const problem = signatureImageSizeProblem(image);
            if (problem) ctx.addIssue({ code: 'custom', message: problem });
          }),
      }, { error: 'Sign and enter the signer\'s name.' });
  }
}

/** The value an answer to `item` may carry; null (cleared, unanswered) fits every kind. */
export function answerValueSchemaFor(item: TemplateItem): z.ZodType {
  return nonNullValueSchemaFor(item).nullable();
}

// What an answer means for an item (items, values, scoring, visibility) has no zod: the run page
// reads it on first load. The value schemas above check answers; template-items.ts and
// visibility.ts word the rules they share.
export * from './template-items.ts';
export * from './visibility.ts';
export * from './visibility-rules.ts';
