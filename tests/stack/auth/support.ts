// Helpers for the auth API tests: raw HTTP from a chosen source address, request counting, and
// what GET /user answers for a token.
import http from 'node:http';
import { stack } from '../../support/stack.ts';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

/** One request to the stack with node:http, optionally from a given loopback address. */
export function rawRequest(
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; localAddress?: string; agent?: http.Agent } = {},
): Promise<RawResponse> {
  const url = new URL(path, stack.API_URL);
  const payload = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: options.localAddress,
        agent: options.agent,
        headers: {
          apikey: stack.ANON_KEY,
          authorization: `Bearer ${stack.ANON_KEY}`,
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Wraps a fetch so a test can see every URL the client requested. */
export function recordingFetch(requests: string[]) {
  return (inner: typeof fetch): typeof fetch =>
    (async (input: any, init?: any) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      requests.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}${new URL(url).search}`);
      return inner(input, init);
    }) as typeof fetch;
}

/** What GET /auth/v1/user answers for an access token (supabase-js hides session_not_found's code). */
export async function userEndpoint(accessToken: string): Promise<{ status: number; code: string | undefined }> {
  const response = await rawRequest('/auth/v1/user', { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: response.status, code: response.status === 200 ? undefined : response.json().code };
}
