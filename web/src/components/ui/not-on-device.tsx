import type { ReactNode } from 'react';
import { ApiError } from '@/lib/errors';
import { LoadingScreen } from './loading-screen';

/**
 * Whether a read is stuck for want of a network: TanStack Query pauses it while the browser is
 * offline, and a read that got no answer at all (a network that only looks connected) fails
 * without a status.
 */
export function isWaitingForNetwork(query: { isPending: boolean; fetchStatus: string; error: unknown }): boolean {
  return (query.isPending && query.fetchStatus === 'paused') || (query.error instanceof ApiError && query.error.status === null);
}

/** A page whose data was never kept on this device, opened offline. */
export const pageNotOnDevice = "This page hasn't been opened on this device yet. Connect to the internet to open it.";

/**
 * What a screen says when its data was never fetched on this device and there is no network to
 * fetch it (issue 23): at once, not a spinner that never ends; what to do, and a way back.
 */
export function NotOnDevice({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="stack not-on-device" role="status">
      <p>{message}</p>
      {children}
    </div>
  );
}

/** A spinner while a read is on its way; the sentence of `NotOnDevice` while it waits for a network. */
export function LoadingOrNotOnDevice({ query, message, children }: { query: { isPending: boolean; fetchStatus: string; error: unknown }; message: string; children?: ReactNode }) {
  if (isWaitingForNetwork(query)) return <NotOnDevice message={message}>{children}</NotOnDevice>;
  return <LoadingScreen />;
}
