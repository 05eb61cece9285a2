// CORS for browser clients on other origins. Tokens travel in the Authorization header (or, for
// a publishable key, the `key` query parameter), never in cookies, so any origin may call the
// API without credentials (`*`) unless the operator lists origins; a cookie-less API has nothing
// for a hostile page to ride on.
//
// A request made with a publishable key is not answered here: its key lists the pages it works
// from, and authentication answers CORS for that page alone (src/http/middleware/auth.ts),
// whatever CORS_ORIGINS says about programs. A page sends its key as the `key` query parameter,
// which keeps a search a simple request: no preflight per keystroke (each query is a new URL,
// and browsers cache a preflight per URL). A page that sends the key in Authorization instead
// is preflighted under the operator's policy, cached as long as browsers allow (Chromium caps
// it at two hours).
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { looksPublishable } from '../../domain/accounts/token.ts';

export type CorsOrigins = '*' | 'none' | readonly string[];

/** Headers a browser script may read: the request id to quote, and how long to back off. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'WWW-Authenticate'];

/** Seconds a browser may keep a preflight's answer: the most Chromium keeps (Firefox keeps a day). */
export const PREFLIGHT_MAX_AGE = 7200;

const OPTIONS = {
  methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type', 'Idempotency-Key'],
  exposedHeaders: EXPOSED_HEADERS,
  credentials: false,
  maxAge: PREFLIGHT_MAX_AGE,
};

export function corsPolicy(origins: CorsOrigins): RequestHandler {
  const programs = origins === 'none' ? undefined : cors({ ...OPTIONS, origin: origins === '*' ? '*' : [...origins] });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') {
      // Only a real preflight is answered here; any other OPTIONS is an undocumented method (405).
      if (req.headers['access-control-request-method'] === undefined) return next();
    } else if (withPublishableKey(req)) return next();
    if (programs === undefined) return next();
    programs(req, res, next);
  };
}

function withPublishableKey(req: Request): boolean {
  const key = req.query['key'];
  if (typeof key === 'string' && looksPublishable(key)) return true;
  const header = req.headers.authorization;
  return header !== undefined && /^Bearer[ \t]+spk_/i.test(header);
}
