// One meaning of visibility in both places (issue 17, part 2): fast-check generates template
// definitions with rules over earlier items, and answers to them, and compares the TypeScript
// evaluator (evaluateVisibility, what the run page and the editor's preview show) with the SQL one
// (private.template_visibility, what submit, scoring and actions use) in the stack's database:
//   1. the evaluators agree on hidden sections and items, for every generated definition and
//      several answer sets each;
//   2. through the real tables: a published template, an inspection and its answers saved in two
//      batches (the second may hide items the first answered) give the hidden items, score, max
//      score, failed count and missing required items that the TypeScript rules predict;
//   3. zod and the SQL definition rules accept and refuse the same rules, with the same field and
//      words, when one condition is spoiled (a later, missing or photo item, a wrong test, an
//      option the item lacks, min above max).
// The run counts are printed, so a report can quote them.
import fc from 'fast-check';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONDITION_OPS,
  conditionOpsFor,
  definitionSchema,
  evaluateVisibility,
  isScored,
  itemFails,
  ITEM_KINDS,
  itemsOf,
  type TemplateDefinition,
  type TemplateItem,
} from '../../../supabase/functions/_shared/schemas/templates.ts';
import { database } from '../../support/database.ts';
import { newUser, tag, type User } from '../../support/fixtures.ts';
import { expectStatus, post } from '../../support/api.ts';
import { TINY_PNG_DATA_URL } from '../../support/png.ts';

const OPTIONS = ['A', 'B', 'C', 'D'];
const NUMBERS = [-1, 0, 2, 3, 4.5, 5, 7, 10];
const SIGNATURE = { signer: 'Pat', image: TINY_PNG_DATA_URL };

type Gen = fc.GeneratorValue;
type Json = Record<string, unknown>;

const pick = <T>(g: Gen, list: readonly T[]): T => list[g(fc.integer, { min: 0, max: list.length - 1 })];
const subset = <T>(g: Gen, list: readonly T[], min: number): T[] => {
  const chosen = list.filter(() => g(fc.boolean));
  return chosen.length >= min ? chosen : list.slice(0, min);
};
/** A number a condition or an answer may carry: mostly from a small set (so equality happens), sometimes any double. */
const someNumber = (g: Gen): number =>
  g(fc.boolean) ? pick(g, NUMBERS) : g(fc.double, { noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });

function generateItem(g: Gen, key: string): Json {
  const kind = pick(g, ITEM_KINDS);
  const base = { key, kind, label: `Item ${key}`, help: null, required: g(fc.boolean), weight: g(fc.integer, { min: 0, max: 5 }) };
  switch (kind) {
    case 'yes_no':
      return { ...base, fail_on: pick(g, ['yes', 'no', null]) };
    case 'number': {
      const [low, high] = [someNumber(g), someNumber(g)].sort((a, b) => a - b);
      return { ...base, min: g(fc.boolean) ? low : null, max: g(fc.boolean) ? high : null, unit: null };
    }
    case 'single_choice':
    case 'multi_choice': {
      const options = subset(g, OPTIONS, 1);
      return { ...base, options, failing_options: options.filter(() => g(fc.boolean)) };
    }
    case 'photo':
      return { ...base, max_photos: 1 };
    default:
      return base;
  }
}

/** A condition that fits `item` (an earlier one), with answers it can have. */
function generateCondition(g: Gen, item: TemplateItem): Json {
  const op = pick(g, conditionOpsFor(item));
  const answersOf = (): (string | number)[] =>
    item.kind === 'pass_fail' ? ['pass', 'fail', 'na'] : item.kind === 'yes_no' ? ['yes', 'no'] : 'options' in item ? item.options : [];
  switch (op) {
    case 'equals':
    case 'not_equals':
      return { item: item.key, op, value: item.kind === 'number' ? someNumber(g) : pick(g, answersOf()) };
    case 'one_of':
    case 'none_of':
      return { item: item.key, op, values: subset(g, answersOf(), 1) };
    case 'less_than':
    case 'greater_than':
      return { item: item.key, op, value: someNumber(g) };
    case 'between': {
      const [min, max] = [someNumber(g), someNumber(g)].sort((a, b) => a - b);
      return { item: item.key, op, min, max };
    }
    default:
      return { item: item.key, op };
  }
}

