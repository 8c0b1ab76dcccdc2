// What the benchmarks share: percentiles, a closed-loop load runner and a signed-up user of a stack.
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
