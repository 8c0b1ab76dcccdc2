// The local Auth service: a GoTrue-compatible server for /auth/v1, on the stack's Postgres.
// Handlers throw AuthError; this file routes, renders errors and never leaks internals.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Service, ServiceContext } from '../types.ts';
import { getUser, logout, signUp, token, updateUser } from './account.ts';
import { createUser, deleteUser, deleteUserFactor, getUserById, listUserFactors, listUsers, updateUserById } from './admin.ts';
import { AuthError, errors, reply, replyEmpty, replyError, replyUnexpected } from './errors.ts';
import { challenge, enroll, unenroll, verify as verifyFactor } from './mfa.ts';
import { createRateLimiter } from './rate-limit.ts';
import { generateLink, recover, verifyGet, verifyPost } from './recovery.ts';
import { describeRequest, requireAdmin, requireApiKey, requireUser, type AuthRequest, type AuthRuntime } from './request.ts';
import { createTokens } from './tokens.ts';

type Handler = (runtime: AuthRuntime, request: AuthRequest, ...params: string[]) => Promise<unknown>;

interface Route {
  /** An HTTP method, or `*` for any. */
  method: string;
  pattern: RegExp;
  handler: Handler;
  /** 204 with no body (logout). */
  empty?: boolean;
}

const ID = '([^/]+)';

/** `{id}` stands for one path segment, handed to the handler (in order) percent-decoded. */
function route(method: string, path: string, handler: Handler, options: { empty?: boolean } = {}): Route {
  return { method, pattern: new RegExp(`^${path.replaceAll('{id}', ID)}$`), handler, ...options };
}

/** Every method on `path` and everything under it. */
function subtree(path: string, handler: Handler): Route {
  return { method: '*', pattern: new RegExp(`^${path}(?:/.*)?$`), handler };
}

/**
 * Paths the API gateway lets through without an API key: the routes hosted Supabase (and the
 * self-hosted Kong configuration) leave open, which browsers reach from emailed links and OAuth
 * redirects. Everything else under /auth/v1, unknown paths included, needs a key first.
 */
function isOpenPath(pathname: string): boolean {
  return /^\/(verify|callback|authorize)(\/|$)/.test(pathname) || pathname === '/.well-known/jwks.json';
}

/**
 * Routes of GoTrue features the local stack does not emulate. Each answers as GoTrue answers
 * when the feature is switched off (config.toml's defaults for the CLI), after the same checks
 * GoTrue's router makes first (admin credentials, a signed-in user).
 */
function disabledFeatureRoutes(): Route[] {
  const refuse = (error: () => AuthError): Handler => async () => {
    throw error();
  };
  const asAdmin = (error: () => AuthError): Handler => async (runtime, request) => {
    await requireAdmin(runtime, request);
    throw error();
  };
  const asUser = (error: () => AuthError): Handler => async (runtime, request) => {
    await requireUser(runtime, request);
    throw error();
  };
  return [
    // supabase.auth.admin.oauth.*, the OAuth 2.1 server and a user's OAuth grants.
    subtree('/admin/oauth', asAdmin(errors.oauthServerDisabled)),
    subtree('/oauth', refuse(errors.oauthServerDisabled)),
    subtree('/user/oauth/grants', asUser(errors.oauthServerDisabled)),
    // supabase.auth.linkIdentity / unlinkIdentity.
    subtree('/user/identities', asUser(errors.manualLinkingDisabled)),
    // supabase.auth.admin.customProviders.*.
    subtree('/admin/custom-providers', asAdmin(errors.customProvidersDisabled)),
    // supabase.auth.passkey.* (the admin passkey routes are not emulated either: see the docs).
    subtree('/passkeys', refuse(errors.passkeysDisabled)),
    // supabase.auth.signInWithSSO and SAML.
    route('POST', '/sso', refuse(errors.samlDisabled)),
    subtree('/sso/saml', refuse(errors.samlDisabled)),
    // supabase.auth.admin.inviteUserByEmail.
    route('POST', '/invite', asAdmin(() => errors.notEmulated('Invites are disabled on the local stack'))),
    // supabase.auth.reauthenticate (GoTrue serves it on GET only).
    route('GET', '/reauthenticate', asUser(() => errors.notEmulated('Reauthentication is disabled on the local stack'))),
    // supabase.auth.signInWithOtp (magic links, email and phone codes) and supabase.auth.resend.
    route('POST', '/otp', refuse(() => errors.notEmulated('Magic links and one-time codes are disabled on the local stack'))),
    route('POST', '/magiclink', refuse(() => errors.notEmulated('Magic links and one-time codes are disabled on the local stack'))),
    route('POST', '/resend', refuse(() => errors.notEmulated('Resending mails is disabled on the local stack'))),
  ];
}

