// The embedded store's request log commits the records of concurrent searches together (group
// commit: one transaction, one fsync, in the record writer's thread), resolves each append only
// once its record is durable, and lets a bad record fail alone.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { Connection } from '../../src/stores/sqlite/connection.ts';
import { RecordWriter } from '../../src/stores/sqlite/record-writer.ts';
import { SqliteRequestLog } from '../../src/stores/sqlite/request.store.ts';
import { SqliteUserStore } from '../../src/stores/sqlite/user.store.ts';
import { SqliteStore } from '../../src/stores/sqlite/store.ts';
import { at, record, user } from '../support/builders.ts';

let dir: string;
let connection: Connection;
let log: SqliteRequestLog;
/** The transactions the log makes (each a call of the record writer). */
let writes: number;
const write = RecordWriter.prototype.write;
RecordWriter.prototype.write = function (records) {
  writes++;
  return write.call(this, records);
};

beforeEach(async () => {
  writes = 0;
  dir = mkdtempSync(join(tmpdir(), 'school-search-request-log-'));
  connection = await Connection.open({ path: join(dir, 'store.db') });
  const users = new SqliteUserStore(connection);
  await users.create(user(1));
  await users.create(user(2));
  log = new SqliteRequestLog(connection);
});
afterEach(async () => {
  await log.close();
  connection.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SqliteRequestLog group commit', () => {
  test('when searches append at once, then their records are committed in one transaction, each append resolving after it', async () => {
    const appends = Array.from({ length: 40 }, (_, i) => log.append(record(i + 1, user(1 + (i % 2)).id, at(i))));
    await Promise.all(appends);
    expect(writes).toBe(1);
    const [first, second] = await Promise.all([
      log.list(user(1).id, { offset: 0, limit: 100 }),
      log.list(user(2).id, { offset: 0, limit: 100 }),
    ]);
    expect([first.total, second.total]).toEqual([20, 20]);
    expect(await log.usage(user(1).id)).toEqual({ count: 20, totalCost: 20, lastAt: at(38) });
    // Durable: a store opened afresh on the file sees them all.
    const reopened = await SqliteStore.open({ path: join(dir, 'store.db') });
    expect((await reopened.requests.list(user(2).id, { offset: 0, limit: 1 })).total).toBe(20);
    await reopened.close();
  });

  test('when appends come while a commit is under way, then they go in the next one', async () => {
    const firstRound = log.append(record(1, user(1).id, at(1)));
    await new Promise((resolve) => setImmediate(resolve));
    const later = [log.append(record(2, user(1).id, at(2))), log.append(record(3, user(1).id, at(3)))];
    await Promise.all([firstRound, ...later]);
    expect(writes).toBe(2);
    expect((await log.list(user(1).id, { offset: 0, limit: 10 })).records.map((r) => r.id)).toEqual(
      [3, 2, 1].map((n) => record(n, user(1).id, at(n)).id),
    );
  });

  test('when the writer is closed under a write, then that write fails as unavailable, and the next one starts a thread again', async () => {
    const writer = new RecordWriter({ path: connection.path, busyBudgetMs: 5000 });
    await writer.write([record(1, user(1).id, at(1))]);
    const pending = writer.write([record(2, user(1).id, at(2))]);
    // Closed before the thread answers: the write fails, whatever the thread still does.
    void writer.close();
    await expect(pending).rejects.toThrow(StoreUnavailableError);
    await writer.write([record(3, user(1).id, at(3))]);
    await writer.close();
    expect((await log.list(user(1).id, { offset: 0, limit: 10 })).records.map((r) => r.id)).toContain(
      record(3, user(1).id, at(3)).id,
    );
  });

  test('when one record of a batch cannot be written, then it fails alone and the others are committed', async () => {
    const results = await Promise.allSettled([
      log.append(record(1, user(1).id, at(1))),
      // No such user: the foreign key refuses it.
      log.append(record(2, 'ffffffff-0000-4000-8000-000000000000', at(2))),
      log.append(record(3, user(2).id, at(3))),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await log.usage(user(1).id)).count).toBe(1);
    expect((await log.usage(user(2).id)).count).toBe(1);
  });
});
