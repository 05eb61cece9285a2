// The one place where failures become responses: every error, from the body parser, the
// validator, authentication or the domain, leaves as application/problem+json.
import type { ErrorRequestHandler, Request, Response } from 'express';
import type { Logger } from 'pino';
import { DomainError, InvalidCredentialsError, InvalidInputError, NotFoundError, StoreUnavailableError, TooManyKeysError, UnauthenticatedError, WrongPasswordError } from '../domain/errors.ts';
import { NO_METRICS, type Metrics } from '../metrics/metrics.port.ts';
import { PROBLEMS, problemBody, type ProblemItem, type ProblemKind } from './problems.ts';
import { loggable } from './logging.ts';
import { operationOf } from './operation-label.ts';
import { RateLimitedError } from './rate-limit.ts';
import { requestIdOf } from './request-id.ts';

export const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;
const REALM = 'Bearer realm="school-search"';

interface Mapped {
  kind: ProblemKind;
  detail: string;
  errors?: ProblemItem[];
  headers?: Record<string, string>;
}

export function sendProblem(req: Request, res: Response, mapped: Mapped): void {
  const { kind, detail, errors, headers } = mapped;
  for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
  res.status(kind.status).type('application/problem+json').send(problemBody(kind, detail, requestIdOf(req), errors));
}

export function errorMiddleware(logger: Logger, metrics: Metrics = NO_METRICS): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const mapped = map(error, req);
    if (error instanceof RateLimitedError) metrics.rateLimited(error.policy);
    if (mapped.kind.status === 503) {
      metrics.storeFailed(operationOf(req), 'unavailable');
      // Expected while another process holds the store (an import): no stack, not an error.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      logger.warn({ requestId: requestIdOf(req), method: req.method, cause }, 'store unavailable');
    } else if (mapped.kind.status >= 500) {
      logger.error({ err: loggable(error), requestId: requestIdOf(req), method: req.method }, 'request failed');
    }
    sendProblem(req, res, mapped);
  };
}

function map(error: unknown, req: Request): Mapped {
  if (error instanceof DomainError) return mapDomain(error, req);
  if (error instanceof RateLimitedError) {
    // Retry-After and the RateLimit headers were set by the limiter.
    return { kind: PROBLEMS.rateLimited, detail: `Too many requests (${error.policy} quota). Retry after ${error.retryAfterSeconds} seconds.` };
  }
  const e = error as { status?: unknown; type?: unknown; errors?: unknown; headers?: Record<string, string>; message?: string };
  const status = typeof e.status === 'number' ? e.status : 500;
  // body-parser
  if (e.type === 'entity.parse.failed') return { kind: PROBLEMS.malformedJson, detail: 'The request body must be one JSON object.' };
  if (e.type === 'entity.too.large') return { kind: PROBLEMS.payloadTooLarge, detail: 'The request body is larger than 16 KiB.' };
  if (e.type === 'encoding.unsupported' || e.type === 'charset.unsupported') {
    return { kind: PROBLEMS.unsupportedMediaType, detail: 'The request body must be UTF-8 encoded JSON.' };
  }
  // express-openapi-validator
  switch (status) {
    case 400: {
      const errors = validationItems(e.errors, req);
      const detail = errors.length > 0 ? errors.map(describe).join('; ') : 'The request is invalid.';
      return { kind: PROBLEMS.validation, detail, errors };
    }
    case 404:
      return { kind: PROBLEMS.notFound, detail: `There is no ${req.method} ${req.path}.` };
    case 405: {
      const allow = allowed(e.headers?.['Allow'] ?? e.headers?.['allow']);
      return {
        kind: PROBLEMS.methodNotAllowed,
        detail: `${req.method} is not allowed on ${req.path}.`,
        ...(allow ? { headers: { Allow: allow } } : {}),
      };
    }
    case 413:
      return { kind: PROBLEMS.payloadTooLarge, detail: 'The request body is too large.' };
    case 415:
      return { kind: PROBLEMS.unsupportedMediaType, detail: 'The request body must be application/json.' };
    default:
      return internal();
  }
}

function mapDomain(error: DomainError, req: Request): Mapped {
  if (error instanceof UnauthenticatedError) return unauthorized(req, error);
  if (error instanceof InvalidCredentialsError) {
    return { kind: PROBLEMS.invalidCredentials, detail: error.message, headers: { 'WWW-Authenticate': REALM } };
  }
  if (error instanceof NotFoundError) return { kind: PROBLEMS.notFound, detail: error.message };
  if (error instanceof TooManyKeysError) return { kind: PROBLEMS.tooManyKeys, detail: error.message };
  // A rule the contract cannot state, checked by the domain: the client's input, not our fault.
  if (error instanceof InvalidInputError) return { kind: PROBLEMS.validation, detail: error.message };
  if (error instanceof WrongPasswordError) {
    return { kind: PROBLEMS.wrongPassword, detail: 'current_password is not the current password.' };
  }
  if (error instanceof StoreUnavailableError) {
    return {
      kind: PROBLEMS.unavailable,
      detail: 'The service is temporarily unavailable. Retry later.',
      headers: { 'Retry-After': String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
    };
  }
  return internal();
}

function unauthorized(req: Request, failure: UnauthenticatedError): Mapped {
  // RFC 6750: no error code when the request carried no credentials at all.
  const presented = req.headers.authorization !== undefined || req.query['tokenID'] !== undefined;
  const challenge = presented && failure.reason !== 'missing' ? `${REALM}, error="invalid_token"` : REALM;
  return {
    kind: PROBLEMS.unauthorized,
    detail: 'The bearer token is missing, invalid, expired or revoked.',
    headers: { 'WWW-Authenticate': challenge },
  };
}

/** The contract's methods for the path, plus HEAD wherever GET is (the app answers it, RFC 9110). */
function allowed(fromValidator: string | undefined): string | undefined {
  if (!fromValidator) return undefined;
  const methods = fromValidator.toUpperCase().split(/\s*,\s*/).filter(Boolean);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  return methods.join(', ');
}

function internal(): Mapped {
  return { kind: PROBLEMS.internal, detail: 'An unexpected error occurred. Quote the request id when reporting it.' };
}

function describe(item: ProblemItem): string {
  return item.location === 'body' ? `body at ${item.name}: ${item.message}` : `${item.location} parameter "${item.name}": ${item.message}`;
}

/** express-openapi-validator reports paths like "/query/limit" or "/body/email". */
function validationItems(raw: unknown, req: Request): ProblemItem[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((item: { path?: string; message?: string }) => {
    const match = /^[./]?(query|path|params|headers|body)(?:[./](.*))?$/.exec(item.path ?? '');
    if (!match) {
      // Not about a parameter or the body: the URL itself (e.g. broken percent-encoding).
      const message = /malformed uri/i.test(item.message ?? '') ? 'is not valid percent-encoding' : (item.message ?? 'is invalid');
      return { location: 'path', name: req.path, message };
    }
    const where = match[1]!;
    const rest = match[2] ?? '';
    const location: ProblemItem['location'] = where === 'params' ? 'path' : where === 'headers' ? 'header' : (where as ProblemItem['location']);
    const name = location === 'body' ? `/${rest.replace(/\./g, '/')}` : rest;
    return { location, name, message: item.message ?? 'is invalid' };
  });
}

