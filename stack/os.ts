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
