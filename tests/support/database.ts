// A connection as `postgres` (no superuser, as on hosted) to the stack's database, for checks the API cannot make (auth.* rows,
// proof that a refused request wrote nothing). Tests act through the API; this only looks.
import postgres from 'postgres';
import { stack } from './stack.ts';

export function database(): postgres.Sql {
  return postgres(stack.DB_URL, { max: 2, onnotice: () => {} });
}