function generateRule(g: Gen, earlier: TemplateItem[]): Json | null {
  const testable = earlier.filter((item) => conditionOpsFor(item).length > 0);
  if (testable.length === 0 || g(fc.integer, { min: 0, max: 9 }) < 4) return null;
  const count = g(fc.integer, { min: 1, max: 3 });
  return {
    match: pick(g, ['all', 'any']),
    conditions: Array.from({ length: count }, () => generateCondition(g, pick(g, testable))),
  };
}

/** A valid definition: 1–4 sections of 0–5 items (at least one item), about 60 % of them with a rule. */
function generateDefinition(g: Gen): TemplateDefinition {
  const earlier: TemplateItem[] = [];
  const sections: Json[] = [];
  const sectionCount = g(fc.integer, { min: 1, max: 4 });
  let n = 0;
  for (let s = 0; s < sectionCount; s++) {
    const sectionRule = generateRule(g, earlier);
    const items: Json[] = [];
    const itemCount = g(fc.integer, { min: s === 0 ? 1 : 0, max: 5 });
    for (let i = 0; i < itemCount; i++) {
      const item = generateItem(g, `i${n++}`);
      const rule = generateRule(g, earlier);
      if (rule) item.show_when = rule;
      items.push(item);
      earlier.push(item as TemplateItem);
    }
    sections.push({ key: `s${s}`, title: `Section ${s}`, items, ...(sectionRule ? { show_when: sectionRule } : {}) });
  }
  return definitionSchema.parse({ sections });
}

/** A valid answer to `item`, or null (unanswered); photos have no value. */
function generateAnswer(g: Gen, item: TemplateItem): unknown {
  if (item.kind === 'photo' || g(fc.integer, { min: 0, max: 3 }) === 0) return null;
  switch (item.kind) {
    case 'pass_fail':
      return pick(g, ['pass', 'fail', 'na']);
    case 'yes_no':
      return pick(g, ['yes', 'no']);
    case 'number':
      return someNumber(g);
    case 'text':
      return 'Seen';
    case 'single_choice':
      return pick(g, item.options);
    case 'multi_choice':
      return subset(g, item.options, 1);
    case 'date':
      return '2026-11-26';
    case 'signature':
      return SIGNATURE;
  }
}

function generateAnswers(g: Gen, definition: TemplateDefinition): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const item of itemsOf(definition)) {
    const value = generateAnswer(g, item);
    if (value !== null) answers[item.key] = value;
  }
  return answers;
}

const visibilityCase = fc.gen().map((g) => {
  const definition = generateDefinition(g);
  const answerSets = Array.from({ length: g(fc.integer, { min: 1, max: 6 }) }, () => generateAnswers(g, definition));
  return { definition, answerSets };
});

/** Two batches of answers: the first gives values, the second changes or clears (null) some of them. */
const pipelineCase = fc.gen().map((g) => {
  const definition = generateDefinition(g);
  const first = generateAnswers(g, definition);
  const second: Record<string, unknown> = {};
  for (const item of itemsOf(definition)) {
    if (g(fc.integer, { min: 0, max: 2 }) === 0) second[item.key] = generateAnswer(g, item);
  }
  return { definition, first, second };
});

const tsVisibility = (definition: TemplateDefinition, answers: Record<string, unknown>) => {
  const { hiddenSections, hiddenItems } = evaluateVisibility(definition, (key) => answers[key]);
  return { hidden_sections: hiddenSections, hidden_items: hiddenItems };
};

let sql: postgres.Sql;
let author: User;
let orgId: string;
let siteId: string;
const counts = { definitions: 0, answerSets: 0, inspections: 0, spoiled: 0, refused: 0 };

