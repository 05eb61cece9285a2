// CORS for browser clients on other origins. Tokens travel in the Authorization header (or, for
// a publishable key, the `key` query parameter), never in cookies, so any origin may call the
// API without credentials (`*`) unless the operator lists origins; a cookie-less API has nothing
// for a hostile page to ride on.
//
// A request made with a publishable key is not answered here: its key lists the pages it works
// from, and authentication answers CORS for that page alone (src/http/middleware/auth.ts). Its
// preflight, which carries no key when the key is in a header, is answered for any origin on a
// page's operations, and cached as long as browsers allow (Chromium caps it at two hours).
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { looksPublishable } from '../../domain/accounts/token.ts';

export type CorsOrigins = '*' | 'none' | readonly string[];

/** Headers a browser script may read: the request id to quote, and how long to back off. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'WWW-Authenticate'];

/** Seconds a browser may keep a preflight's answer: the most Chromium keeps (Firefox keeps a day). */
export const PREFLIGHT_MAX_AGE = 7200;

/** The paths of the operations a publishable key may use (auth.ts PUBLISHABLE_OPERATIONS). */
const PAGE_PATHS = /^\/v1\/(?:fetchSchoolSearch|schools\/[^/]+)$/;

const OPTIONS = {
  methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
  allowedHeaders: ['Authorization', 'Content-Type'],
  exposedHeaders: EXPOSED_HEADERS,
  credentials: false,
  maxAge: PREFLIGHT_MAX_AGE,
};

export function corsPolicy(origins: CorsOrigins): RequestHandler {
  const programs = origins === 'none' ? undefined : cors({ ...OPTIONS, origin: origins === '*' ? '*' : [...origins] });
  // A page's preflight: its origin echoed, whoever's key the request will carry.
  const pages = cors({ ...OPTIONS, origin: true, methods: ['GET', 'HEAD'] });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') {
      // Only a real preflight is answered here; any other OPTIONS is an undocumented method (405).
      if (req.headers['access-control-request-method'] === undefined) return next();
      if (origins !== '*' && PAGE_PATHS.test(req.path)) return pages(req, res, next);
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
