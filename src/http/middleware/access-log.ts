// One log line per request, never with a token in it (src/http/redact.ts).
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { NO_METRICS, type Metrics } from '../../metrics/metrics.port.ts';
import { scrub } from '../redact.ts';
import { operationOf, requestIdOf } from '../request.ts';

/** The path of a URL as sent (not relative to a router mount), without the query string. */
function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/**
 * One line per request: method as sent (HEAD stays HEAD), path without query, status, time. The
 * same listener reports the request to the metrics (its operation, status and time), so that
 * metrics cost no second timer or listener per request.
 */
export function accessLog(logger: Logger, metrics: Metrics = NO_METRICS) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    const method = req.method;
    const path = scrub(pathOf(req.originalUrl));
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      metrics.requestFinished(operationOf(req), res.statusCode, ms / 1000);
      logger.info({ requestId: requestIdOf(req), method, path, status: res.statusCode, ms }, 'request');
    });
    next();
  };
}
