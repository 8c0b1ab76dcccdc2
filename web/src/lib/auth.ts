import type { AuthChangeEvent, Session } from '@supabase/supabase-js';
import { useSyncExternalStore } from 'react';
import { supabase } from './supabase';

export interface AuthState {
  /** False until supabase-js has restored (or failed to restore) the stored session. */
  ready: boolean;
  session: Session | null;
}

type AuthEventListener = (event: AuthChangeEvent, session: Session | null) => void;

let state: AuthState = { ready: false, session: null };
const stateListeners = new Set<() => void>();
const eventListeners = new Set<AuthEventListener>();
// Events that fire before the app subscribes (PASSWORD_RECOVERY right after a redirect) wait here.
const undelivered: Array<[AuthChangeEvent, Session | null]> = [];

// Subscribed once at module load so that no event is missed, whatever React is doing.
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
