// supabase-js clients for tests. Each client sends from its own loopback address (127.x.y.z),
// as separate users on separate devices would, so the stack's per-IP rate limits apply to each
// test the way they apply to real users and one test never throttles another.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Agent, fetch as undiciFetch } from 'undici';
import { stack } from './stack.ts';

let nextAddress = 1 + Math.floor(Math.random() * 60_000);

/** A fresh loopback source address, e.g. 127.0.12.34. */
export function freshLoopbackAddress(): string {
  const n = nextAddress++;
  return `127.${(n >> 16) & 255 || 1}.${(n >> 8) & 255}.${(n & 255) || 1}`;
}

/** A `fetch` whose connections leave from `address`. */
export function fetchFrom(address = freshLoopbackAddress()): typeof fetch {
  const dispatcher = new Agent({ localAddress: address });
  return ((input: any, init?: any) => undiciFetch(input, { ...init, dispatcher })) as unknown as typeof fetch;
}

export interface TestClientOptions {
  key?: string;
  /** Source address of the client's requests (a fresh one by default). */
  address?: string;
  /** Wraps fetch, e.g. to count requests. */
  wrapFetch?: (inner: typeof fetch) => typeof fetch;
}

/** An unmodified supabase-js client on the stack under test, with an in-memory session. */
export function createTestClient(options: TestClientOptions = {}): SupabaseClient {
  const baseFetch = fetchFrom(options.address);
  const storage = new Map<string, string>();
  return createClient(stack.API_URL, options.key ?? stack.ANON_KEY, {
    auth: {
      persistSession: true,
      autoRefreshToken: false,
      detectSessionInUrl: false,
      storage: {
        getItem: (k) => storage.get(k) ?? null,
        setItem: (k, v) => void storage.set(k, v),
        removeItem: (k) => void storage.delete(k),
      },
    },
    global: { fetch: options.wrapFetch ? options.wrapFetch(baseFetch) : baseFetch },
  });
}

/** A unique address per test run, on a domain that never receives mail. */
export function uniqueEmail(label = 'user'): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** Signs up a new user and returns a signed-in client for them. */
export async function signedInClient(options: TestClientOptions & { email?: string; password?: string; displayName?: string } = {}) {
  const client = createTestClient(options);
  const email = options.email ?? uniqueEmail();
  const password = options.password ?? 'correct-horse-42';
  const { data, error } = await client.auth.signUp({
    email,
    password,
    options: { data: options.displayName ? { display_name: options.displayName } : {} },
  });
  if (error || !data.session) throw new Error(`Sign-up failed: ${error?.message}`);
  return { client, email, password, user: data.user!, session: data.session };
}
