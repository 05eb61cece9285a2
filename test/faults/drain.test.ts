// The drain the SIGTERM handler starts (src/http/server.ts drainConnections), in process: every
// answer says `Connection: close`, including those the app finishes synchronously (a CORS
// preflight, /openapi.json, an early 413), and none of them throws (an exception there would
// kill the process in the middle of its shutdown).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { drainConnections } from '../../src/http/server.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let stopDraining: () => void;
beforeAll(async () => {
  app = await startTestApp();
  stopDraining = drainConnections(app.server);
});
afterAll(async () => {
  stopDraining();
  await app.close();
});

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.baseUrl}${path}`, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('drainConnections (SIGTERM)', () => {
  test.each([
    [
      'a CORS preflight',
      'OPTIONS',
      '/v1/fetchSchoolSearch',
      { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' },
      undefined,
      204,
    ],
    ['the contract', 'GET', '/openapi.json', {}, undefined, 200],
    [
      'a body declared over 16 KiB',
      'POST',
      '/v1/auth',
      { 'Content-Type': 'application/json' },
      'x'.repeat(20_000),
      413,
    ],
    ['a health check', 'GET', '/health/live', {}, undefined, 200],
  ] as const)(
    'when %s arrives while draining, then it is answered with Connection: close',
    async (_what, method, path, headers, body, status) => {
      const answer = await send(method, path, { ...headers }, body);
      expect(answer.status).toBe(status);
      expect(answer.connection).toBe('close');
    },
  );
});
