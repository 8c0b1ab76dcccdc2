// The Fieldcheck REST API (PRODUCT.md §7). Supabase serves it at /functions/v1/api and hands it
// paths starting with /api. It verifies callers itself (verify_jwt = false in config.toml).
import { projectAuthenticator } from '../_shared/auth.ts';
import { createHandler } from '../_shared/http.ts';
import { getMe, patchMe } from './me.ts';

Deno.serve(
  createHandler({
    basePath: '/api',
    routes: [getMe, patchMe],
    authenticator: projectAuthenticator,
  }),
);
