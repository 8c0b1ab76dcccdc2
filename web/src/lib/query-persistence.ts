import { dehydrate, hydrate, type Query, type QueryClient } from '@tanstack/react-query';
import { openDB } from 'idb';
import { KEPT_ON_DEVICE_MS } from './query-client';

// What the run page needs to open without a network (issue 12, docs/offline.md): who the user is,
// their organizations, the inspections and actions they looked at (with the template version,
// answers and photo links), and their dashboard. Kept per user, for a week.
const PERSISTED_ROOTS = new Set(['me', 'organizations', 'inspections', 'actions', 'dashboard']);
const MAX_AGE_MS = KEPT_ON_DEVICE_MS;
// A new shape of cached data after an update would confuse the screens: a changed build forgets it.
const BUSTER = import.meta.env.MODE === 'production' ? String(import.meta.env.VITE_BUILD_ID ?? '1') : 'dev';

interface Persisted {
  savedAt: number;
  buster: string;
  state: ReturnType<typeof dehydrate>;
}

const database = () =>
  openDB('fieldcheck-cache', 1, {
    upgrade(db) {
      db.createObjectStore('queries');
    },
  });

function persistable(query: Query): boolean {
  const root = query.queryKey[0];
  return query.state.status === 'success' && typeof root === 'string' && PERSISTED_ROOTS.has(root);
}

/** Puts back what this user's last visit kept, before the screens ask for it. */
export async function restoreQueries(client: QueryClient, userId: string): Promise<void> {
  try {
    const saved = (await (await database()).get('queries', userId)) as Persisted | undefined;
    if (!saved || saved.buster !== BUSTER || Date.now() - saved.savedAt > MAX_AGE_MS) return;
    // Restored queries live as long as the device keeps them, not the default five minutes.
    hydrate(client, saved.state, { defaultOptions: { queries: { gcTime: MAX_AGE_MS } } });
  } catch {
    // A cache that can't be read is only a slower start.
  }
}

/** Keeps this user's cached queries on the device as they change (at most once a second). */
export function persistQueries(client: QueryClient, userId: string): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = async () => {
    timer = undefined;
    const state = dehydrate(client, { shouldDehydrateQuery: persistable });
    try {
      await (await database()).put('queries', { savedAt: Date.now(), buster: BUSTER, state } satisfies Persisted, userId);
    } catch {
      // Out of quota or private mode: the app works, only not from the cache.
    }
  };
  const unsubscribe = client.getQueryCache().subscribe(() => {
    timer ??= setTimeout(() => void save(), 1000);
  });
  return () => {
    clearTimeout(timer);
    unsubscribe();
  };
}

/** Signing out: this user's cached data leaves the device (their waiting changes do not: docs/offline.md). */
export async function forgetQueries(userId: string): Promise<void> {
  try {
    await (await database()).delete('queries', userId);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/**
 * Whether a query's data was fetched during this page's life rather than restored from the device.
 * A form that edits server values waits for them (unless the server can't be reached): restored
 * values may be older than the last save, and an uncontrolled field keeps what it started with.
 */
export function isFreshThisVisit(query: { dataUpdatedAt: number; isFetching: boolean }): boolean {
  return query.dataUpdatedAt >= performance.timeOrigin || !query.isFetching;
}
