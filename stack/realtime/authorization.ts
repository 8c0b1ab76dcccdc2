// Private-channel authorization as Supabase Realtime does it (Realtime.Tenants.Authorization):
// RLS on realtime.messages decides, evaluated as the caller — role from the JWT,
// request.jwt.claims and realtime.topic set — in a transaction that is always rolled back.
//   read:  probe rows for 'broadcast' and 'presence' are inserted, then selected as the caller;
//   write: the caller inserts a probe row per extension; insufficient_privilege means no.
import type { Sql, TransactionSql } from 'postgres';
import { actAsCaller, inRolledBackTransaction } from '../caller.ts';
import type { Identity } from './tokens.ts';

export interface ExtensionPolicies {
  broadcast: boolean;
  presence: boolean;
}

function actAs(tx: TransactionSql, topic: string, identity: Identity): Promise<void> {
  return actAsCaller(tx, identity, { 'realtime.topic': topic, 'request.headers': '{}' });
}

/** What the caller may receive on `topic` (the channel name without `realtime:`). */
export function readPolicies(sql: Sql, topic: string, identity: Identity): Promise<ExtensionPolicies> {
  return inRolledBackTransaction(sql, async (tx) => {
    const probes = await tx<{ id: string; extension: string }[]>`
      insert into realtime.messages (topic, extension)
      values (${topic}, 'broadcast'), (${topic}, 'presence')
      returning id, extension`;
    await actAs(tx, topic, identity);
    const visible = await tx<{ id: string }[]>`
      select id from realtime.messages where topic = ${topic} and id in ${tx(probes.map((probe) => probe.id))}`;
    const seen = new Set(visible.map((row) => row.id));
    const allowed = (extension: string) => probes.some((probe) => probe.extension === extension && seen.has(probe.id));
    return { broadcast: allowed('broadcast'), presence: allowed('presence') };
  });
}

/** What the caller may send on `topic`: broadcasts, and presence. */
export function writePolicies(sql: Sql, topic: string, identity: Identity): Promise<ExtensionPolicies> {
  return inRolledBackTransaction(sql, async (tx) => {
    await actAs(tx, topic, identity);
    const mayInsert = async (extension: string) => {
      try {
        await tx.savepoint((sp) => sp`insert into realtime.messages (topic, extension) values (${topic}, ${extension})`);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === '42501') return false; // insufficient_privilege: RLS said no
        throw error;
      }
    };
    return { broadcast: await mayInsert('broadcast'), presence: await mayInsert('presence') };
  });
}
