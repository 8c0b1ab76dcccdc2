// PUT /orgs/{org}/inspections/{id}/answers through the unmodified supabase-js: a batch saved all
// or nothing with the inspection's new score; every bad value of every kind refused on its field
// with nothing written; optimistic concurrency (exactly one of two writers of an item wins, the
// other gets stale_version with the current row); 50 parallel batches leave the true score; and
// who may answer: fillers (inspectors on their own or unassigned inspections), never a viewer or
// another organization.
import { describe, expect, it } from 'vitest';
import { type ApiOutcome, call, expectProblem, expectStatus, ISO_TIMESTAMP } from '../../support/api.ts';
import { db } from '../../support/database.ts';
import { encodePng, pngDataUrl } from '../../support/png.ts';
import { inspectionSnapshot } from '../../support/snapshots.ts';
import {
  addMember, newUser, EVERY_KIND_DEFINITION, forceStatus, inProgressInspection, inspectionPath, inspectionWorldAndStranger,
  scheduleInspection, startInspection, type User, VALID_VALUES,
} from '../../support/fixtures.ts';
import { itemFails, itemsOf, type TemplateDefinition } from '../../../supabase/functions/_shared/schemas/templates.ts';

const { world, stranger, strangerWorld } = inspectionWorldAndStranger();

interface AnswerBody {
  item_key: string;
  value: unknown;
  note?: string | null;
  base_version: number | null;
}

const put = (by: User, orgId: string, id: string, answers: AnswerBody[]) =>
  call(by.client, `${inspectionPath(orgId, id)}/answers`, { method: 'PUT', body: { answers } });

const definition = EVERY_KIND_DEFINITION as unknown as TemplateDefinition;
const itemByKey = new Map(itemsOf(definition).map((item) => [item.key, item]));

/** Score, max score and failed count recomputed from answers, with the shared itemFails rules. */
function expectedTotals(rows: Array<{ item_key: string; value: unknown }>) {
  let score = 0;
  let maxScore = 0;
  let failedCount = 0;
  for (const row of rows) {
    const item = itemByKey.get(row.item_key)!;
    const failed = itemFails(item, row.value);
    if (failed === null) continue;
    maxScore += item.weight;
    if (failed) failedCount++;
    else score += item.weight;
  }
  return { score, max_score: maxScore, failed_count: failedCount };
}

