import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { meQueryOptions } from './features/profile/api/get-me';
import { currentSession, loadAuthWhenIdle } from './lib/auth';
import { queryClient } from './lib/query-client';
import './styles.css';

// Signed in, every screen starts from who the user is and their organizations: ask at once, beside
// loading the screen's code and reading the device's cache (a restored copy never replaces it).
if (currentSession()) void queryClient.prefetchQuery(meQueryOptions());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// supabase-js (token refresh, realtime) follows once the first screen has its data (lib/supabase.ts).
loadAuthWhenIdle(queryClient);
