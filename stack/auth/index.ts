// The local Auth service: a GoTrue-compatible server for /auth/v1, on the stack's Postgres.
// Handlers throw AuthError; this file routes, renders errors and never leaks internals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Service, ServiceContext } from '../types.ts';
import { getUser, logout, signUp, token, updateUser } from './account.ts';
import { createUser, deleteUser, getUserById, listUsers, updateUserById } from './admin.ts';
import { AuthError, errors, reply, replyEmpty, replyError, replyUnexpected } from './errors.ts';
import { challenge, enroll, unenroll, verify as verifyFactor } from './mfa.ts';
import { createRateLimiter } from './rate-limit.ts';
import { generateLink, recover, verifyGet, verifyPost } from './recovery.ts';
import { describeRequest, requireApiKey, type AuthRequest, type AuthRuntime } from './request.ts';
import { createTokens } from './tokens.ts';

type Handler = (runtime: AuthRuntime, request: AuthRequest, param: string) => Promise<unknown>;

interface Route {
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** Reachable without an API key, like GoTrue's open routes behind Supabase's gateway. */
  open?: boolean;
  /** 204 with no body (logout). */
  empty?: boolean;
}

const ID = '([^/]+)';

function route(method: string, path: string, handler: Handler, options: { open?: boolean; empty?: boolean } = {}): Route {
  return { method, pattern: new RegExp(`^${path.replace('{id}', ID)}$`), handler, ...options };
}

/** A percent-decoded path segment; a malformed escape (`%zz`) names nothing, so 404. */
function decodePathParameter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw errors.notFound();
  }
}

export async function createAuthService(ctx: ServiceContext): Promise<Service> {
  const runtime: AuthRuntime = {
    ctx,
    sql: ctx.sql,
    settings: ctx.config.auth,
    tokens: createTokens(ctx),
    limiter: createRateLimiter(ctx.config.auth.rateLimit),
  };
  const { settings } = runtime;

  const routes: Route[] = [
    route('GET', '/health', async () => ({ version: 'local', name: 'GoTrue', description: 'GoTrue-compatible auth of the Fieldcheck local stack' }), { open: true }),
    route('GET', '/settings', async () => ({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: !settings.enableSignup,
      mailer_autoconfirm: !settings.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    }), { open: true }),
    route('POST', '/signup', signUp),
    route('POST', '/token', token),
    route('GET', '/user', getUser),
    route('PUT', '/user', updateUser),
    route('POST', '/logout', logout, { empty: true }),
    route('POST', '/recover', recover),
    route('POST', '/verify', verifyPost),
    route('POST', '/factors', enroll),
    route('POST', '/factors/{id}/challenge', challenge),
    route('POST', '/factors/{id}/verify', verifyFactor),
    route('DELETE', '/factors/{id}', unenroll),
    route('GET', '/admin/users', listUsers),
    route('POST', '/admin/users', createUser),
    route('GET', '/admin/users/{id}', getUserById),
    route('PUT', '/admin/users/{id}', updateUserById),
    route('DELETE', '/admin/users/{id}', deleteUser),
    route('POST', '/admin/generate_link', generateLink),
  ];

  async function dispatch(request: AuthRequest): Promise<void> {
    const { res, method, pathname } = request;
    if (method === 'GET' && pathname === '/.well-known/jwks.json') {
      reply(res, 200, { keys: [ctx.signingKey.publicJwk] }, { 'Cache-Control': 'public, max-age=600' });
      return;
    }
    if (method === 'GET' && pathname === '/verify') {
      const { location } = await verifyGet(runtime, request);
      replyEmpty(res, 303, { Location: location });
      return;
    }
    let pathMatched = false;
    for (const candidate of routes) {
      const match = candidate.pattern.exec(pathname);
      if (!match) continue;
      pathMatched = true;
      if (candidate.method !== method) continue;
      if (!candidate.open) requireApiKey(runtime, request);
      const result = await candidate.handler(runtime, request, decodePathParameter(match[1] ?? ''));
      if (candidate.empty) replyEmpty(res, 204);
      else reply(res, 200, result);
      return;
    }
    if (pathMatched) throw new AuthError(405, 'method_not_allowed', 'Method not allowed');
    throw errors.notFound();
  }

  return {
    async handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
      const request = describeRequest(req, res, path);
      try {
        await dispatch(request);
      } catch (error) {
        if (res.headersSent) {
          ctx.log(`auth: error after response started on ${request.method} ${request.pathname}: ${(error as Error)?.stack ?? error}`);
          res.destroy();
          return;
        }
        if (error instanceof AuthError) {
          replyError(res, error);
          return;
        }
        ctx.log(`auth: unexpected failure on ${request.method} ${request.pathname}: ${(error as Error)?.stack ?? error}`);
        replyUnexpected(res);
      }
    },
  };
}
