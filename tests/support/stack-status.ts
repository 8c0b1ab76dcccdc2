// The shape of a stack under test, and how to read the real Supabase CLI's. Kept apart from
// stack.ts, which resolves the stack as soon as it is imported.
import { execFileSync } from 'node:child_process';
import type { StackStatus } from '../../stack/server.ts';

/** The stack's status (`supabase status -o json`'s keys), plus what only tests need. */
export interface TestStack extends StackStatus {
  /** The stack's data folder (holds signing-key.json). */
  DATA_DIR: string;
  /** The web app under test (e2e only). */
  WEB_URL: string;
}

/** The running Supabase CLI stack, in the same shape (no data folder: its keys are the CLI's). */
export function supabaseCliStack(): TestStack {
  const status = JSON.parse(execFileSync('supabase', ['status', '-o', 'json'], { encoding: 'utf8' }));
  return {
    ...status,
    FUNCTIONS_URL: `${status.API_URL}/functions/v1`,
    JWKS_URL: `${status.API_URL}/auth/v1/.well-known/jwks.json`,
    MAIL_URL: status.MAILPIT_URL ?? status.INBUCKET_URL,
    DATA_DIR: '',
    WEB_URL: process.env.WEB_URL ?? 'http://localhost:5173',
  };
}
