// GET /metrics, outside the contract like /docs. Served by a listener of its own (METRICS_PORT,
// loopback by default), and on the API's port only when METRICS_TOKEN is set and presented as a
// bearer token; otherwise the API's /metrics is the contract's 404 like any unknown path.
// docs/metrics.md says why it is not public.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Router } from 'express';
import type { Logger } from 'pino';
import { UnauthenticatedError } from '../../domain/shared/errors.ts';
import type { Scrape } from '../../metrics/metrics.port.ts';
import { loggable, scrub } from '../redact.ts';
import { PROBLEMS, problemBody, type ProblemKind } from '../problems/problems.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** /metrics on the API's port, for a scraper that presents `Authorization: Bearer <token>`. */
export function metricsRoute(token: string, scrape: Scrape): Router {
  const expected = digest(token);
  const router = Router();
  router.get('/metrics', async (req, res, next) => {
    const header = req.headers.authorization;
    const presented = header === undefined ? undefined : /^Bearer +(\S+)$/i.exec(header)?.[1];
    // Compared as digests: equal lengths, and the time taken says nothing about the token.
    if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
      return next(new UnauthenticatedError(header === undefined ? 'missing' : 'unknown'));
    }
    try {
      const { contentType, body } = await scrape();
      res.setHeader('Cache-Control', 'no-store');
      res.type(contentType).send(body);
    } catch (error) {
      next(error);
    }
  });
  // The error middleware answers 405 with `Allow: GET, HEAD`.
  router.all('/metrics', (_req, _res, next) =>
    next(Object.assign(new Error('method not allowed'), { status: 405, headers: { Allow: 'GET' } })),
  );
  return router;
}

/** The metrics listener's app: GET or HEAD /metrics, anything else a problem+json 404 or 405. */
export function metricsListener(scrape: Scrape, logger: Logger): RequestListener {
  return (req, res) => {
    const path = scrub((req.url ?? '/').split(/[?#]/)[0]!);
    if (path !== '/metrics')
      return problem(req, res, PROBLEMS.notFound, `There is no ${req.method} ${path}: the metrics are at /metrics.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return problem(req, res, PROBLEMS.methodNotAllowed, `${req.method} is not allowed on /metrics.`, {
        Allow: 'GET, HEAD',
      });
    }
    scrape().then(
      ({ contentType, body }) => {
        res.writeHead(200, {
          'Content-Type': contentType,
          'Content-Length': Buffer.byteLength(body),
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        logger.error({ err: loggable(error) }, 'metrics scrape failed');
        problem(req, res, PROBLEMS.internal, PROBLEMS.internal.advice);
      },
    );
  };
}

function problem(
  req: IncomingMessage,
  res: ServerResponse,
  kind: ProblemKind,
  detail: string,
  headers: Record<string, string> = {},
): void {
  const requestId = randomUUID();
  const body = problemBody(kind, detail, requestId);
  res.writeHead(kind.status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'X-Request-Id': requestId,
    'Content-Length': Buffer.byteLength(body),
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
