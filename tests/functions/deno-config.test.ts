// supabase/functions/deno.json serves local tooling and tests; api/deno.json is what
// `supabase functions deploy api` bundles with. Their pinned packages must never drift apart.
import assert from 'node:assert/strict';

const read = async (file: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`../../supabase/functions/${file}`, import.meta.url)));

Deno.test('the api function pins exactly the same npm packages as the shared deno.json', async () => {
  const shared = await read('deno.json');
  const api = await read('api/deno.json');
  assert.deepEqual(api.imports, shared.imports);
});

Deno.test('every import is an exact npm: version (no JSR, no URLs, no ranges)', async () => {
  const { imports } = await read('deno.json');
  for (const [name, target] of Object.entries<string>(imports)) {
    assert.match(target, /^npm:(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/, `${name} → ${target}`);
  }
});
