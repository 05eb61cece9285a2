// The one step from a request to its operation's handler, typed by the operationId the validator
// matched: the handler of that operation gets that operation's input and returns one of its replies.
import type { NextFunction, Request, Response } from 'express';
import { NotFoundError } from '../../domain/shared/errors.ts';
import { JsonSender } from '../compression/json-sender.ts';
import { operationIdOf, pathParamsOf, principalOf } from '../request.ts';
import type { Handlers } from './handlers.ts';
import { SerializedJson, type Input, type Operations } from './operations.ts';

/** Calls the handler of the operation the validator matched, and sends its reply (`validateResponses`: sendJson). */
export function dispatch(handlers: Handlers, validateResponses: boolean) {
  const sender = validateResponses ? undefined : new JsonSender();
  return async (req: Request, res: Response, next: NextFunction) => {
    const operationId = operationIdOf(req);
    if (!isOperation(handlers, operationId)) return next(new NotFoundError(`There is no ${req.method} ${req.path}.`));
    try {
      await answer(handlers, operationId, req, res, sender);
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
  sender: JsonSender | undefined,
): Promise<void> {
  const reply = await handlers[operationId](validatedInput<O>(req), {
    principal: () => principalOf(req),
    header: (name) => req.get(name),
  });
  const headers = reply.headers;
  if (headers !== undefined) for (const name in headers) res.setHeader(name, headers[name]!);
  res.status(reply.status);
  const body = reply.body;
  if (reply.status === 204) res.end();
  else if (reply.contentType) res.type(reply.contentType).send(body);
  else await sendJson(req, res, body, sender);
}

/**
 * A JSON body, through the sender (json-sender.ts: compressed when the request accepts it). The
 * validator checks bodies given to res.json only, so with response validation on (development
 * and tests, `sender` undefined) every body goes to res.json, a written one parsed back for it,
 * and none is compressed: the same bytes as production's uncompressed ones.
 */
function sendJson(req: Request, res: Response, body: unknown, sender: JsonSender | undefined): void | Promise<void> {
  if (sender === undefined) {
    res.json(body instanceof SerializedJson ? JSON.parse(body.toString()) : body);
    return;
  }
  if (body instanceof SerializedJson) return sender.send(req, res, body.pieces, body.keptTail);
  return sender.send(req, res, [JSON.stringify(body)], undefined);
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
