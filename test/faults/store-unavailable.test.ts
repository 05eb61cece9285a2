// The embedded store failing for real (no stubbed port): locked by another writer, its file gone,
// replaced or damaged, its disk full. Every affected operation answers 503 problem+json with
// Retry-After, never 500; readiness says not ready while liveness stays up; nothing is half
// written; and the same app, in the same process, serves again once the store is back.
import { closeSync, existsSync, openSync, renameSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Client } from '../../generated/client/index.ts';
import {
  createToken,
  fetchMyData,
  fetchSchoolSearch,
  getLiveness,
  getReadiness,
  listMyTokens,
} from '../../generated/sdk.gen.ts';
import { expectProblem } from '../support/problem.ts';
import { historyIds, mountSmallDisk, startFaultApp, tempDir, unmount, type FaultApp } from '../support/processes.ts';

/** Far below the production 5 s, so that a held lock turns into a 503 quickly. */
const BUSY_BUDGET_MS = 300;

function expectUnavailable(answer: { response?: Response; error?: unknown }): void {
  expectProblem(answer, 503, 'service-unavailable');
  expect(answer.response!.headers.get('retry-after')).toBe('5');
}

/** What a user can see of their metering: the history's ids and the usage count. */
async function metering(client: Client): Promise<{ ids: Set<string>; count: number }> {
  const data = await fetchMyData({ client });
  expect(data.response!.status).toBe(200);
  return { ids: await historyIds(client), count: data.data!.usage.request_count };
}

async function searchOk(client: Client): Promise<string> {
  const r = await fetchSchoolSearch({ client, query: { query: 'harv' } });
  expect(r.response!.status).toBe(200);
  expect(r.data!.requestresult.schools[0]!.schoolname).toBe('Harvard University');
  return r.data!.apirequest.tid;
}

/** While the store cannot take writes: searches and logins are refused whole, liveness stays up. */
async function expectWritesRefused(app: FaultApp, user: Awaited<ReturnType<FaultApp['user']>>): Promise<void> {
  expectUnavailable(await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } }));
  expectUnavailable(await createToken({ client: app.client(), body: { email: user.email, password: user.password } }));
  expectUnavailable(await getReadiness({ client: app.client() }));
  expect((await getLiveness({ client: app.client() })).response!.status).toBe(200);
}

/** After the fault: the same app is ready again and meters the next search; nothing of the refused calls is stored. */
async function expectServedAgain(
  app: FaultApp,
  user: Awaited<ReturnType<FaultApp['user']>>,
  before: { ids: Set<string>; count: number },
): Promise<void> {
  expect((await getReadiness({ client: app.client() })).response!.status).toBe(200);
  const tid = await searchOk(user.client);
  const after = await metering(user.client);
  expect(after.count).toBe(before.count + 1);
  expect(after.ids).toEqual(new Set([...before.ids, tid]));
  // The refused login issued no token: the user still has only the one from the start.
  expect((await listMyTokens({ client: user.client })).data!.tokens).toHaveLength(1);
}

let dir: ReturnType<typeof tempDir>;
let app: FaultApp | undefined;
beforeEach(() => {
  dir = tempDir('store');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  dir.remove();
});

describe('store unavailable: locked by another writer', () => {
  test('when another connection holds the write lock past the busy budget, then searches and logins answer 503 and store nothing, reads go on, and the same app serves again once the lock is released', async () => {
    app = await startFaultApp({ dataDir: join(dir.path, 'data'), busyBudgetMs: BUSY_BUDGET_MS });
    const user = await app.user();
    await searchOk(user.client);
    const before = await metering(user.client);

    // Another process (an import, a stuck script) in the middle of a write transaction.
    const locker = new DatabaseSync(app.dbPath, { timeout: 0 });
    locker.exec('BEGIN IMMEDIATE');
    try {
      const started = performance.now();
      await expectWritesRefused(app, user);
      // The searches waited for the lock (without blocking the server) before giving up.
      expect(performance.now() - started).toBeGreaterThanOrEqual(BUSY_BUDGET_MS);
      // WAL: readers never wait for a writer, so history and account stay readable.
      expect(await metering(user.client)).toEqual(before);
    } finally {
      locker.exec('ROLLBACK');
      locker.close();
    }
    await expectServedAgain(app, user, before);
  });
});

