// Binds an app to a port. Used by the composition root, the tests and the benchmark, so that all
// of them answer malformed HTTP the same way.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { PROBLEMS, problemBody, type ProblemKind } from './problems.ts';

export async function listen(app: RequestListener, port: number, host: string, logger?: Logger): Promise<Server> {
  const server = createServer(app);
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => answerClientError(error, socket, logger));
  server.listen(port, host);
  await once(server, 'listening');
  return server;
}

/**
 * Node answers requests it cannot parse (headers over 16 KiB, a broken request line) itself,
 * before Express sees them, with an empty body. Answer them as problem+json like everything else.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex, logger: Logger | undefined): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const kind: ProblemKind = error.code === 'HPE_HEADER_OVERFLOW' ? PROBLEMS.headersTooLarge : PROBLEMS.badRequestLine;
  const requestId = randomUUID();
  logger?.info({ requestId, status: kind.status, reason: error.code }, 'request');
  const body = problemBody(kind, kind.advice, requestId);
  socket.end(
    `HTTP/1.1 ${kind.status} ${kind.title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
