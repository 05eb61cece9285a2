// Readiness (/health/ready) is 503 whenever the instance cannot durably record a search, so that a
// load balancer stops sending searches it cannot meter, and 200 again, in the same process, once
// it can. What proves it is a commit where records are committed (the record writer's thread),
// of the pages a record writes: a one-page write elsewhere succeeds where records fail. Two real
// faults: a full disk with a few KiB left (a failed batch leaves room for one page, not for a
// record), and the records' table damaged in the file while every other table reads fine.
import { closeSync, openSync, readSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Client } from '../../generated/client/index.ts';
import { fetchMyData, fetchSchoolSearch, getReadiness } from '../../generated/sdk.gen.ts';
import { historyIds, mountSmallDisk, startFaultApp, tempDir, unmount, type FaultApp } from '../support/processes.ts';

let dir: ReturnType<typeof tempDir>;
let app: FaultApp | undefined;
beforeEach(() => {
  dir = tempDir('readiness');
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  dir.remove();
});

const search = async (client: Client) => fetchSchoolSearch({ client, query: { query: 'harv' } });
const readiness = async () => (await getReadiness({ client: app!.client() })).response!.status;

async function metering(client: Client): Promise<{ ids: Set<string>; count: number }> {
  const data = await fetchMyData({ client });
  return { ids: await historyIds(client), count: data.data!.usage.request_count };
}

/** While searches cannot be metered: each one is a 503, and readiness after it too, every time. */
async function expectNotReady(client: Client): Promise<void> {
  for (let i = 0; i < 3; i++) {
    expect((await search(client)).response!.status).toBe(503);
    expect(await readiness()).toBe(503);
  }
}

/** Once records can be written again: ready, and the next search metered, nothing of the refused ones stored. */
async function expectServedAgain(client: Client, before: { ids: Set<string>; count: number }): Promise<void> {
  expect(await readiness()).toBe(200);
  const answer = await search(client);
  expect(answer.response!.status).toBe(200);
  const after = await metering(client);
  expect(after.count).toBe(before.count + 1);
  expect(after.ids).toEqual(new Set([...before.ids, answer.data!.apirequest.tid]));
}

describe('readiness while searches cannot be recorded', () => {
  test('when the disk is full but for a few KiB, then readiness is 503 as long as searches are, and 200 once space is freed', async (ctx) => {
    // The 40 MB tmpfs; a few KiB left after it was filled: a record's batch fails, and
    // the room it leaves is enough for one page, never for a record.
    const disk = join(dir.path, 'disk');
    if (!mountSmallDisk(disk, '40m')) ctx.skip('mounting a tmpfs is not allowed here (needs root on Linux)');
    try {
      app = await startFaultApp({ dataDir: join(disk, 'data'), busyBudgetMs: 300 });
      const user = await app.user();
      for (let i = 0; i < 5; i++) expect((await search(user.client)).response!.status).toBe(200);
      const before = await metering(user.client);

      const filler = join(disk, 'filler');
      fillDisk(filler);
      truncateSync(filler, statSync(filler).size - 8192);
      await expectNotReady(user.client);
      rmSync(filler);

      await expectServedAgain(user.client, before);
    } finally {
      await app?.close();
      app = undefined;
      unmount(disk);
    }
  }, 60_000);

  test('when the table of request records is damaged in the file (every other table reads), then readiness is 503 as long as searches are, and 200 once it is repaired', async () => {
    app = await startFaultApp({ dataDir: join(dir.path, 'data'), busyBudgetMs: 300 });
    const user = await app.user();
    for (let i = 0; i < 5; i++) expect((await search(user.client)).response!.status).toBe(200);
    const before = await metering(user.client);

    // The records' pages into the file itself, then their table's root page overwritten in place.
    const raw = new DatabaseSync(app.dbPath, { timeout: 1000 });
    const pageSize = (raw.prepare('PRAGMA page_size').get() as { page_size: number }).page_size;
    const { rootpage } = raw.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'api_requests'").get() as {
      rootpage: number;
    };
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    const saved = readPage(app.dbPath, rootpage, pageSize);
    writePage(app.dbPath, rootpage, Buffer.alloc(pageSize, 0xff));
    // A commit by another connection: every connection reads its pages again at its next transaction.
    raw.exec(
      `PRAGMA user_version = ${(raw.prepare('PRAGMA user_version').get() as { user_version: number }).user_version}`,
    );
    raw.close();

    await expectNotReady(user.client);
    writePage(app.dbPath, rootpage, saved);

    await expectServedAgain(user.client, before);
  }, 60_000);
});

function readPage(file: string, page: number, size: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const bytes = Buffer.alloc(size);
    readSync(fd, bytes, 0, size, (page - 1) * size);
    return bytes;
  } finally {
    closeSync(fd);
  }
}

function writePage(file: string, page: number, bytes: Buffer): void {
  const fd = openSync(file, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, (page - 1) * bytes.length);
  } finally {
    closeSync(fd);
  }
}

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
