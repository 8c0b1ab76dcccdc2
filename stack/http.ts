// Small HTTP helpers shared by the stack's services.
import type { IncomingMessage, ServerResponse } from 'node:http';

export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`Request body exceeds ${limit} bytes`);
    this.limit = limit;
  }
}

/**
 * Reads the whole request body, refusing more than `limit` bytes. A refused body is still read
 * to its end and dropped, so the refusal can be answered instead of the connection being reset.
 */
export function readBody(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      reject(new BodyTooLargeError(limit));
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    ...headers,
  });
  res.end(payload);
}

/** A request header's value; the first, should the header come more than once. */
export function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A service's path (the URL after its prefix) as a URL; one the URL parser refuses becomes a path no route matches. */
export function parseServicePath(path: string): URL {
  const base = 'http://service.local';
  try {
    // Appended to the origin, not resolved against it, so `//host/x` stays a path.
    return new URL(`${base}${path.startsWith('/') ? path : `/${path}`}`);
  } catch {
    return new URL(`${base}/.unparsable-path`);
  }
}

/** The caller's IP as the socket sees it (the stack has no proxy in front of it). */
export function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** The token of an `Authorization: Bearer <token>` header value (one token, nothing after it). */
export function bearerFromHeader(header: string | undefined): string | undefined {
  if (!header) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
}

/** The bearer token of a request, if any. */
export function bearerToken(req: IncomingMessage): string | undefined {
  return bearerFromHeader(req.headers.authorization);
}
