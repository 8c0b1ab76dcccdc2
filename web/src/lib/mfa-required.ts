import { ApiError } from './errors';

type Listener = () => void;
const listeners = new Set<Listener>();

/** True for the API's 403 `mfa_required`: the organization wants an aal2 session for writes. */
export function isMfaRequired(error: unknown): boolean {
  return error instanceof ApiError && error.problem?.code === 'mfa_required';
}

/** Called by the query client when a request was refused for want of two-factor authentication. */
export function notifyMfaRequired() {
  for (const listener of listeners) listener();
}

/** The app subscribes once and sends the user to step up, then back. */
export function subscribeMfaRequired(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
