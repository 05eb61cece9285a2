import type { NextFunction, Request, Response } from 'express';

/**
 * HEAD is GET without a body (RFC 9110), but the validator only knows the contract's GETs.
 * The response object was created for a HEAD request, so Node still sends no body.
 */
export function headAsGet(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'HEAD') {
    req.method = 'GET';
    heads.add(req);
  }
  next();
}

const heads = new WeakSet<Request>();

/** The request was a HEAD (its method now says GET): its answer has no body, so none is compressed. */
export function wasHead(req: Request): boolean {
  return heads.has(req);
}
