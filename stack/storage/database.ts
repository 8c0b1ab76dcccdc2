// Running Storage's SQL as the caller: each operation is one transaction that switches to the
// caller's role with `request.jwt.claims` set, as storage-api does, so the policies on
// storage.objects decide. Postgres errors become Storage's errors (RLS → AccessDenied,
// unique → ResourceAlreadyExists) the way storage-api maps them.
import type { Sql, TransactionSql } from 'postgres';
import { actAsCaller, inRolledBackTransaction } from '../caller.ts';
import type { Caller } from './caller.ts';
import { errors, StorageError } from './errors.ts';

export type Tx = TransactionSql;

/** Switches the transaction to the caller's role and claims (undone at its end). */
export function actAs(tx: Tx, caller: Caller): Promise<void> {
  // storage-api also sets the single-claim settings older policies read.
  return actAsCaller(tx, caller, { 'request.jwt.claim.sub': caller.sub ?? '', 'request.jwt.claim.role': caller.role });
}

/** Back to the platform's own (superuser) role inside the same transaction. */
export async function actAsPlatform(tx: Tx): Promise<void> {
  await tx`set local role none`;
}

/** The Storage error a database failure stands for; anything unknown is rethrown as is. */
export function storageErrorFrom(error: unknown): unknown {
  if (error instanceof StorageError) return error;
  const pg = error as { code?: string; message?: string; name?: string };
  if (pg?.name !== 'PostgresError' || typeof pg.code !== 'string') return error;
  switch (pg.code) {
    case '42501':
      return errors.accessDenied(pg.message?.includes('row-level security') ? 'new row violates row-level security policy' : pg.message ?? 'Access denied');
    case '23505':
      return errors.resourceAlreadyExists();
    case '23503':
      return errors.relatedResourceNotFound();
    case '57014':
      return errors.databaseTimeout();
    default:
      return errors.databaseError(pg.code);
  }
}

/** Runs `work` in one transaction as the caller. */
export async function asCaller<T>(sql: Sql, caller: Caller, work: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return (await sql.begin(async (tx) => {
      await actAs(tx, caller);
      return work(tx);
    })) as T;
  } catch (error) {
    throw storageErrorFrom(error);
  }
}

/**
 * Lets this transaction delete rows of storage.objects / storage.buckets: Storage's delete
 * protection (stack/platform/20-storage.sql) refuses deletes that do not come from the Storage
 * API, which sets this setting first, as storage-api does.
 */
export async function allowStorageDeletes(tx: Tx): Promise<void> {
  await tx`select set_config('storage.allow_delete_query', 'true', true)`;
}

/** Runs `work` as the caller and rolls it back: a dry run that only asks whether RLS admits it. */
export async function testPermission(sql: Sql, caller: Caller, work: (tx: Tx) => Promise<unknown>): Promise<void> {
  try {
    await inRolledBackTransaction(sql, async (tx) => {
      await actAs(tx, caller);
      await work(tx);
    });
  } catch (error) {
    throw storageErrorFrom(error);
  }
}
