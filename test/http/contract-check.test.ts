// The server's validator does not check the contract against the OpenAPI 3.1 schema at start
// (src/http/middleware/validator.ts: validateApiSpec off, a cost at every start for a file that
// changes only in a commit); here express-openapi-validator runs that check of its own, on the
// contract the server loads (generated/contract.json when it is current, src/http/contract.ts),
// so a contract it would refuse still fails CI. A contract broken on purpose shows the check bites.
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { type Contract, loadContract } from '../../src/http/contract.ts';

const servers: Array<{ close(): void }> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** GET /health/live through the validator with its contract check on: 200, or 500 with the validator's complaint. */
async function checked(contract: Contract): Promise<{ status: number; body: string }> {
  const app = express();
  app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(contract) as never, validateApiSpec: true }));
  app.get('/health/live', (_req, res) => void res.send('ok'));
  const onError: ErrorRequestHandler = (error: unknown, _req, res, _next) =>
    void res.status(500).send(error instanceof Error ? error.message : String(error));
  app.use(onError);
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/health/live`, {
    signal: AbortSignal.timeout(20_000),
  });
  return { status: response.status, body: await response.text() };
}

describe("the contract, by express-openapi-validator's own check", () => {
  test('when the contract the server loads is checked, then the validator accepts it', async () => {
    const { status, body } = await checked(loadContract());
    expect(body).toBe('ok');
    expect(status).toBe(200);
  }, 30_000);

  test('when a contract is broken (a response without its description), then the check refuses it', async () => {
    const contract = structuredClone(loadContract()) as Contract & {
      paths: Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
    };
    delete contract.paths['/health/live']!['get']!.responses['200']!['description'];
    // The validator prints its complaint before it fails: not this test's output.
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { status, body } = await checked(contract);
    expect(status).toBe(500);
    expect(body).toMatch(/apiDoc was invalid/);
    expect(printed).toHaveBeenCalled();
    printed.mockRestore();
  }, 30_000);
});