describe('saving answers', () => {
  it('saves a batch of every kind in one go and returns the answers and the new score', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const answers = Object.entries(VALID_VALUES).map(([item_key, value]): AnswerBody => ({ item_key, value, note: null, base_version: null }));
    answers[0] = { ...answers[0], value: 'fail', note: '  Sticky by the door  ' };
    const body = expectStatus(await put(world.inspector, world.org.id, id, answers), 200);

    expect(body.answers.map((a: any) => a.item_key)).toEqual(answers.map((a) => a.item_key));
    expect(body.answers[0]).toEqual({
      item_key: 'floor_clean', value: 'fail', note: 'Sticky by the door', failed: true,
      answered_by: world.inspector.userId, answered_by_name: world.inspector.displayName,
      answered_at: expect.stringMatching(ISO_TIMESTAMP), version: 1,
    });
    const byKey = Object.fromEntries(body.answers.map((a: any) => [a.item_key, a]));
    expect(byKey.fridge_temp).toMatchObject({ value: 3.5, failed: false, version: 1 });
    expect(byKey.hazards).toMatchObject({ value: ['None'], failed: false });
    expect(byKey.remarks).toMatchObject({ value: 'All fine.', failed: null });
    expect(byKey.signature.value).toEqual(VALID_VALUES.signature);
    // floor_clean fails (2); fridge_locked 1, fridge_temp 3, cleanliness 2, hazards 1 pass.
    expect(body.inspection).toMatchObject({ id, score: 7, max_score: 9, failed_count: 1, version: expect.any(Number) });

    const [row] = await db()`select score, max_score, failed_count, version from public.inspections where id = ${id}`;
    expect({ score: Number(row.score), max_score: Number(row.max_score), failed_count: row.failed_count, version: row.version })
      .toEqual({ score: 7, max_score: 9, failed_count: 1, version: body.inspection.version });
  });

  it('changes an answer from the version last seen, keeps an absent note and clears one sent as null', async () => {
    const id = await inProgressInspection(world, world.inspector);
    expectStatus(await put(world.inspector, world.org.id, id, [
      { item_key: 'fridge_locked', value: 'yes', note: 'Padlocked', base_version: null },
      { item_key: 'remarks', value: 'First look', note: 'Draft', base_version: null },
    ]), 200);
    const body = expectStatus(await put(world.manager, world.org.id, id, [
      { item_key: 'fridge_locked', value: 'no', base_version: 1 },
      { item_key: 'remarks', value: null, note: null, base_version: 1 },
    ]), 200);
    expect(body.answers).toEqual([
      expect.objectContaining({ item_key: 'fridge_locked', value: 'no', note: 'Padlocked', failed: true, version: 2, answered_by: world.manager.userId }),
      expect.objectContaining({ item_key: 'remarks', value: null, note: null, failed: null, version: 2 }),
    ]);
    expect(body.inspection).toMatchObject({ score: 0, max_score: 1, failed_count: 1 });
  });

  it('refuses a stale base_version with the current row, and a new answer for an item already answered', async () => {
    const id = await inProgressInspection(world, world.inspector);
    expectStatus(await put(world.inspector, world.org.id, id, [{ item_key: 'floor_clean', value: 'pass', base_version: null }]), 200);
    const before = await inspectionSnapshot(world.org.id);

    const stale = expectProblem(await put(world.inspector2, world.org.id, id, [
      { item_key: 'remarks', value: 'Fine', base_version: null },
      { item_key: 'floor_clean', value: 'fail', base_version: null },
    ]), 409, 'stale_version');
    expect(stale.current).toEqual([expect.objectContaining({
      item_key: 'floor_clean', value: 'pass', version: 1, answered_by: world.inspector.userId, answered_by_name: world.inspector.displayName,
    })]);
    const older = expectProblem(await put(world.inspector2, world.org.id, id, [{ item_key: 'floor_clean', value: 'fail', base_version: 7 }]),
      409, 'stale_version');
    expect(older.current).toEqual([expect.objectContaining({ item_key: 'floor_clean', version: 1 })]);
    // The whole batch is refused: the fresh remarks answer was not written either.
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it("lets exactly one of two concurrent writers of one item win; the other gets stale_version with the winner's value", async () => {
    const id = await inProgressInspection(world, world.inspector);
    const outcomes = await Promise.all([
      put(world.inspector, world.org.id, id, [{ item_key: 'cleanliness', value: 'Good', base_version: null }]),
      put(world.inspector2, world.org.id, id, [{ item_key: 'cleanliness', value: 'Poor', base_version: null }]),
    ]);
    const winners = outcomes.filter((o) => o.status === 200);
    const losers = outcomes.filter((o) => o.status !== 200);
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    const problem = expectProblem(losers[0], 409, 'stale_version');
    const winner = winners[0].body.answers[0];
    expect(problem.current).toEqual([winner]);
    const rows = await db()`select value, version from public.answers where inspection_id = ${id}`;
    expect(rows.map((r) => ({ value: r.value, version: r.version }))).toEqual([{ value: winner.value, version: 1 }]);
  });

  // api/answers.ts checks a batch against what it read, then writes it in one message that
  // first locks the inspection and stops if any of that changed meanwhile; the batch is then
  // checked again under the lock. These hold the lock from the database to make "meanwhile"
  // happen for certain: the PUT has read and is waiting for the lock when the change commits.
  async function changeWhileTheSaveWaits(id: string, change: (tx: any) => Promise<unknown>, save: () => Promise<ApiOutcome>) {
    const sql = db();
    let outcome: Promise<ApiOutcome> | undefined;
    await sql.begin(async (tx) => {
      await tx`select 1 from public.inspections where id = ${id} for update`;
      outcome = save();
      // The function's backend waits on this row lock once it has read (same role: visible here).
      for (let i = 0; ; i++) {
        const [{ waiting }] = await sql`
          select count(*)::int as waiting from pg_stat_activity
          where wait_event_type = 'Lock' and query like '%stop_if_changed%' and pid <> pg_backend_pid()`;
        if (waiting > 0) break;
        if (i > 200) throw new Error('the save never waited for the lock');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await change(tx);
    });
    return await outcome!;
  }

  it('a batch whose answer changed between its read and its write is checked again under the lock: stale_version', async () => {
    const id = await inProgressInspection(world, world.inspector);
    expectStatus(await put(world.inspector, world.org.id, id, [{ item_key: 'remarks', value: 'first', base_version: null }]), 200);
    const outcome = await changeWhileTheSaveWaits(
      id,
      (tx) => tx`update public.answers set value = '"changed meanwhile"'::jsonb where inspection_id = ${id} and item_key = 'remarks'`,
      () => put(world.inspector, world.org.id, id, [{ item_key: 'remarks', value: 'second', base_version: 1 }]),
    );
    const problem = expectProblem(outcome, 409, 'stale_version');
    expect(problem.current).toEqual([expect.objectContaining({ item_key: 'remarks', value: 'changed meanwhile', version: 2 })]);
    const rows = await db()`select value, version from public.answers where inspection_id = ${id}`;
    expect(rows.map((r) => ({ value: r.value, version: r.version }))).toEqual([{ value: 'changed meanwhile', version: 2 }]);
  });

  it('a batch whose inspection changed between its read and its write, in a way that still allows it, is saved under the lock', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const outcome = await changeWhileTheSaveWaits(
      id,
      // Assigned to the very inspector who is saving: the check under the lock lets it through.
      (tx) => tx`update public.inspections set assignee_id = ${world.inspector.userId} where id = ${id}`,
      () => put(world.inspector, world.org.id, id, [{ item_key: 'remarks', value: 'kept', base_version: null }]),
    );
    const saved = expectStatus(outcome, 200);
    expect(saved.answers).toEqual([expect.objectContaining({ item_key: 'remarks', value: 'kept', version: 1 })]);
    const [row] = await db()`select assignee_id from public.inspections where id = ${id}`;
    expect(row.assignee_id).toBe(world.inspector.userId);
  });

  it('keeps score, max score and failed count true after 50 parallel batches on one inspection', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const choices: Record<string, unknown[]> = {
      floor_clean: ['pass', 'fail', 'na'],
      fridge_locked: ['yes', 'no'],
      fridge_temp: [-2, 3, 9],
      cleanliness: ['Good', 'Fair', 'Poor'],
      hazards: [['None'], ['Wet floor'], ['Blocked exit', 'Wet floor']],
      remarks: ['ok', null],
    };
    const keys = Object.keys(choices);
    // Writers of their own: each retry is a request, over a thousand in all, and the fixture's
    // users need their rate-limit buckets (docs/api-keys.md) for the tests after this one.
    const roles = ['inspector', 'inspector', 'manager', 'admin', 'owner'] as const;
    const writers = await Promise.all(roles.map(async (role, i) => {
      const writer = await newUser(`parallel-${i}`, `Parallel ${i}`);
      await addMember(world.owner, world.org.id, writer, role);
      return writer;
    }));
    const statuses: number[] = [];
    // Each batch answers 3 items; on stale_version it retries from the versions it was shown, as a client would.
    await Promise.all(Array.from({ length: 50 }, async (_, n) => {
      const batchKeys = [keys[n % keys.length], keys[(n + 1) % keys.length], keys[(n + 3) % keys.length]];
      const seen = new Map<string, number | null>(batchKeys.map((k) => [k, null]));
      for (let attempt = 0; attempt < 100; attempt++) {
        const answers = batchKeys.map((k) => ({ item_key: k, value: choices[k][(n + attempt) % choices[k].length], base_version: seen.get(k)! }));
        const outcome = await put(writers[n % writers.length], world.org.id, id, answers);
        statuses.push(outcome.status);
        if (outcome.status === 200) return;
        expectProblem(outcome, 409, 'stale_version');
        for (const row of outcome.body.current) seen.set(row.item_key, row.version);
      }
      throw new Error(`batch ${n} never landed`);
    }));
    expect(statuses.filter((s) => s === 200)).toHaveLength(50);

    const rows = await db()`select item_key, value, version from public.answers where inspection_id = ${id}`;
    const [inspection] = await db()`select score, max_score, failed_count from public.inspections where id = ${id}`;
    expect({ score: Number(inspection.score), max_score: Number(inspection.max_score), failed_count: inspection.failed_count })
      .toEqual(expectedTotals(rows as any));
    // Every landed batch bumped each of its three items once: 150 writes in all.
    expect(rows.reduce((sum, r) => sum + r.version, 0)).toBe(150);
  // Over a thousand requests with retries: 30 s is not enough on a loaded two-core machine, and a
  // test that times out leaves its batches running into the tests after it (seen in a full run).
  }, 180_000);
});

