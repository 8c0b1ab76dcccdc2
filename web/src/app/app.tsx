import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router-dom';
import { queryClient } from '../lib/query-client';
import { PersistedQueries } from './persisted-queries';
import { router } from './router';
import { UpdatePrompt } from './update-prompt';

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <PersistedQueries>
        <RouterProvider router={router} />
      </PersistedQueries>
      <UpdatePrompt />
    </QueryClientProvider>
  );
}
