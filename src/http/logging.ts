// What reaches the logs: one line per request, and error details, never a token. Tokens can
// arrive in a query string (the deprecated tokenID), in a path (pasted as an id) or in an error
// message; every string logged here goes through scrub().
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { NO_METRICS, type Metrics } from '../metrics/metrics.port.ts';
import { operationOf } from './operation-label.ts';
import { requestIdOf } from './request-id.ts';

const SECRETS: ReadonlyArray<[RegExp, string]> = [
  [/ssk_[A-Za-z0-9_-]+/g, 'ssk_[redacted]'],
  [/([?&]tokenID=)[^&\s"']*/gi, '$1[redacted]'],
];

export function scrub(text: string): string {
  return SECRETS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/**
 * What a log line may say about an error: its name, message, stack and validator items, scrubbed
 * of tokens. Validator errors carry the full URL (with a deprecated tokenID) in `path`: never
 * log an error object as it is.
 */
export function loggable(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  const items = (error as { errors?: unknown }).errors;
  return {
    type: error.name,
    message: scrub(error.message),
    stack: scrub(error.stack ?? ''),
    ...(Array.isArray(items) ? { errors: items.map((i: { message?: string }) => scrub(String(i.message))) } : {}),
    ...(error.cause !== undefined ? { cause: loggable(error.cause) } : {}),
  };
}

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