beforeAll(async () => {
  sql = database();
  author = await newUser('logic', 'Lou Logic');
  const org = expectStatus(await post(author.client, 'orgs', { name: `Logic ${tag()}` }), 201);
  orgId = org.id;
  siteId = expectStatus(await post(author.client, `orgs/${orgId}/sites`, { name: `Logic site ${tag()}` }), 201).id;
});

afterAll(async () => {
  console.log(
    `visibility property: ${counts.definitions} definitions with ${counts.answerSets} answer sets compared; ` +
      `${counts.inspections} inspections through the tables; ${counts.spoiled} spoiled definitions (${counts.refused} refused by both)`,
  );
  await sql?.end();
});

describe('visibility has one meaning in TypeScript and SQL', () => {
  it('the evaluators hide the same sections and items for generated definitions and answers', async () => {
    await fc.assert(
      fc.asyncProperty(visibilityCase, async ({ definition, answerSets }) => {
        const rows = await sql<{ visibility: unknown }[]>`
          select private.template_visibility(${sql.json(definition as never)}::jsonb, a.answers) as visibility
          from jsonb_array_elements(${sql.json(answerSets as never)}::jsonb) with ordinality as a (answers, n)
          order by a.n
        `;
        counts.definitions++;
        counts.answerSets += answerSets.length;
        expect(rows.map((row) => row.visibility)).toEqual(answerSets.map((answers) => tsVisibility(definition, answers)));
      }),
      { numRuns: 400 },
    );
  }, 300_000);

  it('an inspection\'s hidden items, score, failed count and missing items are what the TypeScript rules predict', async () => {
    const rollback = new Error('rollback');
    await fc.assert(
      fc.asyncProperty(pipelineCase, async ({ definition, first, second }) => {
        // What the page holds after both batches: the second's values (null clears) over the first's.
        const answers: Record<string, unknown> = { ...first, ...second };
        const { hiddenItems } = evaluateVisibility(definition, (key) => answers[key]);
        const hidden = new Set(hiddenItems);
        const shown = itemsOf(definition).filter((item) => !hidden.has(item.key));
        const verdicts = shown.map((item) => [item, itemFails(item, answers[item.key] ?? null)] as const);
        const expected = {
          hidden_item_keys: hiddenItems,
          score: verdicts.filter(([, failed]) => failed === false).reduce((sum, [item]) => sum + item.weight, 0),
          max_score: verdicts.filter(([, failed]) => failed !== null).reduce((sum, [item]) => sum + item.weight, 0),
          failed_count: verdicts.filter(([, failed]) => failed === true).length,
          // No photo is confirmed here, so a required photo item that shows is always missing.
          missing: shown.filter((item) => item.required && (answers[item.key] ?? null) === null).map((item) => item.key),
        };

        const actual = await sql
          .begin(async (tx) => {
            const [template] = await tx`
              insert into public.templates (org_id, name, definition) values (${orgId}, ${`Logic ${tag()}`}, ${tx.json(definition as never)})
              returning id
            `;
            const [version] = await tx`insert into public.template_versions (template_id) values (${template.id}) returning id`;
            const [inspection] = await tx`
              insert into public.inspections (org_id, site_id, template_id) values (${orgId}, ${siteId}, ${template.id}) returning id
            `;
            await tx`set local session_replication_role = replica`;
            await tx`update public.inspections set status = 'in_progress', started_at = now() where id = ${inspection.id}`;
            await tx`set local session_replication_role = origin`;
            for (const batch of [first, second]) {
              const entries = Object.entries(batch);
              if (entries.length === 0) continue;
              await tx`
                insert into public.answers (inspection_id, item_key, value)
                select ${inspection.id}, a.key, nullif(a.value, 'null'::jsonb) from jsonb_each(${tx.json(batch as never)}::jsonb) a
                on conflict (inspection_id, item_key) do update set value = excluded.value
              `;
            }
            const [row] = await tx`
              select i.hidden_item_keys, i.score::float8 as score, i.max_score::float8 as max_score, i.failed_count,
                     private.missing_required_items(i.id, ${version.id}) as missing
              from public.inspections i where i.id = ${inspection.id}
            `;
            throw Object.assign(rollback, { row });
          })
          .catch((error) => {
            if (error !== rollback) throw error;
            return (error as Error & { row: typeof expected }).row;
          });
        counts.inspections++;
        expect(actual).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  }, 300_000);

  it('zod and the SQL definition rules refuse the same spoiled rule, on the same field, in the same words', async () => {
    const spoiled = fc.gen().map((g) => {
      const definition = generateDefinition(g) as unknown as { sections: Array<Json & { items: Json[] }> };
      const owners = definition.sections.flatMap((section, s) => [
        ...(section.show_when ? [{ owner: section, s, i: null as number | null }] : []),
        ...section.items.flatMap((item, i) => (item.show_when ? [{ owner: item, s, i }] : [])),
      ]);
      if (owners.length === 0) return { definition, spoilt: false };
      const { owner } = pick(g, owners);
      const rule = owner.show_when as { conditions: Json[] };
      const condition = pick(g, rule.conditions);
      const keys = definition.sections.flatMap((section) => section.items.map((item) => item.key as string));
      const photoKeys = definition.sections.flatMap((section) => section.items.filter((item) => item.kind === 'photo').map((item) => item.key as string));
      switch (g(fc.integer, { min: 0, max: 6 })) {
        case 0: // any item of the template, earlier or not (or the owner itself)
          condition.item = pick(g, keys);
          break;
        case 1:
          condition.item = 'nowhere';
          break;
        case 2:
          condition.item = photoKeys.length ? pick(g, photoKeys) : pick(g, keys);
          break;
        case 3: // another test, the other fields as they were
          condition.op = pick(g, [...CONDITION_OPS, 'about']);
          break;
        case 4:
          if ('value' in condition) condition.value = pick(g, ['Z', 'yes', 'pass', 'A', 99, -1]);
          else if ('values' in condition) condition.values = [...(condition.values as string[]), pick(g, ['Z', 'A', 'yes', 'na'])];
          else condition.op = pick(g, CONDITION_OPS);
          break;
        case 5:
          if (condition.op === 'between') [condition.min, condition.max] = [Number(condition.max) + 1, condition.min];
          else condition.value = 'A';
          break;
        default:
          delete condition.item;
      }
      return { definition, spoilt: true };
    });
    await fc.assert(
      fc.asyncProperty(spoiled, async ({ definition, spoilt }) => {
        const parsed = definitionSchema.safeParse(definition);
        const [{ problem }] = await sql<{ problem: string | null }[]>`
          select private.template_definition_problem(${sql.json(definition as never)}::jsonb) as problem
        `;
        if (spoilt) counts.spoiled++;
        if (parsed.success) {
          expect(problem, `zod accepted ${JSON.stringify(definition)}`).toBeNull();
          return;
        }
        counts.refused++;
        // zod's issues as the api reports them (fieldErrorsOf in _shared/http.ts).
        const issues = parsed.error.issues.flatMap((issue) =>
          issue.code === 'unrecognized_keys'
            ? issue.keys.map((key) => `${[...issue.path, key].join('.')}: This field is not allowed.`)
            : [`${issue.path.join('.')}: ${issue.message}`],
        );
        expect(issues, `SQL said ${problem} of ${JSON.stringify(definition)}`).toContain(problem);
      }),
      { numRuns: 400 },
    );
  }, 300_000);
});

// The generator covers what the rules allow: every kind is drawn, and "failed" only on scored items.
it('the generator draws scored and unscored items of every kind', () => {
  const kinds = new Set<string>();
  let scored = 0;
  fc.assert(
    fc.property(visibilityCase, ({ definition }) => {
      for (const item of itemsOf(definition)) {
        kinds.add(item.kind);
        if (isScored(item)) scored++;
      }
    }),
    { numRuns: 100 },
  );
  expect([...kinds].sort()).toEqual([...ITEM_KINDS].sort());
  expect(scored).toBeGreaterThan(0);
});
