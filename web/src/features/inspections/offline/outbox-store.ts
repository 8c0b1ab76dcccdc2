import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Answer } from '../types';

/** An answer change waiting on this device to reach the server. */
export interface AnswerEntry {
  kind: 'answer';
  id: string;
  /** Order of arrival: the outbox sends in this order. */
  seq: number;
  userId: string;
  orgId: string;
  inspectionId: string;
  itemKey: string;
  value: unknown;
  note: string | null;
  /**
   * The answer version this change was made from (null: no answer yet). `undefined` while an
   * earlier change of the same item is on its way: it takes the version that save returns.
   */
  baseVersion: number | null | undefined;
  /** Not sent before this instant (typing pauses; backoff after a failure). */
  notBefore: number;
  attempts: number;
  /** The last failure, in the user's words. */
  error?: string;
  /** The last attempt got no answer at all: the device is offline, whatever the browser says. */
  unreachable?: boolean;
  /**
   * `failed`: the server refused it for good (the value, the inspection's state): shown until
   * discarded. `conflict`: someone else saved the item first (`theirs`), the user chooses.
   */
  parked?: 'failed' | 'conflict';
  theirs?: Answer;
}

/** A photo waiting on this device, with how far its upload got. */
export interface PhotoEntry {
  kind: 'photo';
  id: string;
  seq: number;
  userId: string;
  orgId: string;
  inspectionId: string;
  itemKey: string;
  blob: Blob;
  contentType: string;
  fileName: string;
  /** After the check-in: the pending attachment and where to upload it. */
  attachmentId?: string;
  upload?: { path: string; token: string };
  uploaded?: boolean;
  notBefore: number;
  attempts: number;
  error?: string;
  unreachable?: boolean;
  parked?: 'failed';
}

export type OutboxEntry = AnswerEntry | PhotoEntry;

interface OutboxSchema extends DBSchema {
  entries: { key: string; value: OutboxEntry; indexes: { seq: number } };
}

const DB_NAME = 'fieldcheck-outbox';

/** Where the outbox keeps its entries: IndexedDB, so they outlive a reload, a crash or a dead battery. */
export interface OutboxStore {
  list(): Promise<OutboxEntry[]>;
  put(entry: OutboxEntry): Promise<void>;
  remove(id: string): Promise<void>;
}

export async function openOutboxStore(name = DB_NAME): Promise<OutboxStore> {
  const db: IDBPDatabase<OutboxSchema> = await openDB<OutboxSchema>(name, 1, {
    upgrade(database) {
      const store = database.createObjectStore('entries', { keyPath: 'id' });
      store.createIndex('seq', 'seq');
    },
  });
  return {
    list: () => db.getAllFromIndex('entries', 'seq'),
    put: async (entry) => {
      await db.put('entries', entry);
    },
    remove: (id) => db.delete('entries', id),
  };
}
