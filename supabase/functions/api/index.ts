// The Fieldcheck REST API (docs/product.md §7). Supabase serves it at /functions/v1/api and hands it
// paths starting with /api. It verifies callers itself (verify_jwt = false in config.toml).
import { projectAuthenticator } from '../_shared/auth.ts';
import { createHandler } from '../_shared/http.ts';
import { projectRateLimiter } from '../_shared/rate-limit.ts';
import { apiDocument } from './openapi.ts';
import { apiRoutes } from './routes.ts';

Deno.serve(
  createHandler({
    basePath: '/api',
    routes: Object.values(apiRoutes),
    authenticator: projectAuthenticator,
    rateLimiter: projectRateLimiter,
    openApiDocument: apiDocument,
  }),
);
