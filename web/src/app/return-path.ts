import type { Location } from 'react-router-dom';

export interface RedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** A `?next=` value we may follow: a path of this app, never another origin ("//host", "/\host"). */
export function safeNextPath(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/** Where to go once signed in: the guarded page that sent the visitor here, or `?next=`, or home. */
export function returnPath(location: Location): string {
  const from = (location.state as RedirectState | null)?.from;
  if (from) return `${from.pathname}${from.search}${from.hash}`;
  return safeNextPath(new URLSearchParams(location.search).get('next')) ?? '/';
}

/** `/sign-in?next=…`: the link keeps its destination through a reload or a switch to sign-up. */
export function withNext(path: string, next: string | null, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (next && next !== '/') params.set('next', next);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
