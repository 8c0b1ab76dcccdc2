import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from '../lib/query-client';
import { AppErrorBoundary, OptionalPart } from './app-error';
import { PersistedQueries } from './persisted-queries';
import { router } from './router';

const UpdatePrompt = lazy(() => import('./update-prompt').then((module) => ({ default: module.UpdatePrompt })));

/**
 * Registers the service worker (through the update prompt) two seconds after the page has loaded:
 * precaching the whole app would otherwise compete with the first screen's own scripts and data.
 */
function DeferredUpdatePrompt() {
  const [due, setDue] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      timer = setTimeout(() => setDue(true), 2000);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('load', start);
    };
  }, []);
  return due ? (
    <OptionalPart>
      <Suspense fallback={null}>
        <UpdatePrompt />
      </Suspense>
    </OptionalPart>
  ) : null;
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppErrorBoundary>
        <PersistedQueries>
          <RouterProvider router={router} />
        </PersistedQueries>
      </AppErrorBoundary>
      <DeferredUpdatePrompt />
    </QueryClientProvider>
  );
}
