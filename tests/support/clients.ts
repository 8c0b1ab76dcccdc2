// supabase-js clients for tests. Each client sends from its own loopback address (127.x.y.z),
// as separate users on separate devices would, so the stack's per-IP rate limits apply to each
// test the way they apply to real users and one test never throttles another.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { Agent, fetch as undiciFetch } from 'undici';
import { stack } from './stack.ts';

// Test files run in several worker processes, and a process runs several files: each process
// takes its own second octet (from its pid) and each client a random unused pair after it. The
// addresses tests deliberately throttle come from a range of their own (127.254.x.y), so a
// throttled address is never another test's.
const processOctet = 1 + (process.pid % 250);
const handedOut = new Set<string>();

function randomLoopbackAddress(secondOctet: number): string {
  for (;;) {
    // Last octet 1-254: .0 and .255 read as network and broadcast addresses.
    const address = `127.${secondOctet}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
    if (!handedOut.has(address)) {
      handedOut.add(address);
      return address;
    }
  }
}

/** A fresh loopback source address, e.g. 127.42.12.34. */
export function freshLoopbackAddress(): string {
  return randomLoopbackAddress(processOctet);
}

/** A fresh address for a test that means to get itself rate-limited. */
export function addressToThrottle(): string {
  return randomLoopbackAddress(254);
}

/** A `fetch` whose connections leave from `address`. */
export function fetchFrom(address = freshLoopbackAddress()): typeof fetch {
  const dispatcher = new Agent({ localAddress: address });
  return (async (input: any, init?: any) => {
    // The npm undici does not know Node's global FormData and would send "[object FormData]":
    // encode it as the global fetch would (multipart bytes and their boundary).
    if (init?.body instanceof FormData) {
      const encoded = new Response(init.body);
      const headers = new Headers(init.headers);
      headers.set('content-type', encoded.headers.get('content-type')!);
      init = { ...init, headers, body: new Uint8Array(await encoded.arrayBuffer()) };
    }
    return undiciFetch(input, { ...init, dispatcher });
  }) as unknown as typeof fetch;
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
