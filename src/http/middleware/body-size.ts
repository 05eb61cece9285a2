import type { NextFunction, Request, Response } from 'express';
import { EdgeError } from '../problems/edge.error.ts';
import { PROBLEMS } from '../problems/problems.ts';
import { MAX_BODY_BYTES } from '../server.ts';

/**
 * A body declared larger than the app ever reads is refused before any of it is read
 * (express.json would read and discard all of it first), and the connection is closed so that
 * the rest of it is never read either.
 */
export function refuseDeclaredLargeBodies(req: Request, res: Response, next: NextFunction): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) {
    res.setHeader('Connection', 'close');
    next(new EdgeError(PROBLEMS.payloadTooLarge, 'The request body is larger than 16 KiB.'));
    return;
  }
  next();
}
