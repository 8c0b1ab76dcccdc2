// Streams a request to a function process and its response back, unchanged except for the
// platform's rule that HTML returned to a GET is served as text/plain.
import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

// Headers that describe one connection, not the message; each hop sets its own.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Why forwarding failed: nothing listened, or the function went away while answering. */
export class UpstreamError extends Error {
  readonly refused: boolean;
  constructor(message: string, refused: boolean) {
    super(message);
    this.refused = refused;
  }
}

function withoutHopByHop(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const copy: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) copy[name] = value;
  }
  return copy;
}

function servedContentType(method: string | undefined, contentType: string | undefined): string | undefined {
  if (method !== 'GET' || !contentType) return contentType;
  // Supabase never serves HTML from functions (phishing protection); parameters such as charset stay.
  return /^\s*text\/html\b/i.test(contentType) ? contentType.replace(/^\s*text\/html/i, 'text/plain') : contentType;
}

/**
 * Forwards `req` to `http://127.0.0.1:<port><upstreamPath>`. Resolves when the response has been
 * sent; rejects with UpstreamError when the function cannot be reached or drops the request.
 */
export function forward(req: IncomingMessage, res: ServerResponse, port: number, upstreamPath: string, agent: http.Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers = withoutHopByHop(req.headers);
    const forwardedFor = req.headers['x-forwarded-for'];
    const clientIp = req.socket.remoteAddress ?? '';
    headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${clientIp}` : clientIp;
    headers['x-forwarded-proto'] ??= 'http';
    if (req.headers.host) headers['x-forwarded-host'] ??= req.headers.host;

    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: upstreamPath, headers, agent });
    /**
     * A function may answer before it has read the whole body (a 413 or a 401 is decided on the
     * headers) and close its connection, or fail while the body still streams. What the client
     * still sends must then be read off its connection and dropped: left unread (the request is
     * piped, so Node does not drain it itself), it stalls the keep-alive connection until the
     * gateway's idle timer destroys it, and the reset takes the client's next request with it.
     */
    const dropRestOfBody = () => {
      if (req.complete) return;
      req.unpipe(upstream);
      // The upload to the function never ends now: its connection cannot go back to the pool.
      upstream.destroy();
      req.resume();
    };
    upstream.on('response', (answer) => {
      const responseHeaders = withoutHopByHop(answer.headers);
      const contentType = servedContentType(req.method, answer.headers['content-type']);
      if (contentType !== undefined) responseHeaders['content-type'] = contentType;
      // The head goes to the client with the first bytes of the body, or with its end: a function
      // that dies after its head and before any body (killed, out of memory) then still gets the
      // gateway's 502, where a head already passed on would leave only cutting the connection,
      // and the client with no answer at all. Registered before pipe(), so the head comes first.
      const passHeadOn = () => {
        if (!res.headersSent) res.writeHead(answer.statusCode ?? 502, answer.statusMessage, responseHeaders);
      };
      answer.once('data', passHeadOn);
      answer.once('end', passHeadOn);
      answer.pipe(res);
      answer.on('end', dropRestOfBody);
      answer.on('error', (error) => reject(new UpstreamError(error.message, false)));
      answer.on('aborted', () => reject(new UpstreamError('the function closed the response early', false)));
      res.on('finish', () => resolve());
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      dropRestOfBody();
      reject(new UpstreamError(error.message, error.code === 'ECONNREFUSED'));
    });
    // The caller hung up: stop the function's work on this request too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
      resolve();
    });
    req.pipe(upstream);
  });
}
