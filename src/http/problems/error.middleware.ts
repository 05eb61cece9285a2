// The one place where failures become responses: every error, from the body parser, the
// validator, authentication, the limiter or the domain, leaves as application/problem+json.
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError } from '../../domain/shared/errors.ts';
import { NO_METRICS, type Metrics } from '../../metrics/metrics.port.ts';
import { loggable } from '../redact.ts';
import { operationOf, requestIdOf } from '../request.ts';
import { fromDomain } from './domain-errors.ts';
import { EdgeError } from './edge.error.ts';
import { fromLibrary } from './library-errors.ts';
import { PROBLEMS, problemBody } from './problems.ts';
import { RateLimitedError } from './rate-limited.error.ts';

export function errorMiddleware(logger: Logger, metrics: Metrics = NO_METRICS): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const refusal = asEdgeError(error, req);
    if (refusal instanceof RateLimitedError) metrics.rateLimited(refusal.policy);
    if (refusal.kind === PROBLEMS.mailUnavailable) {
      // The mail server, not the store: what was asked for is stored and its e-mail retried.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      logger.warn(
        { requestId: requestIdOf(req), method: req.method, cause },
        'mail server unavailable: e-mail kept in the outbox',
      );
    } else if (refusal.kind.status === 503) {
      metrics.storeFailed(operationOf(req), 'unavailable');
      // Expected while another process holds the store (an import): no stack, not an error.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      logger.warn({ requestId: requestIdOf(req), method: req.method, cause }, 'store unavailable');
    } else if (refusal.kind.status >= 500) {
      logger.error({ err: loggable(error), requestId: requestIdOf(req), method: req.method }, 'request failed');
    }
    sendProblem(req, res, refusal);
  };
}

function asEdgeError(error: unknown, req: Request): EdgeError {
  if (error instanceof EdgeError) return error;
  const refusal = error instanceof DomainError ? fromDomain(error, req) : fromLibrary(error, req);
  return (
    refusal ??
    new EdgeError(PROBLEMS.internal, 'An unexpected error occurred. Quote the request id when reporting it.', {
      cause: error,
    })
  );
}

function sendProblem(req: Request, res: Response, refusal: EdgeError): void {
  for (const [name, value] of Object.entries(refusal.headers ?? {})) res.setHeader(name, value);
  res
    .status(refusal.kind.status)
    .type('application/problem+json')
    .send(problemBody(refusal.kind, refusal.message, requestIdOf(req), refusal.errors));
}
