import { useSearchParams, type Location } from 'react-router-dom';

export interface RedirectState {
  from?: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

/** A `?next=` value we may follow: a path of this app, never another origin ("//host", "/\host"). */
function safeNextPath(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

/** Where to go once signed in: the guarded page that sent the visitor here, or `?next=`, or home. */
export function returnPath(location: Location): string {
  const from = (location.state as RedirectState | null)?.from;
  if (from) return `${from.pathname}${from.search}${from.hash}`;
  return safeNextPath(new URLSearchParams(location.search).get('next')) ?? '/';
}

/** `/sign-in?email=…&next=…`: the link keeps its destination and address through a reload or a switch to sign-up. */
export function withNext(path: string, next: string | null, email?: string | null): string {
  const params = new URLSearchParams(email ? { email } : {});
  if (next && next !== '/') params.set('next', next);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

/** The `?next=` (only if safe to follow) and `?email=` that sign-in and sign-up hand to each other. */
export function useAuthLinkParams(): { next: string | null; email: string | undefined } {
  const [params] = useSearchParams();
  return { next: safeNextPath(params.get('next')), email: params.get('email') ?? undefined };
}
