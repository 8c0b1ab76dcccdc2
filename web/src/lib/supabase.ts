import type { SupabaseClient } from '@supabase/supabase-js';

export const supabaseUrl = import.meta.env.VITE_SUPABASE_URL ?? 'http://127.0.0.1:54321';
export const supabaseKey = import.meta.env.VITE_SUPABASE_PUBLISHABLE_KEY ?? 'sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH';

/**
 * Where supabase-js keeps the session in localStorage: its own default for this URL, named here so
 * that lib/auth.ts can read the session before supabase-js has loaded.
 */
export const authStorageKey = `sb-${new URL(supabaseUrl).hostname.split('.')[0]}-auth-token`;

let loading: Promise<SupabaseClient> | null = null;
let loaded: SupabaseClient | null = null;
const loadListeners: Array<(client: SupabaseClient) => void> = [];

/**
 * The app's supabase-js client, loaded on first call. It is a third of the app's first-load
 * JavaScript, and the first screen doesn't need it: the session is read from storage (lib/auth.ts)
 * and the api function is called with plain fetch (lib/api.ts). It loads once that screen has
 * its data, or at once where auth needs it (signing in, an expired token, a link from a mail).
 */
export function getSupabase(): Promise<SupabaseClient> {
  loading ??= import('./supabase-client').then(({ supabase }) => {
    loaded = supabase;
    for (const listener of loadListeners.splice(0)) listener(supabase);
    return supabase;
  });
  return loading;
}

/** The client if it has loaded already, else null. */
export function loadedSupabase(): SupabaseClient | null {
  return loaded;
}

/** Resolves with the client once something else has loaded it (lib/auth.ts loadAuthWhenIdle); loads nothing itself. */
export function supabaseLoaded(): Promise<SupabaseClient> {
  return loaded ? Promise.resolve(loaded) : new Promise((resolve) => loadListeners.push(resolve));
}

/** Calls `listener` with the client once it has loaded (at once if it has). */
export function whenSupabaseLoads(listener: (client: SupabaseClient) => void): void {
  if (loaded) listener(loaded);
  else loadListeners.push(listener);
}
