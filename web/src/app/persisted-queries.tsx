import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LoadingScreen } from '../components/ui/loading-screen';
import { useAuth } from '../lib/auth';
import { forgetQueries, persistQueries, restoreQueries } from '../lib/query-persistence';

/**
 * Opens the app on what the signed-in user's last visit kept on the device (so an inspection opened
 * before going offline opens without a network, also after a reload), keeps it up to date, and
 * forgets it on sign-out.
 */
export function PersistedQueries({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { ready, session } = useAuth();
  const userId = session?.user.id ?? null;
  // Only the first screen waits for the device's copy; a later sign-in restores beside the app.
  const [opening, setOpening] = useState(true);
  const previous = useRef<string | null>(null);

  useEffect(() => {
    if (!ready) return;
    if (previous.current && previous.current !== userId) void forgetQueries(previous.current);
    previous.current = userId;
    if (!userId) {
      setOpening(false);
      return;
    }
    let stop: (() => void) | undefined;
    let current = true;
    void restoreQueries(queryClient, userId).then(() => {
      if (!current) return;
      setOpening(false);
      stop = persistQueries(queryClient, userId);
    });
    return () => {
      current = false;
      stop?.();
    };
  }, [ready, userId, queryClient]);

  if (!ready || opening) return <LoadingScreen />;
  return children;
}
