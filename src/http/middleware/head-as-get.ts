import type { NextFunction, Request, Response } from 'express';

/**
 * HEAD is GET without a body (RFC 9110), but the validator only knows the contract's GETs.
 * The response object was created for a HEAD request, so Node still sends no body.
 */
export function headAsGet(req: Request, _res: Response, next: NextFunction): void {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
}
