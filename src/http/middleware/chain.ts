// The API's middleware as one Express layer. Express's router spends, on every layer a request
// passes, a match of the layer's path, a params object, a closure and a prefix check: garbage on
// every layer, a good part of what a search allocates with the layers this app has (the figures:
// docs/runs/performance.md, Run L). None of these layers has a path, so none of that work decides
// anything: run as a chain with one `next` per request, they keep the order and the contract of
// Express's `next` (an error skips to the error handlers, `next('route')` goes on, a thrown
// error or a rejected promise is passed as one).
import type { NextFunction, Request, RequestHandler, Response } from 'express';

export function chain(steps: readonly RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error && error !== 'route') return done(error);
      const step = steps[index++];
      if (step === undefined) return done();
      try {
        const result: unknown = step(req, res, next);
        if (isThenable(result))
          result.then(undefined, (rejected: unknown) => next(rejected || new Error('Rejected promise')));
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
