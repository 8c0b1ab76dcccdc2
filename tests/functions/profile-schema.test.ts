// The profile schema is the first line of docs/product.md §5's validation: trimmed names of 1–120
// characters and nothing else in the body.
import assert from 'node:assert/strict';
import { profileUpdateSchema } from '../../supabase/functions/_shared/schemas/profile.ts';

Deno.test('a plain display name is accepted and trimmed', () => {
  const parsed = profileUpdateSchema.parse({ display_name: '  Ada Lovelace \n' });
  assert.deepEqual(parsed, { display_name: 'Ada Lovelace' });
});

Deno.test('a display name of exactly 120 characters is accepted', () => {
  const name = 'x'.repeat(120);
  assert.equal(profileUpdateSchema.parse({ display_name: name }).display_name, name);
});

Deno.test('a display name of 121 characters is rejected with a sentence-case message', () => {
  const result = profileUpdateSchema.safeParse({ display_name: 'x'.repeat(121) });
  assert.equal(result.success, false);
  assert.deepEqual(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message]), [
    ['display_name', 'Use at most 120 characters.'],
  ]);
});

Deno.test('a name that is only whitespace is rejected as empty', () => {
  const result = profileUpdateSchema.safeParse({ display_name: ' \t\n ' });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0].message, 'Enter a display name.');
});

Deno.test('a display name of the wrong type is rejected', () => {
  for (const value of [42, null, true, ['Ada'], { first: 'Ada' }]) {
    const result = profileUpdateSchema.safeParse({ display_name: value });
    assert.equal(result.success, false, `accepted ${JSON.stringify(value)}`);
    assert.deepEqual(result.error?.issues[0].path, ['display_name']);
  }
});

Deno.test('a missing display name is rejected', () => {
  const result = profileUpdateSchema.safeParse({});
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0].message, 'Enter a display name.');
});

Deno.test('unknown keys are rejected, not stripped', () => {
  const result = profileUpdateSchema.safeParse({ display_name: 'Ada', user_id: crypto.randomUUID() });
  assert.equal(result.success, false);
  assert.equal(result.error?.issues[0].code, 'unrecognized_keys');
});

Deno.test('bodies that are not objects are rejected', () => {
  for (const value of ['Ada', 1, null, [], undefined]) {
    assert.equal(profileUpdateSchema.safeParse(value).success, false, `accepted ${JSON.stringify(value)}`);
  }
});
