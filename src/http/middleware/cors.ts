// CORS for browser clients on other origins. Tokens travel in the Authorization header, never in
// cookies, so any origin may call the API without credentials (`*`) unless the operator lists
// origins; a cookie-less API has nothing for a hostile page to ride on.
import cors from 'cors';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export type CorsOrigins = '*' | 'none' | readonly string[];

/** Headers a browser script may read: the request id to quote, and how long to back off. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'WWW-Authenticate'];

export function corsPolicy(origins: CorsOrigins): RequestHandler {
  if (origins === 'none') return (_req, _res, next) => next();
  const handler = cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: EXPOSED_HEADERS,
    credentials: false,
    maxAge: 600,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // Only a real preflight is answered here; any other OPTIONS is an undocumented method (405).
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] === undefined) return next();
    handler(req, res, next);
  };
}