// GoTrue's external providers; none is enabled on the local stack.
const OAUTH_PROVIDERS = new Set([
  'apple', 'azure', 'bitbucket', 'discord', 'facebook', 'figma', 'fly', 'github', 'gitlab', 'google', 'kakao', 'keycloak',
  'linkedin', 'linkedin_oidc', 'notion', 'snapchat', 'spotify', 'slack', 'slack_oidc', 'twitch', 'twitter', 'x',
  'vercel_marketplace', 'workos', 'zoom',
]);

/** GET /authorize (supabase.auth.signInWithOAuth): GoTrue's answer for a provider that is off. */
async function authorize(_runtime: AuthRuntime, request: AuthRequest): Promise<never> {
  const provider = (request.query.get('provider') ?? '').toLowerCase();
  let reason: string;
  if (provider.startsWith('custom:')) reason = 'custom OAuth providers are disabled';
  else if (OAUTH_PROVIDERS.has(provider)) reason = 'provider is not enabled';
  else reason = `Provider ${provider} could not be found`;
  throw errors.validation(`Unsupported provider: ${reason}`);
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
    route('GET', '/health', async () => ({ version: 'local', name: 'GoTrue', description: 'GoTrue-compatible auth of the Fieldcheck local stack' })),
    route('GET', '/settings', async () => ({
      external: { email: true, phone: false, anonymous_users: false },
      disable_signup: !settings.enableSignup,
      mailer_autoconfirm: !settings.enableConfirmations,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    })),
    route('POST', '/signup', signUp),
    route('POST', '/token', token),
    route('GET', '/user', getUser),
    route('PUT', '/user', updateUser),
    route('POST', '/logout', logout, { empty: true }),
    route('POST', '/recover', recover),
    route('POST', '/verify', verifyPost),
    route('GET', '/authorize', authorize),
    route('POST', '/factors', enroll),
    route('POST', '/factors/{id}/challenge', challenge),
    route('POST', '/factors/{id}/verify', verifyFactor),
    route('DELETE', '/factors/{id}', unenroll),
    route('GET', '/admin/users', listUsers),
    route('POST', '/admin/users', createUser),
    route('GET', '/admin/users/{id}/factors', listUserFactors),
    route('DELETE', '/admin/users/{id}/factors/{id}', deleteUserFactor),
    route('GET', '/admin/users/{id}', getUserById),
    route('PUT', '/admin/users/{id}', updateUserById),
    route('DELETE', '/admin/users/{id}', deleteUser),
    route('POST', '/admin/generate_link', generateLink),
    ...disabledFeatureRoutes(),
  ];

  async function dispatch(request: AuthRequest): Promise<void> {
    const { res, method, pathname } = request;
    if (!isOpenPath(pathname)) requireApiKey(runtime, request);
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
      if (candidate.method !== '*' && candidate.method !== method) continue;
      const params = match.slice(1).filter((value) => value !== undefined).map(decodePathParameter);
      const result = await candidate.handler(runtime, request, ...params);
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
