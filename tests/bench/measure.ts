// What the benchmarks share: percentiles, a closed-loop load runner and a signed-up user of a stack.
import { readdirSync, readFileSync } from 'node:fs';
import type { startStack } from '../../stack/server.ts';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `total` tasks with `concurrency` workers in flight, task(worker, n); returns throughput and latencies (ms). */
export async function load(total: number, concurrency: number, task: (worker: number, n: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < total) {
        const n = next++;
        const t = performance.now();
        await task(worker, n);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: total / wall, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

export type LoadResult = Awaited<ReturnType<typeof load>>;

/** Signs a new user up on `stack`; returns their access token and its claims, as the api function reads them. */
export async function signUpBenchUser(stack: Awaited<ReturnType<typeof startStack>>, label: string, fetchImpl: typeof fetch = fetch) {
  const signUp = await fetchImpl(`${stack.config.apiUrl}/auth/v1/signup`, {
    method: 'POST',
    headers: { apikey: stack.config.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email: `${label}-${Date.now()}@example.test`, password: 'bench-password-1' }),
  });
  const session = (await signUp.json()) as { access_token: string };
  const claims = JSON.parse(Buffer.from(session.access_token.split('.')[1], 'base64url').toString());
  return { accessToken: session.access_token, claims };
}

/**
 * CPU seconds used so far by this process's descendants, by kind: the function processes (Deno)
 * and Postgres (the postmaster and its backends), read from /proc (Linux). Differences of two
 * snapshots divided by the requests served between them give CPU per request, a figure that
 * other load on a shared machine disturbs far less than throughput does.
 */
export function descendantCpuSeconds(): { functions: number; postgres: number } {
  const ticksPerSecond = 100; // USER_HZ, 100 on Linux
  const processes = new Map<number, { parent: number; command: string; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      processes.set(Number(entry), { parent: Number(fields[1]), command, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while we looked.
    }
  }
  const descends = (pid: number) => {
    for (let current = processes.get(pid)?.parent, hops = 0; current && hops < 8; current = processes.get(current)?.parent, hops++) {
      if (current === process.pid) return true;
    }
    return false;
  };
  const totals = { functions: 0, postgres: 0 };
  for (const [pid, info] of processes) {
    if (!descends(pid)) continue;
    if (/\bdeno\b/.test(info.command)) totals.functions += info.ticks / ticksPerSecond;
    else if (/postgres/.test(info.command)) totals.postgres += info.ticks / ticksPerSecond;
  }
  return totals;
}
