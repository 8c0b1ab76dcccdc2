// Where the stack under test is. `npm test` starts a private stack and passes its status in
// FIELDCHECK_TEST_STACK; run by hand, a test file uses the developer's running stack instead,
// or, with FIELDCHECK_STACK=supabase, the real Supabase CLI's (`supabase status -o json`).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { supabaseCliStack, type TestStack } from './stack-status.ts';

export type { TestStack };

function load(): TestStack {
  if (process.env.FIELDCHECK_TEST_STACK) return JSON.parse(process.env.FIELDCHECK_TEST_STACK);
  if (process.env.FIELDCHECK_STACK === 'supabase') return supabaseCliStack();
  const statusFile = path.resolve(import.meta.dirname, '..', '..', '.stack', 'status.json');
  if (!existsSync(statusFile)) {
    throw new Error('No stack to test against: run `npm test`, or start one with `npm run stack:start`.');
  }
  const status = JSON.parse(readFileSync(statusFile, 'utf8'));
  return {
    ...status,
    DATA_DIR: path.resolve(import.meta.dirname, '..', '..', '.stack', 'data'),
    WEB_URL: process.env.WEB_URL ?? 'http://localhost:5173',
  };
}

export const stack: TestStack = load();
