// Binds an app to a port. Used by the composition root, the tests and the benchmark, so that all
// of them answer malformed HTTP, slow clients and oversized bodies the same way.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { scrub } from './redact.ts';
import { PROBLEMS, problemBody, type ProblemKind } from './problems/problems.ts';

/** How long a client may take to send a request, so that slow clients (slowloris) cannot hold
 * connections for minutes. Node's defaults are 60 s for the headers and 300 s for the request. */
export interface ServerLimits {
  /** The request line and headers must arrive within this. */
  readonly headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this (bodies are at most 16 KiB). */
  readonly requestTimeoutMs: number;
}

export const SERVER_LIMITS: ServerLimits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 };

/** The largest request body the app reads (src/http/middleware/body-size.ts refuses larger ones before reading them). */
export const MAX_BODY_BYTES = 16 * 1024;

export async function listen(
  app: RequestListener,
  port: number,
  host: string,
  logger?: Logger,
  limits: ServerLimits = SERVER_LIMITS,
): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node enforces both timeouts on this interval (default 30 s: far coarser than they are).
      connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
      // Node would answer a missing Host with an empty 400; answered below as problem+json.
      requireHostHeader: false,
    },
    (req, res) => {
      if (req.httpVersion === '1.1' && !req.headers.host) {
        return refuse(req, res, PROBLEMS.badRequestLine, 'An HTTP/1.1 request must have a Host header.', logger);
      }
      app(req, res);
    },
  );
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) =>
    answerClientError(error, socket, logger),
  );
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}

/**
 * While the server stops: keep-alive clients would go on sending requests on the connections they
 * have, and a busy connection is never idle, so the server would only stop at the deadline,
 * cutting requests off. So every request that still arrives is answered with
 * `Connection: close` (set before the app runs: some answers, like a CORS preflight, are finished
 * synchronously inside it), and connections are closed as soon as they fall idle. Returns the
 * function that stops the idle sweep.
 */
export function drainConnections(server: Server): () => void {
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  });
  const idle = setInterval(() => server.closeIdleConnections(), 50);
  idle.unref();
  server.closeIdleConnections();
  return () => clearInterval(idle);
}

/** Refuses a request before the app sees it, and closes the connection. */
function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  kind: ProblemKind,
  detail: string,
  logger: Logger | undefined,
): void {
  const requestId = randomUUID();
  const path = scrub((req.url ?? '').split(/[?#]/)[0]!);
  logger?.info({ requestId, method: req.method, path, status: kind.status }, 'request');
  const body = problemBody(kind, detail, requestId);
  res.writeHead(kind.status, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'X-Request-Id': requestId,
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
  });
  res.end(body);
}

/**
 * Node answers requests it cannot parse (headers over 16 KiB, a broken request line) or that
 * arrive too slowly itself, before Express sees them, with an empty body. Answer them as
 * problem+json like everything else.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger | undefined): void {
  // A response already under way on this connection cannot be followed by another one.
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const kind: ProblemKind =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? PROBLEMS.headersTooLarge
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? PROBLEMS.requestTimeout
        : PROBLEMS.badRequestLine;
  const requestId = randomUUID();
  logger?.info({ requestId, status: kind.status, reason: error.code }, 'request');
  const body = problemBody(kind, kind.advice, requestId);
  socket.end(
    `HTTP/1.1 ${kind.status} ${kind.title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
