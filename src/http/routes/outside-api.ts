// The pages' routers (the docs, the dashboard, the metrics) answer no path under /v1/, yet Express
// would try each of their routes on every API request: a match and a closure per route, about a
// dozen per search, before the request reaches the validator. An API request skips them here in
// one test instead. Case-insensitive, as Express's routing is.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

const API_PATH = /^\/v1\//i;

/** `router`, for every request whose path is not under /v1/. */
export function outsideApi(router: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) =>
    API_PATH.test(req.path) ? next() : router(req, res, next);
}
