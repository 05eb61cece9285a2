// The one step from a request to its operation's handler, typed by the operationId the validator
// matched: the handler of that operation gets that operation's input and returns one of its replies.
import type { NextFunction, Request, Response } from 'express';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { operationIdOf, pathParamsOf, principalOf } from '../request.ts';
import type { Handlers } from './handlers.ts';
import { SerializedJson, type Input, type Operations } from './operations.ts';

/** Calls the handler of the operation the validator matched, and sends its reply (`validateResponses`: sendSerialized). */
export function dispatch(handlers: Handlers, validateResponses: boolean) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req);
    if (!isOperation(handlers, operationId)) return next(new NotFoundError(`There is no ${req.method} ${req.path}.`));
    try {
      await answer(handlers, operationId, req, res, validateResponses);
    } catch (error) {
      next(error);
    }
  };
}

function isOperation(handlers: Handlers, operationId: string | undefined): operationId is keyof Operations {
  return operationId !== undefined && Object.hasOwn(handlers, operationId);
}

async function answer<O extends keyof Operations>(
  handlers: Handlers,
  operationId: O,
  req: Request,
  res: Response,
  validateResponses: boolean,
): Promise<void> {
  const reply = await handlers[operationId](validatedInput<O>(req), { principal: () => principalOf(req) });
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  res.status(reply.status);
  const body = reply.body;
  if (reply.status === 204) res.end();
  else if (body instanceof SerializedJson) sendSerialized(res, body, validateResponses);
  else if (reply.contentType) res.type(reply.contentType).send(body);
  else res.json(body);
}

/**
 * Writes the pieces as they are, with the headers res.json gives (no ETag: app.ts), corked into
 * one write; a HEAD response gets the headers only (Node drops the body). The validator checks
 * bodies given to res.json only, so with response validation on, the JSON is parsed back for it
 * and res.json writes the same bytes.
 */
function sendSerialized(res: Response, body: SerializedJson<unknown>, validateResponses: boolean): void {
  if (validateResponses) {
    res.json(JSON.parse(body.toString()));
    return;
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', body.byteLength);
  res.cork();
  for (const piece of body.pieces) res.write(piece);
  res.end();
  res.uncork();
}

/**
 * The request's parts as operation O declares them. express-openapi-validator matched the request
 * to O and checked, coerced and defaulted its query, path and body against the contract before
 * dispatch runs (anything else was a 400): this is where that guarantee becomes O's input type,
 * the only place the request's parts are taken on trust.
 */
function validatedInput<O extends keyof Operations>(req: Request): Input<O> {
  const parts: unknown = { query: req.query, path: pathParamsOf(req), body: req.body };
  return parts as Input<O>;
}
