// A connection as `postgres` (no superuser, as on hosted) to the stack's database, for checks the API cannot make (auth.* rows,
// proof that a refused request wrote nothing) and for fixtures that arrange rows a test is not about.
import postgres from 'postgres';
import { stack } from './stack.ts';

/** A connection of the caller's own, which the caller ends. */
export function database(): postgres.Sql {
  return postgres(stack.DB_URL, { max: 2, onnotice: () => {} });
}

let shared: postgres.Sql | undefined;

/** The connection a test file's helpers share (made on first use); `closeDb` ends it after the file. */
export function db(): postgres.Sql {
  shared ??= postgres(stack.DB_URL, { max: 3, onnotice: () => {} });
  return shared;
}

export async function closeDb(): Promise<void> {
  await shared?.end({ timeout: 5 });
  shared = undefined;
}
