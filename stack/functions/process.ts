// One Deno process per function. Unchanged `Deno.serve(handler)` code listens on the port we
// choose through DENO_SERVE_ADDRESS. A process that dies is started again on the next request.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { portIsFree } from '../os.ts';

export interface FunctionProcessOptions {
  name: string;
  /** The function's entry file, `<dir>/index.ts`. */
  entry: string;
  verifyJwt: boolean;
  port: number;
  denoBin: string;
  /** deno.json to run with; undefined lets Deno look for one itself. */
  configFile: string | undefined;
  env: Record<string, string>;
  watch: boolean;
  cwd: string;
  log: (message: string) => void;
  /** How long a start may take; a cold first run downloads npm packages. */
  readyTimeoutMs: number;
}

const PROGRESS_EVERY_MS = 10_000;
const STOP_GRACE_MS = 5_000;

export class FunctionProcess {
  readonly options: FunctionProcessOptions;
  private child: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private starting: Promise<void> | undefined;
  private failedLine: ((line: string) => void) | undefined;
  private stopping = false;

  constructor(options: FunctionProcessOptions) {
    this.options = options;
  }

  get name(): string {
    return this.options.name;
  }

  get port(): number {
    return this.options.port;
  }

  get verifyJwt(): boolean {
    return this.options.verifyJwt;
  }

  get alive(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts the process unless it runs, then waits until it accepts connections. */
  async ensureRunning(): Promise<void> {
    if (this.starting) return this.starting;
    if (this.alive) {
      // In watch mode Deno restarts the script on a file change and the port is briefly closed.
      if (this.options.watch) await waitForPort(this.port, 10_000, () => !this.alive);
      return;
    }
    if (this.child) this.log(`process had exited (${describeExit(this.child)}); restarting`);
    this.starting = this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Resolves once the current process has exited, or after `timeoutMs`. */
  async waitForExit(timeoutMs: number): Promise<void> {
    await Promise.race([this.exited, delay(timeoutMs)]);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || !this.alive) return;
    child.kill('SIGTERM');
    await this.waitForExit(STOP_GRACE_MS);
    if (this.alive) {
      child.kill('SIGKILL');
      await this.exited;
    }
  }

  private log(message: string): void {
    this.options.log(`[functions:${this.name}] ${message}`);
  }

  private async start(): Promise<void> {
    const { denoBin, configFile, entry, watch, env, cwd, port, readyTimeoutMs } = this.options;
    this.stopping = false;
    // FIELDCHECK_FUNCTIONS_CPU_PROF_DIR=<dir>: a V8 CPU profile of each function process, written
    // when the stack stops it (docs/performance.md says how the profiles were read).
    const profileDir = process.env.FIELDCHECK_FUNCTIONS_CPU_PROF_DIR;
    const profiling = profileDir ? [`--cpu-prof-dir=${profileDir}`, '--cpu-prof-md', '--preload', path.join(import.meta.dirname, 'cpu-profile-exit.ts')] : [];
    const args = ['run', '-A', '--no-prompt', ...profiling, ...(watch ? ['--watch'] : []), ...(configFile ? ['--config', configFile] : []), entry];
    const startedAt = Date.now();
    const child = spawn(denoBin, args, {
      cwd,
      env: { ...env, DENO_SERVE_ADDRESS: `tcp:127.0.0.1:${port}`, SB_EXECUTION_ID: randomUUID() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    child.once('exit', () => {
      if (!this.stopping) this.log(`process exited (${describeExit(child)}); it restarts on the next request`);
    });
    child.once('error', (error) => this.log(`could not run ${denoBin}: ${error.message}`));
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream! }).on('line', (line) => {
        this.log(line);
        this.failedLine?.(line);
      });
    }

    // Deno --watch keeps running after a failed start, so its message ends the wait early.
    const watchFailure = new Promise<never>((_, reject) => {
      this.failedLine = (line) => {
        if (/Process failed/i.test(line)) reject(new Error('the function failed to start'));
      };
    });
    const progress = setInterval(() => {
      this.log(`still starting after ${Math.round((Date.now() - startedAt) / 1000)} s (a first run downloads npm packages)`);
    }, PROGRESS_EVERY_MS);
    try {
      await Promise.race([waitForPort(port, readyTimeoutMs, () => child.exitCode !== null || child.signalCode !== null), watchFailure]);
      this.log(`listening on 127.0.0.1:${port} after ${Date.now() - startedAt} ms`);
    } catch (error) {
      // Leave nothing half-started behind: the next request tries again from scratch.
      if (child.exitCode === null && child.signalCode === null) {
        this.stopping = true;
        child.kill('SIGKILL');
        await this.exited;
      }
      throw new Error(`${this.name} did not start: ${(error as Error).message}`);
    } finally {
      clearInterval(progress);
      this.failedLine = undefined;
      watchFailure.catch(() => {});
    }
  }
}

function describeExit(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls until something accepts connections on the port; fails early when `gaveUp()` says so. */
export async function waitForPort(port: number, timeoutMs: number, gaveUp: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await canConnect(port)) return;
    if (gaveUp()) throw new Error('the process exited');
    if (Date.now() > deadline) throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
    await delay(100);
  }
}

/**
 * `count` free loopback ports, the first ones at or above `base`, skipping `reserved` (the
 * stack's other ports, which may not be bound yet while functions start).
 */
export async function allocatePorts(base: number, count: number, reserved: number[] = []): Promise<number[]> {
  const ports: number[] = [];
  for (let port = base; ports.length < count; port++) {
    if (port > 65535) throw new Error(`no free ports above ${base} for functions`);
    if (!reserved.includes(port) && (await portIsFree('127.0.0.1', port))) ports.push(port);
  }
  return ports;
}
