// Helpers for the Realtime tests: supabase-js clients with realtime options, subscription and
// event waiting (tests/support/realtime.ts, shared with the product's live tests), tokens minted
// with the stack's own signing key, RLS policy fixtures on realtime.messages, and a raw WebSocket
// for checks of the exact wire format.
import { randomUUID } from 'node:crypto';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import type postgres from 'postgres';
import WebSocket from 'ws';
import { fetchFrom } from '../../support/clients.ts';
import { genuineSigningKey } from '../../support/signing-key.ts';
import { sleep } from '../../support/realtime.ts';
import { stack } from '../../support/stack.ts';

export { sleep, subscribe, subscribed, type SubscribeOutcome, waitFor } from '../../support/realtime.ts';

export type Vsn = '1.0.0' | '2.0.0';
export const VSNS: Vsn[] = ['1.0.0', '2.0.0'];

export interface RealtimeClientOptions {
  vsn?: Vsn;
  key?: string;
  /** The token realtime joins with (supabase-js's third-party `accessToken` option). */
  accessToken?: () => string;
  heartbeatIntervalMs?: number;
  heartbeatCallback?: (status: string) => void;
}

const clients: SupabaseClient[] = [];

/** An unmodified supabase-js client for realtime; closed by closeClients(). */
export function realtimeClient(options: RealtimeClientOptions = {}): SupabaseClient {
  const client = createClient(stack.API_URL, options.key ?? stack.ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchFrom() },
    realtime: {
      vsn: options.vsn ?? '2.0.0',
      ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
      ...(options.heartbeatCallback ? { heartbeatCallback: options.heartbeatCallback } : {}),
    },
    ...(options.accessToken ? { accessToken: async () => options.accessToken!() } : {}),
  });
  clients.push(client);
  return client;
}

/**
 * A client whose realtime joins carry `token()`. supabase-js resolves an `accessToken` callback
 * asynchronously, and a join built before that goes without a token (then retries), so this
 * waits for it as an app would wait for its session.
 */
export async function clientWithToken(token: () => string, options: Omit<RealtimeClientOptions, 'accessToken'> = {}): Promise<SupabaseClient> {
  const client = realtimeClient({ ...options, accessToken: token });
  await client.realtime.setAuth();
  return client;
}

/** Keeps a client (e.g. from signedInClient) to be closed by closeClients(). */
export function keepClient<T extends SupabaseClient>(client: T): T {
  clients.push(client);
  return client;
}

export async function closeClients(): Promise<void> {
  await Promise.all(clients.splice(0).map((client) => client.removeAllChannels().catch(() => undefined)));
}

/** A unique channel name for one test. */
export function uniqueTopic(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}`;
}

/** An access token as the auth service would issue it, signed with the stack's key. */
export async function mintAccessToken(options: { sub?: string; role?: string; expiresIn?: number; claims?: Record<string, unknown> } = {}): Promise<string> {
  const { kid, privateKey } = await genuineSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    sub: options.sub ?? randomUUID(),
    role: options.role ?? 'authenticated',
    aud: 'authenticated',
    aal: 'aal1',
    session_id: randomUUID(),
    ...options.claims,
  })
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .setIssuer(`${stack.API_URL}/auth/v1`)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 3600))
    .sign(privateKey);
}

/**
 * RLS fixtures on realtime.messages for topics `<prefix>:<owner id>:<guest id>`: the owner and
 * the guest may read (join, receive); only the owner may write (send, track). Named after the
 * prefix so test files running side by side never touch each other's policies.
 */
export async function createTopicPolicies(sql: postgres.Sql, prefix: string): Promise<() => Promise<void>> {
  const read = `${prefix} members read`;
  const write = `${prefix} owner writes`;
  await sql.unsafe(`
    create policy "${read}" on realtime.messages for select to authenticated
      using (
        realtime.messages.extension in ('broadcast', 'presence')
        and split_part((select realtime.topic()), ':', 1) = '${prefix}'
        and (select auth.uid())::text in (split_part((select realtime.topic()), ':', 2), split_part((select realtime.topic()), ':', 3))
      );
    create policy "${write}" on realtime.messages for insert to authenticated
      with check (
        realtime.messages.extension in ('broadcast', 'presence')
        and split_part((select realtime.topic()), ':', 1) = '${prefix}'
        and (select auth.uid())::text = split_part((select realtime.topic()), ':', 2)
      );
  `);
  return async () => {
    await sql.unsafe(`drop policy if exists "${read}" on realtime.messages; drop policy if exists "${write}" on realtime.messages;`);
  };
}

export interface RawFrame {
  binary: boolean;
  text?: string;
  bytes?: Buffer;
  /** The parsed JSON of a text frame. */
  json?: any;
}

/** A WebSocket speaking the protocol by hand, for assertions on exact frames. */
export async function rawSocket(vsn: Vsn, key = stack.ANON_KEY) {
  const url = `${stack.API_URL.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(key)}&vsn=${vsn}`;
  const ws = new WebSocket(url);
  const frames: RawFrame[] = [];
  ws.on('message', (data, isBinary) => {
    const buffer = Buffer.from(data as Buffer);
    frames.push(isBinary ? { binary: true, bytes: buffer } : { binary: false, text: buffer.toString(), json: JSON.parse(buffer.toString()) });
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let read = 0;
  return {
    ws,
    frames,
    send(message: unknown) {
      ws.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
    },
    /** The next frame not yet taken that matches, waiting for it. */
    async next(match: (frame: RawFrame) => boolean = () => true, timeoutMs = 3000): Promise<RawFrame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const index = frames.findIndex((frame, i) => i >= read && match(frame));
        if (index >= 0) {
          read = index + 1;
          return frames[index];
        }
        if (Date.now() > deadline) throw new Error(`No matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames.slice(read).map((f) => f.text ?? f.bytes?.toString('hex')))}`);
        await sleep(5);
      }
    },
    close() {
      ws.close();
    },
  };
}
