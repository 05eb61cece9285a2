// Rate limiting (express-rate-limit): per token on search, per client and per e-mail on login.
// It runs after the validator, so it knows the operation, the authenticated token and a valid
// body, and before the handler, so a refused search is neither run nor metered.
import { createHash } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Logger } from 'pino';
import { normalizeEmail } from '../domain/auth.service.ts';
import { principalOf } from './auth.ts';

/** Requests allowed per window; 0 turns that limiter off. */
export interface RateLimits {
  readonly windowSeconds: number;
  readonly searchPerToken: number;
  readonly loginPerClient: number;
  /** Failed logins only: a user's own successful logins never lock them out. */
  readonly loginFailuresPerEmail: number;
}

export const RATE_LIMITS_OFF: RateLimits = { windowSeconds: 60, searchPerToken: 0, loginPerClient: 0, loginFailuresPerEmail: 0 };

/** Raised by a limiter; the error middleware answers 429 (Retry-After is already set). */
export class RateLimitedError extends Error {
  readonly policy: string;
  readonly retryAfterSeconds: number;
  constructor(policy: string, retryAfterSeconds: number) {
    super(`The ${policy} quota is used up.`);
    this.policy = policy;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

interface Keyed {
  readonly policy: string;
  readonly limit: number;
  readonly key: (req: Request) => string;
  readonly failuresOnly?: boolean;
}

/** One middleware that applies the limiters of the operation the validator matched. */
export function rateLimiting(limits: RateLimits, logger: Logger): RequestHandler {
  const build = ({ policy, limit, key, failuresOnly }: Keyed): RequestHandler | undefined =>
    limit > 0
      ? rateLimit({
          windowMs: limits.windowSeconds * 1000,
          limit,
          identifier: policy,
          standardHeaders: 'draft-8',
          legacyHeaders: false,
          keyGenerator: key,
          skipSuccessfulRequests: failuresOnly ?? false,
          // Its configuration checks log through our logger, not the console.
          logger: { error: (...args) => logger.error({ args }, 'rate limiter'), warn: (...args) => logger.warn({ args }, 'rate limiter') },
          handler: (req, _res, next) => {
            const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
            const seconds = reset ? Math.max(0, Math.ceil((reset.getTime() - Date.now()) / 1000)) : limits.windowSeconds;
            next(new RateLimitedError(policy, seconds));
          },
        })
      : undefined;

  const byOperation: Record<string, RequestHandler[]> = {
    fetchSchoolSearch: [
      // The token id, not the token: no secret is kept in the limiter's memory.
      build({ policy: 'search-per-token', limit: limits.searchPerToken, key: (req) => `t:${principalOf(req).tokenId}` }),
    ].filter((h) => h !== undefined),
    createToken: [
      build({ policy: 'login-per-client', limit: limits.loginPerClient, key: (req) => `c:${ipKeyGenerator(req.ip ?? '')}` }),
      build({ policy: 'login-failures-per-email', limit: limits.loginFailuresPerEmail, key: emailKey, failuresOnly: true }),
    ].filter((h) => h !== undefined),
  };

  return (req: Request, res: Response, next: NextFunction) => {
    const operationId = (req as Request & { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId;
    const chain = operationId ? byOperation[operationId] : undefined;
    if (!chain || chain.length === 0) return next();
    run(chain, 0, req, res, next);
  };
}

function run(chain: RequestHandler[], index: number, req: Request, res: Response, next: NextFunction): void {
  if (index === chain.length) return next();
  void chain[index]!(req, res, (error?: unknown) => (error ? next(error) : run(chain, index + 1, req, res, next)));
}

/** A digest of the normalised e-mail: the same account however it is typed, and no address kept in memory. */
function emailKey(req: Request): string {
  const email = typeof req.body?.email === 'string' ? normalizeEmail(req.body.email) : '';
  return `e:${createHash('sha256').update(email).digest('base64url')}`;
}
