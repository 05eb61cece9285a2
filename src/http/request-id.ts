import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE = /^[A-Za-z0-9._:-]{1,64}$/;
const ids = new WeakMap<Request, string>();

/** Takes a caller's X-Request-Id when it is safe to echo and log, or makes one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  // Never adopt something shaped like a token: the id is logged and echoed.
  const id = typeof incoming === 'string' && SAFE.test(incoming) && !/ssk_/i.test(incoming) ? incoming : randomUUID();
  ids.set(req, id);
  res.setHeader('X-Request-Id', id);
  next();
}

export function requestIdOf(req: Request): string {
  return ids.get(req) ?? 'unknown';
}
