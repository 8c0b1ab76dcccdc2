// The Edge Functions runtime of the local stack, mounted by the gateway at /functions/v1:
// one real Deno process per function, the platform's verify_jwt check, and a streaming proxy.
import http, { type ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { listFunctions } from '../config.ts';
import { sendJson } from '../http.ts';
import type { Service, ServiceContext } from '../types.ts';
import { functionEnvironment } from './env.ts';
import { createCallerCheck } from './jwt.ts';
import { allocatePorts, FunctionProcess } from './process.ts';
import { forward, UpstreamError } from './proxy.ts';

export interface FunctionsServiceOptions {
  /** Restart a function when its source changes (`npm start`); tests run without. */
  watch?: boolean;
}

const READY_TIMEOUT_MS = 90_000;

/** Errors the gateway itself answers; browsers must be able to read them too. */
function sendGatewayError(res: ServerResponse, status: number, body: unknown): void {
  sendJson(res, status, body, { 'access-control-allow-origin': '*' });
}

/** `/echo/a/b?x=1` → name `echo`, rest `/a/b?x=1`. */
function splitFunctionPath(urlPath: string): { name: string; rest: string } {
  const trimmed = urlPath.replace(/^\/+/, '');
  const end = trimmed.search(/[/?]/);
  return end === -1 ? { name: trimmed, rest: '' } : { name: trimmed.slice(0, end), rest: trimmed.slice(end) };
}

function configFileFor(functionDir: string, supabaseDir: string): string | undefined {
  const own = path.join(functionDir, 'deno.json');
  if (existsSync(own)) return own;
  const shared = path.join(supabaseDir, 'functions', 'deno.json');
  return existsSync(shared) ? shared : undefined;
}

export async function createFunctionsService(ctx: ServiceContext, options: FunctionsServiceOptions = {}): Promise<Service> {
  const { config } = ctx;
  const checkCaller = createCallerCheck(config, ctx.signingKey);
  const env = functionEnvironment(ctx);
  const denoBin = path.join(config.projectRoot, 'node_modules', '.bin', 'deno');
  const agent = new http.Agent({ keepAlive: true });

  const functions = listFunctions(config).filter((fn, index, all) => {
    const first = all.findIndex((other) => other.name === fn.name) === index;
    if (!first) ctx.log(`[functions] ${fn.dir} ignored: a function named ${fn.name} already exists`);
    return first;
  });
  const { api, db, mailWeb, mailSmtp } = config.ports;
  const ports = await allocatePorts(config.ports.functionsBase, functions.length, [api, db, mailWeb, mailSmtp]);
  const processes = new Map<string, FunctionProcess>();
  functions.forEach((fn, index) => {
    const configFile = configFileFor(fn.dir, config.supabaseDir);
    if (!configFile) ctx.log(`[functions:${fn.name}] no deno.json found; Deno runs without an import map`);
    processes.set(fn.name, new FunctionProcess({
      name: fn.name,
      entry: path.join(fn.dir, 'index.ts'),
      verifyJwt: fn.verifyJwt,
      port: ports[index],
      denoBin,
      configFile,
      env,
      watch: options.watch ?? false,
      cwd: config.projectRoot,
      log: ctx.log,
      readyTimeoutMs: READY_TIMEOUT_MS,
    }));
  });

  const startedAt = Date.now();
  ctx.log(`[functions] starting ${functions.map((fn) => `${fn.name}${fn.verifyJwt ? '' : ' (verify_jwt off)'}`).join(', ') || 'no functions'}`);
  // A function that fails to start does not stop the stack: its requests answer 503 and retry.
  await Promise.all([...processes.values()].map((fn) => fn.ensureRunning().catch((error) => ctx.log(`[functions:${fn.name}] ${(error as Error).message}`))));
  ctx.log(`[functions] ready after ${Date.now() - startedAt} ms`);

  return {
    async handle(req, res, urlPath) {
      const { name, rest } = splitFunctionPath(urlPath);
      const fn = processes.get(name);
      if (!fn) return sendGatewayError(res, 404, { code: 'NOT_FOUND', message: 'Requested function was not found' });

      // Preflight always reaches the function: on Supabase functions answer their own CORS.
      if (fn.verifyJwt && req.method !== 'OPTIONS') {
        const caller = await checkCaller(req.headers);
        if (!caller.ok) return sendGatewayError(res, 401, { code: 401, message: caller.message });
      }

      try {
        await fn.ensureRunning();
      } catch (error) {
        ctx.log(`[functions:${name}] ${(error as Error).message}`);
        return sendGatewayError(res, 503, { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' });
      }

      try {
        await forward(req, res, fn.port, `/${name}${rest}`, agent);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        // Let a crash be noticed first, so that the next request starts a fresh process.
        await fn.waitForExit(1_000);
        ctx.log(`[functions:${name}] request failed: ${error.message}`);
        if (res.headersSent) res.destroy();
        else if (error.refused) sendGatewayError(res, 503, { code: 'BOOT_ERROR', message: 'Function failed to start (please check logs)' });
        else sendGatewayError(res, 502, { code: 'WORKER_ERROR', message: 'Function exited due to an error (please check logs)' });
      }
    },

    async close() {
      await Promise.all([...processes.values()].map((fn) => fn.stop()));
      agent.destroy();
    },
  };
}
