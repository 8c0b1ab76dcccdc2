// Process and port checks shared by the stack's CLI, its services and the test runner.
import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Whether a process with this pid exists (signal 0 only checks). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is alive and its command line contains `marker`. Pids are reused after a crash
 * or reboot, so a pid from a file must be checked before it is trusted or signalled. Where
 * /proc does not exist (macOS) only liveness can be checked.
 */
export function isProcessOf(pid: number, marker: string): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return process.platform !== 'linux';
  }
}

export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

/** The first port of the kernel's ephemeral range (Linux's setting; its usual default elsewhere). */
export function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32768;
  }
}

/**
 * A port free right now, chosen at random below the kernel's ephemeral range and not in `taken`.
 * A port from listen(0) is in that range, where the kernel also picks the local end of every
 * outgoing connection: between the probe and the moment a private stack binds it (seconds later,
 * its services starting one after another) the many connections of test runs on the same machine
 * can take it, and the start fails with EADDRINUSE (seen for the web app's port in CI and for
 * MailDev's SMTP port, which crashed the test runner). Below the range only another program
 * choosing at random the same way can take it.
 */
export async function freePortBelowEphemeralRange(taken: readonly number[] = [], host = '127.0.0.1'): Promise<number> {
  const low = 10000;
  const high = Math.max(low + 1000, ephemeralPortsStart() - 1);
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (!taken.includes(port) && (await portIsFree(host, port))) return port;
  }
  throw new Error(`No free port between ${low} and ${high}`);
}

/** A port the kernel reports free right now (another program may still take it later). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
