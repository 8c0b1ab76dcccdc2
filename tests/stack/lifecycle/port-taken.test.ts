// A port the stack wants, taken by another program after the start has checked its ports
// (ensurePortsFree) and before the service binds it. Before, MailDev threw the EADDRINUSE of its
// SMTP server (and of its inbox's web server) as an uncaught exception: `npm run test:*` and
// `npm start` died at once, leaving Postgres running and the test folder behind. Every listener
// of the stack must instead turn the failure into a rejected start that names the port and the
// service, so that the start stops what it had started and the runner removes its folder.
// The port is taken on the start's first log line ("Creating the Postgres cluster"), which comes
// after the check and seconds before Postgres, MailDev or the gateway binds.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StackPorts } from '../../../stack/config.ts';
import { portIsFree } from '../../../stack/os.ts';
import { PortInUseError } from '../../../stack/ports.ts';
import { startStack } from '../../../stack/server.ts';
import { descendantsOf, running, runningInGroup } from '../../support/processes.ts';
import { freeStackPorts, privateStackFolder, stackCliEnv } from '../../support/private-stack.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

const SERVICES: Array<{ port: keyof StackPorts; service: string }> = [
  { port: 'db', service: 'Postgres' },
  { port: 'mailSmtp', service: "the mail catcher's SMTP (MailDev)" },
  { port: 'mailWeb', service: "the mail catcher's inbox (MailDev)" },
  { port: 'api', service: 'the API gateway' },
];

/** A line of a stack trace: `    at fn (file:line:column)` or `    at file:line:column`. */
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

function inUse(port: number, service: string): string {
  return `Port ${port} (${service}) is already in use by another program`;
}

/** Another program's listener on 127.0.0.1:port; rejects if the port is not free (the stack was first). */
function occupy(port: number): Promise<net.Server> {
  const server = net.createServer((socket) => socket.destroy());
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}

/** A command line's text, to say which process was left behind. */
function describeProcess(pid: number): string {
  try {
    return `${pid}: ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').slice(0, 200)}`;
  } catch {
    return `${pid}: (gone)`;
  }
}

/**
 * Runs `node <args>` as a process group of its own with `env` added, takes `port` once its output
 * says the cluster is being created, and reports its exit code, its output, what of its group is
 * still running, and whether the port was taken before the process bound it.
 */
async function runAndTakePort(args: string[], env: Record<string, string | undefined>, port: number) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  let taken: Promise<net.Server> | undefined;
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    if (!taken && /Creating the Postgres cluster/.test(output)) taken = occupy(port);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const timer = setTimeout(() => child.kill('SIGTERM'), 120_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  // What the process left of its group: recorded, then ended, so that a failure does not outlive the test.
  const leftInGroup = runningInGroup(child.pid!);
  const left = leftInGroup.map(describeProcess);
  if (leftInGroup.length > 0) process.kill(-child.pid!, 'SIGKILL');
  const blocker = await taken?.catch((error: Error) => error);
  if (blocker instanceof net.Server) blocker.close();
  return { code, output, left, blocker };
}

describe('a port taken while the stack starts', () => {
  it.each(SERVICES)('startStack: $port taken → the start rejects naming the port and $service, and stops what it started', async ({ port, service }) => {
    const dir = privateStackFolder('port-taken-test-');
    const ports = await freeStackPorts();
    const before = new Set(descendantsOf(process.pid));
    let taken: Promise<net.Server> | undefined;
    try {
      const started = startStack({
        dataDir: path.join(dir, 'data'),
        ports,
        fast: true,
        scheduler: false,
        log: () => {
          taken ??= occupy(ports[port]);
        },
      });
      // A start that neither resolves nor rejects (MailDev's error thrown, uncaught) is a failure too.
      const hung = new Promise<Error>((resolve) => setTimeout(() => resolve(new Error('the start neither resolved nor rejected in 60 s')), 60_000).unref());
      const error = await Promise.race([
        started.then(
          async (stack) => {
            await stack.stop();
            return new Error('the stack started');
          },
          (error: Error) => error,
        ),
        hung,
      ]);
      // Nothing the start had started runs on: Postgres and its backends, function processes.
      const left = descendantsOf(process.pid).filter((pid) => !before.has(pid) && running(pid));
      const stillBound: string[] = [];
      for (const [name, other] of Object.entries(ports)) {
        if (name !== port && !(await portIsFree('127.0.0.1', other))) stillBound.push(`${name} ${other}`);
      }
      // One comparison, so that a failure shows every way the start went wrong at once.
      expect(
        {
          // The port was ours before the service bound it: the service, not the test, met a busy port.
          portTakenFirst: (await taken?.catch((error: Error) => error)) instanceof net.Server,
          portInUseError: error instanceof PortInUseError,
          saysWhich: error.message.includes(inUse(ports[port], service)),
          left: left.map(describeProcess),
          stillBound,
          postmasterPid: existsSync(path.join(dir, 'data', 'pg', 'postmaster.pid')),
        },
        error.message,
      ).toEqual({ portTakenFirst: true, portInUseError: true, saysWhich: true, left: [], stillBound: [], postmasterPid: false });
    } finally {
      // What a failed start left running must not outlive the test.
      for (const pid of descendantsOf(process.pid).filter((pid) => !before.has(pid))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // Gone meanwhile.
        }
      }
      (await taken?.catch(() => undefined))?.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);

  it("the test runner (npm run test:*): SMTP's port taken → says so, stops the stack, removes its folder, exits 1", async () => {
    const ports = await freeStackPorts();
    const run = await runAndTakePort(
      [path.join(root, 'tests', 'run.ts'), 'db', 'no-such-test-file'],
      { STACK_LOG: '1', KEEP_TEST_STACK: undefined, FIELDCHECK_STACK: undefined, TEST_STACK_PORTS: JSON.stringify(ports) },
      ports.mailSmtp,
    );
    const folder = /Test folder: (\S+)/.exec(run.output)?.[1];
    const folderLeft = folder !== undefined && existsSync(path.join(root, folder));
    if (folderLeft) rmSync(path.join(root, folder), { recursive: true, force: true });
    // One comparison, so that a failure shows every way the run went wrong at once.
    expect(
      {
        portTakenFirst: run.blocker instanceof net.Server,
        code: run.code,
        saysWhich: run.output.includes(inUse(ports.mailSmtp, "the mail catcher's SMTP (MailDev)")),
        stackTrace: STACK_FRAME.test(run.output),
        summary: /0 passed, 1 failed/.test(run.output),
        left: run.left,
        folderNamed: folder !== undefined,
        folderLeft,
      },
      run.output.slice(-3000),
    ).toEqual({ portTakenFirst: true, code: 1, saysWhich: true, stackTrace: false, summary: true, left: [], folderNamed: true, folderLeft: false });
  }, 150_000);

  it("npm start: the mail inbox's port taken → says so, stops the stack, exits 1", async () => {
    const dir = privateStackFolder('port-taken-cli-test-');
    const ports = await freeStackPorts();
    try {
      const run = await runAndTakePort([path.join(root, 'stack', 'cli.ts'), 'start'], stackCliEnv(dir, ports), ports.mailWeb);
      expect(
        {
          portTakenFirst: run.blocker instanceof net.Server,
          code: run.code,
          saysWhich: run.output.includes(inUse(ports.mailWeb, "the mail catcher's inbox (MailDev)")),
          stackTrace: STACK_FRAME.test(run.output),
          left: run.left,
        },
        run.output.slice(-3000),
      ).toEqual({ portTakenFirst: true, code: 1, saysWhich: true, stackTrace: false, left: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
