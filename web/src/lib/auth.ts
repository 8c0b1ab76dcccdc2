import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { onFirstInteractionOr } from './first-interaction';
import { authStorageKey, getSupabase, loadedSupabase, whenSupabaseLoads } from './supabase';

export interface AuthState {
  /** False until the session is known: read from storage, or restored (refreshed) by supabase-js. */
  ready: boolean;
  session: Session | null;
}

type AuthEventListener = (event: AuthChangeEvent, session: Session | null) => void;

// supabase-js refreshes a token this long before it expires (auth-js EXPIRY_MARGIN_MS); a stored
// token with less time left is not used before supabase-js has refreshed it.
const EXPIRY_MARGIN_MS = 90_000;

function hasTimeLeft(session: Session): boolean {
  return typeof session.expires_at === 'number' && session.expires_at * 1000 - Date.now() > EXPIRY_MARGIN_MS;
}

/** The session supabase-js keeps in localStorage (its own format: the Session, user included), if any. */
function storedSession(): Session | null {
  try {
    const raw = window.localStorage.getItem(authStorageKey);
    if (!raw) return null;
    const session = JSON.parse(raw) as Session;
    return typeof session?.access_token === 'string' && typeof session.user?.id === 'string' ? session : null;
  } catch {
    return null;
  }
}

// A link from a mail (recovery, an error) carries its session or error in the URL: supabase-js reads it.
const urlCarriesAuth = /(^|[#&?])(access_token|error_description|error)=/.test(window.location.hash + window.location.search);
const stored = urlCarriesAuth ? null : storedSession();
// The first screen does not wait for supabase-js: nothing stored means signed out, a stored token
// with time left means signed in. A token about to expire, or a link from a mail, waits for it.
let state: AuthState = urlCarriesAuth
  ? { ready: false, session: null }
  : stored === null
    ? { ready: true, session: null }
    : hasTimeLeft(stored)
      ? { ready: true, session: stored }
      : { ready: false, session: null };
if (!state.ready) void getSupabase();

const stateListeners = new Set<() => void>();
const eventListeners = new Set<AuthEventListener>();
// Events that fire before the app subscribes (PASSWORD_RECOVERY right after a redirect) wait here.
const undelivered: Array<[AuthChangeEvent, Session | null]> = [];

// Subscribed as soon as supabase-js loads, so that no event is missed, whatever React is doing.
whenSupabaseLoads((supabase) => {
  supabase.auth.onAuthStateChange((event, session) => {
    state = { ready: true, session };
    for (const listener of stateListeners) listener();
    // Delivered outside supabase-js's auth lock: listeners may call the client again.
    setTimeout(() => {
      if (eventListeners.size === 0) {
        undelivered.push([event, session]);
        return;
      }
      for (const listener of eventListeners) listener(event, session);
    }, 0);
  });
});

/**
 * Loads supabase-js (token refresh, realtime) for a signed-in user once the first screen has its
 * data: on the user's first tap or key press after that, or five seconds after, or after ten
 * seconds whatever happens. Until then the page reads with the stored token and its live topics
 * wait (their first join re-reads what changed meanwhile). Signed out, it loads when an auth form
 * is used (sign-in prefetches it on focus).
 */
export function loadAuthWhenIdle(queryClient: QueryClient): void {
  if (loadedSupabase() || !state.session) return;
  let started = false;
  let cancelWait: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;
  const start = () => {
    if (started) return;
    started = true;
    unsubscribe?.();
    cancelWait?.();
    clearTimeout(latest);
    void getSupabase();
  };
  const latest = setTimeout(start, 10_000);
  const startWhenQuiet = () => {
    if (queryClient.isFetching() > 0 || cancelWait) return;
    unsubscribe?.();
    cancelWait = onFirstInteractionOr(5000, start);
  };
  const watch = () => {
    unsubscribe = queryClient.getQueryCache().subscribe(startWhenQuiet);
    startWhenQuiet();
  };
  if (document.readyState === 'complete') watch();
  else window.addEventListener('load', watch, { once: true });
}

/**
 * The access token for a call to the api function: the current session's. Before supabase-js has
 * loaded, the stored token while it has time left; otherwise supabase-js refreshes it first.
 */
export async function accessToken(): Promise<string | null> {
  if (!loadedSupabase() && state.session && hasTimeLeft(state.session)) return state.session.access_token;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? null;
}

/** The current session, as useAuth gives it. */
export function currentSession(): Session | null {
  return state.session;
}

function subscribeState(listener: () => void) {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

function readState() {
  return state;
}

/** The current session and whether it has been restored yet. */
export function useAuth(): AuthState {
  return useSyncExternalStore(subscribeState, readState, readState);
}

/** Calls `listener` for every auth event, starting with those that fired before this call. */
export function subscribeAuthEvents(listener: AuthEventListener): () => void {
  eventListeners.add(listener);
  for (const [event, session] of undelivered.splice(0)) listener(event, session);
  return () => eventListeners.delete(listener);
}

/** A short stable fingerprint of an access token, so queries keyed on it refetch when it changes. */
export function sessionFingerprint(session: Session | null): string {
  return session ? `${session.user.id}:${session.access_token.slice(-16)}` : 'signed-out';
}
