import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import type { QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { onFirstInteractionOr } from './first-interaction';
import { authStorageKey, getSupabase, loadedSupabase, whenSupabaseLoads } from './supabase';

export interface AuthState {
  /** False until the session is known: read from storage, or restored (refreshed) by supabase-js. */
  ready: boolean;
  session: Session | null;
  /**
   * The session's access token has expired and could not be renewed yet, for want of a network: the
   * user stays in the app with what the device holds (an inspector in a basement must reach the run
   * page), and calls wait for the refresh that follows when the network returns (issue 23).
   */
  expired: boolean;
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

// Who was signed in on this device last, and whether their session ended by itself (a refresh the
// server refused) rather than by signing out: the sign-in page says so, and how many of their
// changes wait on the device for them (features/auth/components/waiting-on-device.tsx).
const LAST_USER_KEY = 'fieldcheck-last-user';
let signingOut = false;

export interface LastUser {
  id: string;
  email: string;
  /** The session ended without the user signing out: it expired and could not be renewed. */
  expired: boolean;
}

function rememberUser(session: Session): void {
  writeLastUser({ id: session.user.id, email: session.user.email ?? '', expired: false });
}

function endedSession(session: Session): void {
  writeLastUser({ id: session.user.id, email: session.user.email ?? '', expired: !signingOut });
  signingOut = false;
}

function writeLastUser(user: LastUser): void {
  try {
    const previous = window.localStorage.getItem(LAST_USER_KEY);
    const next = JSON.stringify(user);
    if (previous !== next) window.localStorage.setItem(LAST_USER_KEY, next);
  } catch {
    // Storage refused (private mode): the sign-in page only says less.
  }
}

/** The user last signed in on this device, if any. */
export function lastUser(): LastUser | null {
  try {
    const raw = window.localStorage.getItem(LAST_USER_KEY);
    const user = raw ? (JSON.parse(raw) as LastUser) : null;
    return typeof user?.id === 'string' ? user : null;
  } catch {
    return null;
  }
}

/** Called before the user signs out on purpose, so the sign-in page does not call it an expiry. */
export function noteSignOutRequested(): void {
  signingOut = true;
}

// A link from a mail (recovery, an error) carries its session or error in the URL: supabase-js reads it.
const urlCarriesAuth = /(^|[#&?])(access_token|error_description|error)=/.test(window.location.hash + window.location.search);
const stored = urlCarriesAuth ? null : storedSession();
// The first screen does not wait for supabase-js: nothing stored means signed out, a stored session
// means signed in. One whose token has expired (or is about to) is used as it is while supabase-js
// renews it, so that a reload with no network still opens the app on the device's data; only a
// refresh the server refuses signs the user out. A link from a mail waits for supabase-js.
let state: AuthState = urlCarriesAuth
  ? { ready: false, session: null, expired: false }
  : { ready: true, session: stored, expired: stored !== null && !hasTimeLeft(stored) };
if (stored) rememberUser(stored);
if (urlCarriesAuth) void getSupabase();
else if (state.expired) renewWhenOnline();

/** Loads supabase-js (which renews the session at once) now, or when the network comes back. */
function renewWhenOnline(): void {
  if (navigator.onLine) void getSupabase().catch(() => undefined);
  else window.addEventListener('online', () => void getSupabase().catch(() => undefined), { once: true });
}

const stateListeners = new Set<() => void>();
const eventListeners = new Set<AuthEventListener>();
// Events that fire before the app subscribes (PASSWORD_RECOVERY right after a redirect) wait here.
const undelivered: Array<[AuthChangeEvent, Session | null]> = [];

function setState(next: AuthState): void {
  state = next;
  if (next.session) rememberUser(next.session);
  for (const listener of stateListeners) listener();
}

// Subscribed as soon as supabase-js loads, so that no event is missed, whatever React is doing.
whenSupabaseLoads((supabase) => {
  supabase.auth.onAuthStateChange((event, session) => {
    // supabase-js reports no session when it could not renew an expired one, also when only the
    // network failed; it then keeps the session in storage (a refused refresh removes it and says
    // SIGNED_OUT). Kept there, it is still the user's: stay signed in with it until the network is back.
    const kept = session === null && event !== 'SIGNED_OUT' ? storedSession() : null;
    if (kept) {
      setState({ ready: true, session: kept, expired: true });
      return;
    }
    if (event === 'SIGNED_OUT' && state.session) endedSession(state.session);
    setState({ ready: true, session, expired: false });
    // Delivered outside supabase-js's auth lock: listeners may call the client again.
    setTimeout(() => {
      if (eventListeners.size === 0) {
        undelivered.push([event, session]);
        return;
      }
      for (const listener of eventListeners) listener(event, session);
    }, 0);
  });
  // Back online with an expired session: renew it now rather than at supabase-js's next tick, and
  // past the minute it waits after a failed refresh (its `lastRefreshFailure`, kept for the same
  // refresh token even when the failure was only the network's).
  window.addEventListener('online', () => {
    if (!state.expired) return;
    const auth = supabase.auth as unknown as { lastRefreshFailure?: unknown };
    if ('lastRefreshFailure' in auth) auth.lastRefreshFailure = null;
    void supabase.auth.getSession();
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
 * loaded, the stored token while it has time left; otherwise supabase-js refreshes it first. With an
 * expired token and no network nothing can renew it: the expired one is given at once (the call
 * fails for want of a network, and the outbox waits) instead of waiting out supabase-js's retries.
 */
export async function accessToken(): Promise<string | null> {
  const session = state.session;
  if (session && !loadedSupabase() && hasTimeLeft(session)) return session.access_token;
  if (session && (state.expired || !hasTimeLeft(session)) && !navigator.onLine) return session.access_token;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  return data.session?.access_token ?? (state.expired ? (state.session?.access_token ?? null) : null);
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
