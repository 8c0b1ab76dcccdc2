// Running SQL as an API caller, as Supabase's services do: inside a transaction the platform's
// connection switches to the caller's database role with the caller's JWT claims in
// `request.jwt.claims`, so RLS policies decide (auth.uid() and auth.jwt() read those claims).
// Every setting is transaction-local and ends with the transaction.
import type { Sql, TransactionSql } from 'postgres';

export interface SqlCaller {
  /** The database role: anon, authenticated or service_role. */
  role: string;
  claims: Record<string, unknown>;
}

/** Switches `tx` to the caller's role and claims, plus any further settings a service needs (name → value). */
export async function actAsCaller(tx: TransactionSql, caller: SqlCaller, settings: Record<string, string> = {}): Promise<void> {
  const names = ['role', 'request.jwt.claims', ...Object.keys(settings)];
  const values = [caller.role, JSON.stringify(caller.claims), ...Object.values(settings)];
  await tx`select set_config(name, value, true) from unnest(${names}::text[], ${values}::text[]) as setting(name, value)`;
}

class RolledBack<T> extends Error {
  readonly value: T;
  constructor(value: T) {
    super('rolled back');
    this.value = value;
  }
}

/** Runs `work` in a transaction that is rolled back whatever happens, and returns its value. */
export async function inRolledBackTransaction<T>(sql: Sql, work: (tx: TransactionSql) => Promise<T>): Promise<T> {
  try {
    await sql.begin(async (tx) => {
      throw new RolledBack(await work(tx));
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.value as T;
    throw error;
  }
  throw new Error('Unreachable: the transaction always rolls back');
}
