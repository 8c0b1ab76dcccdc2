import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { loadAuthWhenIdle } from './lib/auth';
import { queryClient } from './lib/query-client';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// supabase-js (token refresh, realtime) follows once the first screen has its data (lib/supabase.ts).
loadAuthWhenIdle(queryClient);