interface Breakage {
  readonly name: string;
  /** The path no longer exists while broken (and must not be created again). */
  readonly gone?: boolean;
  /** Takes the store file away; returns how to put it back. */
  break(app: FaultApp): () => void;
}

const breakages: Breakage[] = [
  {
    // A volume unmounted or a directory moved by mistake: the open connection would go on with
    // a file nobody will open again.
    name: 'its directory is moved away',
    gone: true,
    break(app) {
      const away = `${app.dataDir}.away`;
      renameSync(app.dataDir, away);
      return () => renameSync(away, app.dataDir);
    },
  },
  {
    // A botched restore: something else renamed over DATABASE_PATH.
    name: 'it is replaced by a file that is not a store',
    break(app) {
      const saved = `${app.dbPath}.saved`;
      renameSync(app.dbPath, saved);
      writeFileSync(app.dbPath, randomBytes(64 * 1024));
      return () => renameSync(saved, app.dbPath);
    },
  },
  {
    // A copy cut short (disk full during the copy, an interrupted transfer) moved into place.
    name: 'it is replaced by a damaged copy of itself',
    break(app) {
      const copy = join(dir.path, 'copy.db');
      const reader = new DatabaseSync(app.dbPath);
      reader.exec(`VACUUM INTO '${copy}'`);
      reader.close();
      truncateSync(copy, 4096);
      const saved = `${app.dbPath}.saved`;
      renameSync(app.dbPath, saved);
      renameSync(copy, app.dbPath);
      return () => renameSync(saved, app.dbPath);
    },
  },
];

describe('store unavailable: the file is gone or unreadable', () => {
  test.each(breakages)(
    'when $name, then every store operation answers 503, readiness too, and once the file is back the same app serves it with nothing lost',
    async (breakage) => {
      app = await startFaultApp({ dataDir: join(dir.path, 'data'), busyBudgetMs: BUSY_BUDGET_MS });
      const user = await app.user();
      await searchOk(user.client);
      const before = await metering(user.client);

      const restore = breakage.break(app);
      await expectWritesRefused(app, user);
      expectUnavailable(await fetchMyData({ client: user.client }));
      // Nothing was created in its place: a new empty store would hide the loss of the real one.
      if (breakage.gone) expect(existsSync(app.dataDir)).toBe(false);
      restore();

      await expectServedAgain(app, user, before);
    },
  );
});

describe('store unavailable: disk full', () => {
  test('when the disk holding the store is full, then searches and logins answer 503 and store nothing, and once space is freed the same app serves again', async (ctx) => {
    // A real file system that runs full (tmpfs of 4 MiB): ENOSPC from write(2), as on a full disk.
    const disk = join(dir.path, 'disk');
    if (!mountSmallDisk(disk, '4m')) ctx.skip('mounting a tmpfs is not allowed here (needs root on Linux)');
    try {
      app = await startFaultApp({ dataDir: join(disk, 'data'), busyBudgetMs: BUSY_BUDGET_MS });
      const user = await app.user();
      await searchOk(user.client);
      const before = await metering(user.client);

      const filler = join(disk, 'filler');
      fillDisk(filler);
      await expectWritesRefused(app, user);
      expect(await metering(user.client)).toEqual(before);
      rmSync(filler);

      await expectServedAgain(app, user, before);
    } finally {
      await app?.close();
      app = undefined;
      unmount(disk);
    }
  });
});

/** Writes `path` until the file system has no block left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}
