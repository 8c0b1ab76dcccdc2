// Where the stack under test is. `npm test` starts a private stack and passes its status in
// FIELDCHECK_STACK; run by hand, a test file uses the developer's running stack instead.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface TestStack {
  API_URL: string;
  FUNCTIONS_URL: string;
  DB_URL: string;
  JWKS_URL: string;
  MAIL_URL: string;
  ANON_KEY: string;
  SERVICE_ROLE_KEY: string;
  PUBLISHABLE_KEY: string;
  SECRET_KEY: string;
  JWT_SECRET: string;
  /** The stack's data folder (holds signing-key.json). */
  DATA_DIR: string;
  /** The web app under test (e2e only). */
  WEB_URL: string;
}

function load(): TestStack {
  if (process.env.FIELDCHECK_STACK) return JSON.parse(process.env.FIELDCHECK_STACK);
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
