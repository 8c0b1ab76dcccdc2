import { createClient } from '@supabase/supabase-js';
import { authStorageKey, supabaseKey, supabaseUrl } from './supabase';

// The one supabase-js client of the app, in a module of its own so that it loads on first use
// (lib/supabase.ts, docs/offline.md "Weight"). Implicit flow: the recovery mail's link lands on
// /reset-password#access_token=…&type=recovery and detectSessionInUrl turns it into a session.
export const supabase = createClient(supabaseUrl, supabaseKey, {
  auth: {
    flowType: 'implicit',
    detectSessionInUrl: true,
    persistSession: true,
    autoRefreshToken: true,
    storageKey: authStorageKey,
  },
});
