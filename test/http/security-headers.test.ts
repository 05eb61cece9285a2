// The security headers are helmet's, recorded once and set on each response
// (src/http/middleware/security-headers.ts): a response must carry exactly what helmet itself gives it.
import type { AddressInfo } from 'node:net';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import { afterEach, describe, expect, test } from 'vitest';
import { POLICY, recorded, securityHeaders } from '../../src/http/middleware/security-headers.ts';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** The headers of GET / through `middleware`, with an X-Powered-By set before it. */
async function headersThrough(middleware: RequestHandler): Promise<[string, string][]> {
  const app = express();
  app.set('etag', false);
  app.use((_req, res, next) => {
    res.setHeader('X-Powered-By', 'something');
    next();
  });
  app.use(middleware);
  app.use((_req, res) => void res.status(200).end('ok'));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {
    signal: AbortSignal.timeout(5_000),
  });
  await response.text();
  return [...response.headers.entries()].filter(([name]) => name !== 'date');
}

describe('securityHeaders', () => {
  test('when a response goes through it, then it has the headers helmet gives it', async () => {
    const ours = await headersThrough(securityHeaders());
    expect(ours).toEqual(await headersThrough(helmet(POLICY)));
    expect(ours.map(([name]) => name)).toContain('content-security-policy');
    expect(ours.map(([name]) => name)).not.toContain('x-powered-by');
  });

  test('when a middleware does not pass the request on at once, then it is refused at start-up', () => {
    expect(() => recorded(() => undefined)).toThrow(/did not pass/);
    expect(() =>
      recorded((_req, res, next) => {
        res.setHeader('X-N', 1);
        next();
      }),
    ).toThrow(/fixed text/);
  });
});
