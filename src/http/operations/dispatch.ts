import type { NextFunction, Request, Response } from 'express';
import { NotFoundError } from '../../domain/errors.ts';
import { operationIdOf, pathParamsOf, principalOf } from '../request.ts';
import type { Handlers } from './handlers.ts';

/** Calls the handler of the operation the validator matched, and sends its reply. */
export function dispatch(handlers: Handlers) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req) as keyof Handlers | undefined;
    const handler = operationId ? (handlers[operationId] as Handlers[keyof Handlers] | undefined) : undefined;
    if (!handler) return next(new NotFoundError(`There is no ${req.method} ${req.path}.`));
    try {
      const input = { query: req.query, path: pathParamsOf(req), body: req.body } as never;
      const reply = await handler(input, { principal: () => principalOf(req) });
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      res.status(reply.status as number);
      if (reply.status === 204) res.end();
      else if (reply.contentType) res.type(reply.contentType).send(reply.body);
      else res.json(reply.body);
    } catch (error) {
      next(error);
    }
  };
}
