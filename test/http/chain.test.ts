// The API's middleware runs as one Express layer (src/http/middleware/chain.ts). What Express's own
// `next` promises must hold in it: the steps in order, an error straight to the error handlers
// (nothing after it runs), `next('route')` going on, and a step that throws or whose promise is
// rejected reaching the error handlers as that error instead of leaving the request hanging.
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterEach, describe, expect, test } from 'vitest';
import { chain } from '../../src/http/middleware/chain.ts';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** GET / through `steps` in one chain; the reply says which steps ran and what reached the error handler. */
async function run(steps: (ran: string[]) => RequestHandler[]): Promise<{ status: number; body: string }> {
  const app = express();
  const ran: string[] = [];
  app.use(chain(steps(ran)));
  app.use((_req, res) => void res.status(404).send(`fell through after ${ran.join(',')}`));
  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) =>
    void res.status(500).send(`${error instanceof Error ? error.message : String(error)} after ${ran.join(',')}`);
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
    signal: AbortSignal.timeout(5_000),
  });
  return { status: response.status, body: await response.text() };
}

const step =
  (name: string, ran: string[]): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

describe('chain', () => {
  test('when every step calls next, then they run in order and the request goes on past the chain', async () => {
    expect(await run((ran) => [step('a', ran), step('b', ran), step('c', ran)])).toEqual({
      status: 404,
      body: 'fell through after a,b,c',
    });
  });

  test('when a step answers, then the steps after it do not run', async () => {
    const answer: RequestHandler = (_req, res) => void res.status(200).send('answered');
    expect(await run((ran) => [step('a', ran), answer, step('c', ran)])).toEqual({ status: 200, body: 'answered' });
  });

  test('when a step passes an error, then the error handlers get it and no later step runs', async () => {
    const fail: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    expect(await run((ran) => [step('a', ran), fail, step('c', ran)])).toEqual({
      status: 500,
      body: 'refused after a',
    });
  });

  test("when a step calls next('route'), then the next step runs", async () => {
    const skip: RequestHandler = (_req, _res, next) => next('route');
    expect(await run((ran) => [step('a', ran), skip, step('c', ran)])).toEqual({
      status: 404,
      body: 'fell through after a,c',
    });
  });

  test('when a step throws, also after an asynchronous step, then the error handlers get what it threw', async () => {
    const thrower: RequestHandler = () => {
      throw new Error('thrown');
    };
    // After a step that calls next from a timer, Express's own layer is no longer on the stack to catch it.
    const later: RequestHandler = (_req, _res, next) => void setTimeout(next, 10);
    expect(await run((ran) => [step('a', ran), later, thrower, step('c', ran)])).toEqual({
      status: 500,
      body: 'thrown after a',
    });
  });

  test('when a step returns a rejected promise, then the error handlers get its reason', async () => {
    const rejecting: RequestHandler = async () => {
      await Promise.resolve();
      throw new Error('rejected');
    };
    expect(await run((ran) => [step('a', ran), rejecting, step('c', ran)])).toEqual({
      status: 500,
      body: 'rejected after a',
    });
  });

  test('when a step returns a promise rejected with nothing that is an error (0), then the error handlers still get one', async () => {
    const rejecting: RequestHandler = () => Promise.reject(0);
    expect(await run((ran) => [step('a', ran), rejecting, step('c', ran)])).toEqual({
      status: 500,
      body: 'Rejected promise after a',
    });
  });

  test('when a step is an asynchronous one that calls next later, then the chain waits for it', async () => {
    const later: RequestHandler = (_req, _res, next) => void setTimeout(next, 10);
    expect(await run((ran) => [step('a', ran), later, step('c', ran)])).toEqual({
      status: 404,
      body: 'fell through after a,c',
    });
  });
});
