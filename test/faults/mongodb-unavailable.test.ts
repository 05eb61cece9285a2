// The MongoDB store going away under the real app, on a real wire-protocol server (a FerretDB
// of this test's own, stopped mid-test): every store operation answers 503 problem+json with
// Retry-After within the driver's server selection timeout, readiness says so, liveness does
// not, and nothing internal (driver names, addresses) reaches the client.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, getLiveness, getReadiness, listMyTokens } from '../../generated/sdk.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { FERRETDB_MISSING, ferretDbBinary, startFerretDb, type FerretDb } from '../../scripts/ferretdb/server.ts';
import { expectProblem } from '../support/problem.ts';

const installed = ferretDbBinary() !== undefined;
let ferretdb: FerretDb;
let app: TestApp;

beforeAll(async () => {
  if (!installed) return;
  ferretdb = await startFerretDb();
  app = await startTestApp({ mongoUri: ferretdb.uri });
});
afterAll(async () => {
  await app?.close().catch(() => undefined);
  await ferretdb?.stop();
});

describe.skipIf(!installed)(`MongoDB store unavailable${installed ? '' : ` — skipped: ${FERRETDB_MISSING}`}`, () => {
  test('when the server stops, then store operations answer 503 with Retry-After, readiness 503, liveness 200', async () => {
    const user = await app.userClient();
    expect((await getReadiness({ client: app.client() })).data).toEqual({ status: 'ok', store: 'mongodb' });
    expect((await fetchMyData({ client: user.client })).response!.status).toBe(200);

    await ferretdb.stop();

    const started = performance.now();
    for (const answer of [
      await fetchMyData({ client: user.client }),
      await fetchMyRequests({ client: user.client }),
      await listMyTokens({ client: user.client }),
      await getReadiness({ client: app.client() }),
    ]) {
      const problem = expectProblem(answer, 503, 'service-unavailable');
      expect(answer.response!.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(JSON.stringify(problem)).not.toMatch(/Mongo|127\.0\.0\.1|ECONNREFUSED/);
    }
    // Four answers, each bounded by the 5 s server selection timeout, not the driver's 30 s.
    expect(performance.now() - started).toBeLessThan(4 * 7000);
    expect((await getLiveness({ client: app.client() })).response!.status).toBe(200);
  }, 60_000);
});
