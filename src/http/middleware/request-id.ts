// The request's id: echoed in X-Request-Id, in every problem's request_id and on every log line.
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { beginRequest } from '../request.ts';

const SAFE = /^[A-Za-z0-9._:-]{1,64}$/;

/** Takes a caller's X-Request-Id when it is safe to echo and log, or makes one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.headers['x-request-id'];
  // Never adopt something shaped like a token: the id is logged and echoed.
  const id = typeof incoming === 'string' && SAFE.test(incoming) && !/ssk_/i.test(incoming) ? incoming : randomUUID();
  beginRequest(req, id);
  res.setHeader('X-Request-Id', id);
  next();
}