describe('refused batches write nothing', () => {
  const refusedValues: Array<[string, unknown]> = [
    ['floor_clean', 'maybe'],
    ['floor_clean', true],
    ['fridge_locked', 'perhaps'],
    ['fridge_temp', '3.5'],
    ['fridge_temp', [3]],
    ['remarks', '   '],
    ['remarks', 'x'.repeat(4001)],
    ['remarks', 12],
    ['cleanliness', 'Excellent'],
    ['cleanliness', ['Good']],
    ['hazards', []],
    ['hazards', ['None', 'None']],
    ['hazards', ['Flood']],
    ['hazards', 'None'],
    ['last_service', '2025-02-29'],
    ['last_service', '31/01/2026'],
    ['photo', 'kitchen.jpg'],
    ['signature', { signer: '', image: 'data:image/png;base64,iVBORw0KGgo=' }],
    ['signature', { signer: 'Mia', image: 'data:image/jpeg;base64,/9j/' }],
    ['signature', { signer: 'Mia', image: 'data:image/png;base64,iVBORw0KGgo=', extra: 1 }],
    ['signature', 'Mia'],
  ];

  it.each(refusedValues)('refuses %s = %j on answers.1.value, whole batch', async (itemKey, value) => {
    const id = await inProgressInspection(world, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await put(world.inspector, world.org.id, id, [
      { item_key: 'remarks' === itemKey ? 'floor_clean' : 'remarks', value: itemKey === 'remarks' ? 'pass' : 'Fine', base_version: null },
      { item_key: itemKey, value, base_version: null },
    ]), 422, 'validation_failed', ['answers.1.value']);
    expect(problem.errors[0].message).toMatch(/^[A-Z].*\.$/);
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('refuses an item that is not in the pinned version, on answers.0.item_key', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await put(world.inspector, world.org.id, id, [{ item_key: 'not_an_item', value: 'pass', base_version: null }]),
      422, 'validation_failed', ['answers.0.item_key']);
    expect(problem.errors[0].message).toBe("This item is not in the inspection's template.");
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('refuses bad batches by their shape: none, more than 100, a repeated item, a bad note or version, unknown keys', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    const answer = { item_key: 'remarks', value: 'Fine', base_version: null };
    const path = `${inspectionPath(world.org.id, id)}/answers`;
    const cases: Array<[unknown, string[]]> = [
      [{ answers: [] }, ['answers']],
      [{ answers: Array.from({ length: 101 }, (_, i) => ({ ...answer, item_key: `item-${i}` })) }, ['answers']],
      [{ answers: [answer, { ...answer, value: 'Again' }] }, ['answers.1.item_key']],
      [{ answers: [{ ...answer, note: 'x'.repeat(2001) }] }, ['answers.0.note']],
      [{ answers: [{ ...answer, base_version: 0 }] }, ['answers.0.base_version']],
      [{ answers: [{ ...answer, base_version: 1.5 }] }, ['answers.0.base_version']],
      [{ answers: [{ item_key: 'remarks', value: 'Fine' }] }, ['answers.0.base_version']],
      [{ answers: [{ item_key: 'remarks', base_version: null }] }, ['answers.0.value']],
      [{ answers: [{ ...answer, item_key: 'Not A Key' }] }, ['answers.0.item_key']],
      [{ answers: [{ ...answer, failed: false }] }, ['answers.0.failed']],
      [{ answers: [answer], inspection_version: 3 }, ['inspection_version']],
    ];
    for (const [body, fields] of cases) {
      expectProblem(await call(world.inspector.client, path, { method: 'PUT', body }), 422, 'validation_failed', fields);
    }
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('refuses answers in every status but in progress with invalid_transition', async () => {
    for (const status of ['scheduled', 'submitted', 'changes_requested', 'approved', 'canceled']) {
      const inspection = await scheduleInspection(world);
      if (status !== 'scheduled') await forceStatus(inspection.id, status);
      const problem = expectProblem(
        await put(world.owner, world.org.id, inspection.id, [{ item_key: 'remarks', value: 'Late', base_version: null }]), 409, 'invalid_transition');
      expect(problem.title).toMatch(/^This inspection is .+, so it can't be answered\.$/);
      const rows = await db()`select 1 from public.answers where inspection_id = ${inspection.id}`;
      expect(rows).toHaveLength(0);
    }
  });
});

describe("a signature's image is held to 2 megapixels by the size its PNG declares (issue 24)", () => {
  /** A real PNG of width × height grey pixels, as a data URL: huge in pixels, small in bytes. */
  const greyPng = (width: number, height: number) =>
    pngDataUrl(encodePng({ width, height, colorType: 0, sample: () => [255], filter: () => 0, level: 9 }));
  const sign = (image: string) => ({ signer: 'Mia Manager', image });

  it('accepts a PNG of exactly 2 megapixels, and the web pad\'s 600 × 200', async () => {
    const id = await inProgressInspection(world, world.inspector);
    let baseVersion: number | null = null;
    for (const [width, height] of [[2000, 1000], [600, 200]]) {
      const image = greyPng(width, height);
      const saved = expectStatus(await put(world.inspector, world.org.id, id, [{ item_key: 'signature', value: sign(image), base_version: baseVersion }]), 200);
      expect(saved.answers[0].value).toEqual(sign(image));
      baseVersion = saved.answers[0].version;
    }
  });

  it.each([
    [7000, 7000, 'The signature image is too large (7000 × 7000 pixels; the limit is 2 megapixels); clear it and sign again.'],
    [2000, 1001, 'The signature image is too large (2000 × 1001 pixels; the limit is 2 megapixels); clear it and sign again.'],
  ])('refuses a %i × %i PNG within the 200 000 characters on answers.0.value, writing nothing', async (width, height, message) => {
    const id = await inProgressInspection(world, world.inspector);
    const image = greyPng(width, height);
    expect(image.length).toBeLessThanOrEqual(200_000);
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await put(world.inspector, world.org.id, id, [{ item_key: 'signature', value: sign(image), base_version: null }]),
      422, 'validation_failed', ['answers.0.value']);
    expect(problem.title).toBe('Some fields need attention.');
    expect(problem.errors).toEqual([{ field: 'answers.0.value', message }]);
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('refuses a data URL whose data is not a PNG header, as not a PNG', async () => {
    const id = await inProgressInspection(world, world.inspector);
    for (const image of ['data:image/png;base64,iVBORw0KGgo=', `data:image/png;base64,${'A'.repeat(1000)}`]) {
      const problem = expectProblem(await put(world.inspector, world.org.id, id, [{ item_key: 'signature', value: sign(image), base_version: null }]),
        422, 'validation_failed', ['answers.0.value']);
      expect(problem.errors).toEqual([{ field: 'answers.0.value', message: 'Send the signature as a PNG data URL.' }]);
    }
    expect(await db()`select 1 from public.answers where inspection_id = ${id}`).toHaveLength(0);
  });
});

describe('who may answer', () => {
  it('lets every filler role answer, and an inspector only their own or unassigned inspections', async () => {
    const open = await inProgressInspection(world, world.inspector);
    for (const [i, role] of (['owner', 'admin', 'manager', 'inspector'] as const).entries()) {
      const keys = ['floor_clean', 'fridge_locked', 'fridge_temp', 'remarks'];
      expectStatus(await put(world[role], world.org.id, open, [{ item_key: keys[i], value: VALID_VALUES[keys[i]], base_version: null }]), 200);
    }
    const assigned = await inProgressInspection(world, world.inspector2, { assignee_id: world.inspector2.userId });
    const before = await inspectionSnapshot(world.org.id);
    const problem = expectProblem(await put(world.inspector, world.org.id, assigned, [{ item_key: 'remarks', value: 'Mine?', base_version: null }]),
      403, 'forbidden');
    expect(problem.detail).toBe('This inspection is assigned to someone else.');
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
    expectStatus(await put(world.inspector2, world.org.id, assigned, [{ item_key: 'remarks', value: 'Mine', base_version: null }]), 200);
  });

  it('refuses a viewer with 403 and writes nothing', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    expectProblem(await put(world.viewer, world.org.id, id, [{ item_key: 'remarks', value: 'Seen', base_version: null }]), 403, 'forbidden');
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
  });

  it('answers 404 across organizations, for the organization, the inspection and a missing one alike', async () => {
    const id = await inProgressInspection(world, world.inspector);
    const before = await inspectionSnapshot(world.org.id);
    const answer = [{ item_key: 'remarks', value: 'Sneaky', base_version: null }];
    // A stranger with A's ids; A's owner with A's org and an inspection of the stranger's; a made-up inspection.
    expectProblem(await put(stranger, world.org.id, id, answer), 404, 'not_found');
    const theirs = await scheduleInspection({ ...world, org: { id: strangerWorld.orgId }, site: strangerWorld.site, template: strangerWorld.template }, {}, stranger);
    await startInspection({ ...world, org: { id: strangerWorld.orgId } } as any, theirs.id, stranger);
    const cross = expectProblem(await put(world.owner, world.org.id, theirs.id, answer), 404, 'not_found');
    expect(cross.title).toBe("We couldn't find that inspection.");
    expectProblem(await put(world.owner, strangerWorld.orgId, theirs.id, answer), 404, 'not_found');
    expectProblem(await put(world.owner, world.org.id, '00000000-0000-4000-8000-000000000000', answer), 404, 'not_found');
    expect(await inspectionSnapshot(world.org.id)).toEqual(before);
    expect(await db()`select 1 from public.answers where inspection_id = ${theirs.id}`).toHaveLength(0);
  });
});
