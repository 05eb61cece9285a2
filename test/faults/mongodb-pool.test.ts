// The MongoDB store when its connections are all busy or the network goes silent (issue 26,
// finding 7): on a real wire-protocol server (FerretDB) behind a TCP proxy this test partitions.
// A request waits for a connection at most the wait queue timeout, and for a silent connection at
// most the socket timeout; both end as StoreUnavailableError (the API's 503 with Retry-After),
// never a driver error (a 500) and never a wait without end.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { MAX_POOL_SIZE, SOCKET_TIMEOUT_MS, WAIT_QUEUE_TIMEOUT_MS } from '../../src/stores/mongodb/limits.ts';
import { MongoSetupError } from '../../src/mongodb-shared/errors.ts';
import { FERRETDB_MISSING, ferretDbBinary, startFerretDb, type FerretDb } from '../../scripts/ferretdb/server.ts';
import { dropAndClose, openFreshMongoStore, type SearchedMongoStore } from '../support/mongodb.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const installed = ferretDbBinary() !== undefined;
let ferretdb: FerretDb;
let proxy: TcpProxy;

beforeAll(async () => {
  if (!installed) return;
  ferretdb = await startFerretDb();
  proxy = await startTcpProxy({ host: '127.0.0.1', port: ferretdb.port });
});
afterAll(async () => {
  await proxy?.close();
  await ferretdb?.stop();
});

/** How a call ended within `ms`: its error or value, and when; 'pending' when it had not. */
async function within(call: Promise<unknown>, ms: number): Promise<{ error?: unknown; ms: number } | 'pending'> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const ended = call.then(
    () => ({ ms: performance.now() - started }),
    (error: unknown) => ({ error, ms: performance.now() - started }),
  );
  const late = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  try {
    return await Promise.race([ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!installed)(`MongoDB pool and timeouts${installed ? '' : ` — skipped: ${FERRETDB_MISSING}`}`, () => {
  const open = (options = '') => openFreshMongoStore(`${proxy.via(ferretdb.uri)}${options}`, 'ferretdb');

  /** Runs `body` with the network silent, then restores it and drops the store. */
  async function partitioned(store: SearchedMongoStore, body: () => Promise<void>): Promise<void> {
    try {
      proxy.freeze();
      await body();
    } finally {
      proxy.thaw();
      await dropAndClose(store).catch(() => undefined);
    }
  }

  test('when nothing is set, then the pool, its wait and the socket have limits; the URI may set its own', async () => {
    const store = await open();
    const tuned = await open('?maxPoolSize=7&waitQueueTimeoutMS=900&socketTimeoutMS=20000');
    try {
      expect(store.db.client.options).toMatchObject({
        maxPoolSize: MAX_POOL_SIZE,
        waitQueueTimeoutMS: WAIT_QUEUE_TIMEOUT_MS,
        socketTimeoutMS: SOCKET_TIMEOUT_MS,
      });
      expect(WAIT_QUEUE_TIMEOUT_MS).toBeGreaterThan(0);
      expect(SOCKET_TIMEOUT_MS).toBeLessThan(30_000);
      expect(tuned.db.client.options).toMatchObject({
        maxPoolSize: 7,
        waitQueueTimeoutMS: 900,
        socketTimeoutMS: 20_000,
      });
    } finally {
      await dropAndClose(tuned);
      await dropAndClose(store);
    }
  });

  test('when the URI lifts the socket or wait queue limit (0), then the store refuses to open and says why', async () => {
    for (const option of ['socketTimeoutMS=0', 'waitQueueTimeoutMS=0']) {
      const refused: unknown = await open(`?${option}`).catch((error: unknown) => error);
      expect(refused, option).toBeInstanceOf(MongoSetupError);
      expect(String((refused as Error).message)).toContain(option);
    }
  });

  test('when every connection of the pool is busy, then the next operation waits at most the wait queue timeout and is unavailable (503)', async () => {
    const store = await open('?maxPoolSize=1');
    await partitioned(store, async () => {
      // The only connection, taken by a read the silent network never answers.
      const hog = store.tokens.findByDigest('a').catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await within(store.tokens.findByDigest('b'), WAIT_QUEUE_TIMEOUT_MS + 3000);
      expect(next, 'still waiting for a connection').not.toBe('pending');
      if (next === 'pending') return;
      expect(next.error).toBeInstanceOf(StoreUnavailableError);
      expect(next.ms).toBeLessThan(WAIT_QUEUE_TIMEOUT_MS + 1500);
      void hog;
    });
  }, 30_000);

  test("when the URI sets a wait queue timeout and it passes, then the driver's error is unavailable (503), not a 500", async () => {
    const store = await open('?maxPoolSize=1&waitQueueTimeoutMS=300');
    await partitioned(store, async () => {
      const hog = store.tokens.findByDigest('a').catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const next = await within(store.tokens.findByDigest('b'), 5000);
      expect(next).not.toBe('pending');
      if (next === 'pending') return;
      expect(next.error).toBeInstanceOf(StoreUnavailableError);
      expect((next.error as Error).cause).toMatchObject({ name: 'MongoWaitQueueTimeoutError' });
      void hog;
    });
  }, 30_000);

  test('when the network goes silent under a request, then it is unavailable (503) within the socket timeout, not the 30 s it was', async () => {
    const store = await open();
    await partitioned(store, async () => {
      // A read is retried once (the driver's retryable reads): the retry waits for a connection
      // (none opens through the silence) at most the wait queue timeout.
      const bound = SOCKET_TIMEOUT_MS + WAIT_QUEUE_TIMEOUT_MS;
      const read = await within(store.tokens.findByDigest('a'), bound + 3000);
      expect(read, 'still waiting on a silent connection').not.toBe('pending');
      if (read === 'pending') return;
      expect(read.error).toBeInstanceOf(StoreUnavailableError);
      expect(read.ms).toBeLessThan(bound + 1500);
    });
  }, 60_000);
});
