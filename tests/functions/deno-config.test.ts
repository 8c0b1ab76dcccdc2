// supabase/functions/deno.json serves local tooling and tests; each function's own deno.json is
// what `supabase functions deploy <name>` bundles with. Their pinned packages must never drift apart.
import assert from 'node:assert/strict';

const read = async (file: string) =>
  JSON.parse(await Deno.readTextFile(new URL(`../../supabase/functions/${file}`, import.meta.url)));

for (const fn of ['api', 'webhook-deliveries', 'reminder-mails']) {
  Deno.test(`the ${fn} function pins exactly the same npm packages as the shared deno.json`, async () => {
    const shared = await read('deno.json');
    const own = await read(`${fn}/deno.json`);
    assert.deepEqual(own.imports, shared.imports);
  });
}

Deno.test('every import is an exact npm: version (no JSR, no URLs, no ranges)', async () => {
  const { imports } = await read('deno.json');
  for (const [name, target] of Object.entries<string>(imports)) {
    assert.match(target, /^npm:(@[\w.-]+\/)?[\w.-]+@\d+\.\d+\.\d+$/, `${name} → ${target}`);
  }
});
