// The api function's OpenAPI document, built once from its route table (docs/openapi.md).
import { openApiDocument } from '../_shared/openapi.ts';
import { apiRoutes } from './routes.ts';

let built: unknown;

/** The document served at `GET /functions/v1/api/openapi.json`. */
export function apiDocument(): unknown {
  built ??= openApiDocument(apiRoutes, {
    title: 'Fieldcheck API',
    version: '1',
    description:
      'Organizations, sites, checklist templates, inspections with answers and photo evidence, corrective actions and the audit log. ' +
      'Send `Authorization: Bearer <token>`: a signed-in user\'s access token, or an organization API key (`fck_…`) made in Settings. Errors are RFC 9457 problem documents with a catalogue `code`. ' +
      'A POST may carry an `Idempotency-Key`; lists are paged with `cursor` and `limit`.',
    serverUrl: '/functions/v1/api',
  });
  return built;
}
