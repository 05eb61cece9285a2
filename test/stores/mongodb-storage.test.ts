// The MongoDB adapter's storage beyond the contract suite (issue 26), on every wire-protocol
// server this run has (FerretDB v1 here; MongoDB where MONGODB_URI names one): which indexes the
// request records keep, how a record is counted in its day's usage when appends and reads of
// several instances interleave, and how the counters are filled once from older records. Interleavings are made, not hoped for: a collection handle that
// pauses or fails a chosen call stands in for a slow or lost round trip, and a clock the test
// moves stands in for the time passing meanwhile. Each step still runs on the server.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import {
  MongoClient,
  MongoNetworkError,
  MongoServerError,
  MongoWriteConcernError,
  MongoNetworkTimeoutError,
  type Collection,
  type Db,
  type Document,
  type FindCursor,
} from 'mongodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { COLLECTIONS, type RequestDocument, type UsageDayDocument } from '../../src/stores/mongodb/documents.ts';
import { ensureIndexes, IndexCreationError, INDEXES } from '../../src/stores/mongodb/indexes.ts';
import { MongoRequestLog } from '../../src/stores/mongodb/request.store.ts';
import { migrateUsage } from '../../src/stores/mongodb/usage.migration.ts';
import { LONGEST_USAGE_CHART_DAYS } from '../../src/domain/metering/retention.ts';
import { record, user } from '../support/builders.ts';
import { RecordExistsError, StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import {
  dropAndClose,
  freshDatabaseName,
  intercept,
  mongoServers,
  openFreshMongoStore,
  type Call,
  type SearchedMongoStore,
} from '../support/mongodb.ts';

const servers = await mongoServers();

describe('request indexes', () => {
  test('then no index is kept that no query reads, and pending records are found by their user', () => {
    const requests = INDEXES.requests;
    // Written with every record, read by nothing (the usage per day is kept in usage_days).
    expect(requests.map((i) => i.name)).not.toContain('requests_by_user_day');
    // A read counts its own user's pending records: the index leads with the user and holds
    // pending records only (not every record, as a sparse index on a field all records have would).
    const pending = requests.filter((i) => 'pending' in (i.key as object) || i.partialFilterExpression?.['pending']);
    expect(pending).toHaveLength(1);
    expect(Object.keys(pending[0]!.key)[0]).toBe('userId');
    expect(pending[0]!.partialFilterExpression).toStrictEqual({ pending: true });
  });
});

describe.skipIf(servers.length === 0).each(servers)('request indexes on %s', (_name, uri) => {
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(uri);
  });
  afterAll(async () => {
    await client?.close();
  });

  test('when a store made by an earlier version is opened, then its unread and unscoped request indexes are dropped', async () => {
    const db = client.db(freshDatabaseName());
    try {
      const requests = db.collection(COLLECTIONS.requests);
      // As 1.2 left them.
      await requests.createIndex({ userId: 1, day: 1, cost: 1 }, { name: 'requests_by_user_day' });
      await requests.createIndex({ pending: 1 }, { name: 'requests_pending', sparse: true });
      await ensureIndexes(db, INDEXES).catch((error: unknown) => {
        // FerretDB refuses some (text, TTL, partial): the others are made, and the outdated dropped.
        if (!(error instanceof IndexCreationError)) throw error;
      });
      const names = (await requests.listIndexes().toArray()).map((i) => i['name'] as string);
      expect(names).toContain('requests_by_user_time');
      expect(names).not.toContain('requests_by_user_day');
      expect(names).not.toContain('requests_pending');
      // Again: nothing left to drop, nothing fails.
      await ensureIndexes(db, INDEXES).catch((error: unknown) => {
        if (!(error instanceof IndexCreationError)) throw error;
      });
    } finally {
      await db.dropDatabase();
    }
  });
});

/** A call the test lets through when it chooses: `reached` once it is made, `open()` to go on. */
interface Gate {
  readonly reached: Promise<void>;
  open(): void;
  wait(): Promise<void>;
}

function gate(): Gate {
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reached,
    open: () => release(),
    wait: () => {
      reach();
      return opened;
    },
  };
}

/** The first call of `method` fails as a lost connection does (it never reached the server); later calls go through. */
function failOnce<T extends Document>(collection: Collection<T>, ...methods: string[]): Collection<T> {
  let failed = false;
  const fail = (real: Call, args: unknown[]) => {
    if (failed) return real(...args);
    failed = true;
    return Promise.reject(new MongoNetworkError('injected: connection lost'));
  };
  return intercept(collection, Object.fromEntries(methods.map((m) => [m, fail])));
}

/**
 * The first call of `method` is held until the gate opens, as a round trip in a slow network
 * is. The driver gives up on a write that cannot reach the server within its socket timeout (30
 * s before issue 26, 15 s since): one held longer (by the test's clock) fails without reaching
 * the server, as it would.
 */
function holdFirst<T extends Document>(
  collection: Collection<T>,
  method: string,
  held: Gate,
  clock: () => number,
): Collection<T> {
  let first = true;
  return intercept(collection, {
    [method]: async (real, args) => {
      if (!first) return real(...args);
      first = false;
      const sent = clock();
      await held.wait();
      if (clock() - sent > LANDING_MS) throw new MongoNetworkTimeoutError('injected: socket timed out');
      return real(...args);
    },
  });
}

/** The longest a write handed to the driver takes to reach the server or fail, in these tests. */
const LANDING_MS = 30_000;
/** How the request logs under test count: a record is its counter's for LEASE_MS; a day's queue holds 8. */
const COUNTING = { leaseMs: 62_000, landingMs: LANDING_MS, queueLimit: 8 };
const MINUTE = 60_000;

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; !(await condition()); tries++) {
    if (tries > 200) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(servers.length === 0).each(servers)('counting request records on %s', (_name, uri, flavor) => {
  let store: SearchedMongoStore;
  let requests: Collection<RequestDocument>;
  let days: Collection<UsageDayDocument>;
  /** The instances' clock, moved by the tests. */
  let clock: number;
  const now = () => clock;
  const owner = user(1);
  const log = (r = requests, d = days) => new MongoRequestLog(r, d, now, COUNTING);
  const at = () => new Date(clock);

  beforeAll(async () => {
    store = await openFreshMongoStore(uri, flavor);
    await store.users.create(owner);
    requests = store.db.collection<RequestDocument>(COLLECTIONS.requests);
    days = store.db.collection<UsageDayDocument>(COLLECTIONS.usageDays);
  });
  afterAll(async () => {
    await dropAndClose(store);
  });
  beforeEach(async () => {
    await requests.deleteMany({});
    await days.deleteMany({});
    clock = Date.parse('2026-11-20T10:00:00.000Z');
  });

  /** The record's day as the store holds it, and the records still pending. */
  async function state() {
    return {
      count: (await log().usage(owner.id)).count,
      pending: await requests.countDocuments({ pending: true }),
      day: await days.findOne({}, { projection: { _id: 0, count: 1, applied: 1 } }),
    };
  }

  test('when two instances heal the same record at once, then it is counted once', async () => {
    // An append that stopped after writing its record: its count never reached the server.
    await log(requests, failOnce(days, 'updateOne'))
      .append(record(1, owner.id, at()))
      .catch(() => undefined);
    clock += 2 * MINUTE;
    // The first reader's count is slow; the second reader heals meanwhile.
    const held = gate();
    const first = log(requests, holdFirst(days, 'updateOne', held, now)).usage(owner.id);
    await held.reached;
    await log().usage(owner.id);
    held.open();
    await first;
    expect(await state()).toStrictEqual({ count: 1, pending: 0, day: { count: 1, applied: [] } });
  });

  test("when the day's count fails after the record is durable, then the append still succeeds (the search is answered and billed once, not a 503 a retry bills again), and a read after its lease counts it once (issue 43, M3)", async () => {
    const wtimeout = intercept(days, {
      updateOne: () =>
        Promise.reject(
          new MongoServerError({
            code: 64,
            codeName: 'WriteConcernFailed',
            errmsg: 'injected: waiting for replication timed out',
          }),
        ),
    });
    await expect(log(requests, wtimeout).append(record(1, owner.id, at()))).resolves.toBeUndefined();
    expect(await requests.countDocuments({ pending: true })).toBe(1);
    clock += 2 * MINUTE;
    expect(await state()).toStrictEqual({ count: 1, pending: 0, day: { count: 1, applied: [] } });
  });

  test('when the record landed but its write concern failed (a 503), then a retry with the same id (its Idempotency-Key) stores nothing and counts nothing: the search is billed once (issue 43, M3)', async () => {
    // The insert is applied on the primary, then the majority is not reached in time.
    const landedThenFailed = intercept(requests, {
      insertOne: async (real, args) => {
        await real(...args);
        throw new MongoWriteConcernError({
          errmsg: 'injected: waiting for replication timed out',
          code: 64,
          writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' },
        } as never);
      },
    });
    const first = record(1, owner.id, at());
    await expect(log(landedThenFailed).append(first)).rejects.toBeInstanceOf(StoreUnavailableError);
    // The client's retry: the same id, made from its key.
    await expect(log().append({ ...first, timeMade: at() })).rejects.toBeInstanceOf(RecordExistsError);
    expect((await log().recordOf(owner.id, first.id))?.id).toBe(first.id);
    expect(await log().recordOf(user(2).id, first.id)).toBeNull();
    clock += 2 * MINUTE;
    expect(await state()).toStrictEqual({ count: 1, pending: 0, day: { count: 1, applied: [] } });
  });

  test("when an append's settling half succeeds (its id released, its record still pending), then the next read does not count it again", async () => {
    // The record's mark is not cleared (lost reply); the day's note of it would be.
    await log(failOnce(requests, 'updateOne', 'updateMany'), days).append(record(1, owner.id, at()));
    clock += 2 * MINUTE;
    expect(await state()).toStrictEqual({ count: 1, pending: 0, day: { count: 1, applied: [] } });
  });

  test("when an append waits in its day's queue past the time a read may count its record, then it counts it no more", async () => {
    const held = gate();
    const slow = log(requests, holdFirst(days, 'updateOne', held, now));
    const appends = [slow.append(record(1, owner.id, at()))];
    await held.reached;
    // Queued behind the first in this process, once its record is written.
    appends.push(slow.append(record(2, owner.id, at())));
    await until(async () => (await requests.countDocuments({})) === 2);
    // Two minutes on, another instance's read finds both records uncounted, and counts them.
    clock += 2 * MINUTE;
    expect((await log().usage(owner.id)).count).toBe(2);
    held.open();
    await Promise.allSettled(appends);
    expect(await state()).toStrictEqual({ count: 2, pending: 0, day: { count: 2, applied: [] } });
  });

  test("when appends pile up behind a slow day's write, then those past the queue's bound do not wait, and a later read counts them", async () => {
    const held = gate();
    const slow = log(requests, holdFirst(days, 'updateOne', held, now));
    const first = slow.append(record(1, owner.id, at()));
    await held.reached;
    let returned = 0;
    const rest = Array.from({ length: 40 }, (_, i) =>
      slow.append(record(i + 2, owner.id, at())).then(() => void returned++),
    );
    // The queue holds the first and 7 more (whichever records are written first): the other 33
    // records are durable, their appends returned, their counts left to a read.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(returned).toBe(40 - (COUNTING.queueLimit - 1));
    held.open();
    await Promise.all([first, ...rest]);
    clock += 2 * MINUTE;
    expect(await state()).toStrictEqual({ count: 41, pending: 0, day: { count: 41, applied: [] } });
  }, 30_000);
});

/** The database as one instance sees it: some of its collections replaced by the test's handles. */
function instanceDb(db: Db, collections: Record<string, (real: Collection) => Collection>): Db {
  return new Proxy(db, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (key !== 'collection') return typeof value === 'function' ? (value as Call).bind(target) : value;
      return (name: string, ...rest: unknown[]) => {
        const real = target.collection(name, ...(rest as []));
        return collections[name]?.(real) ?? real;
      };
    },
  });
}

/** Counts the documents its finds hand out (`read.count`); past `diesAfter` of them the instance dies (its next read fails). */
function reading<T extends Document>(
  collection: Collection<T>,
  read: { count: number },
  diesAfter = Infinity,
): Collection<T> {
  const note = () => {
    if (++read.count > diesAfter) throw new MongoNetworkError('injected: the instance died');
  };
  const wrap = (cursor: FindCursor<T>): FindCursor<T> => {
    const proxy: FindCursor<T> = new Proxy(cursor, {
      get(target, key) {
        if (key === 'toArray')
          return async () => {
            const docs = await target.toArray();
            for (let i = 0; i < docs.length; i++) note();
            return docs;
          };
        if (key === Symbol.asyncIterator)
          return async function* () {
            for await (const doc of target) {
              note();
              yield doc;
            }
          };
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        // Chained calls (sort, limit, batchSize, project) go on through the proxy.
        return (...args: unknown[]) => {
          const result = (value as Call).apply(target, args);
          return result === target ? proxy : result;
        };
      },
    });
    return proxy;
  };
  return intercept(collection, { find: (real, args) => wrap(real(...args) as FindCursor<T>) });
}

/** A method whose first call is held until the gate opens. */
function holdOnce(held: Gate): (real: Call, args: unknown[]) => Promise<unknown> {
  let first = true;
  return async (real, args) => {
    if (first) {
      first = false;
      await held.wait();
    }
    return real(...args);
  };
}

/** Every write of the collection, the first held until the gate opens. */
function writesHeld<T extends Document>(collection: Collection<T>, held: Gate): Collection<T> {
  let first = true;
  const hold = async (real: Call, args: unknown[]) => {
    if (first) {
      first = false;
      await held.wait();
    }
    return real(...args);
  };
  return intercept(collection, { bulkWrite: hold, updateOne: hold, updateMany: hold });
}

describe.skipIf(servers.length === 0).each(servers)('the usage migration on %s', (_name, uri, flavor) => {
  let store: SearchedMongoStore;
  let clock: number;
  const now = () => clock;
  /** A claim lasts a minute; waiting instances look again every 20 ms. */
  const options = { now, leaseMs: MINUTE, pollMs: 20 };
  const owner = user(1);

  beforeEach(async () => {
    store = await openFreshMongoStore(uri, flavor);
    await store.users.create(owner);
    clock = Date.parse('2026-11-20T10:00:00.000Z');
  });
  afterEach(async () => {
    await dropAndClose(store);
  });

  /**
   * Records as the release before usage_days left them (no pending mark, no day counted), `perDay`
   * a day from 2022-01-01 on, costing 1, 2, 3, 1, …; and no marker.
   */
  async function recordsOfBefore(count: number, perDay = 1): Promise<void> {
    const first = Date.parse('2022-01-01T12:00:00.000Z');
    await store.db.collection(COLLECTIONS.requests).insertMany(
      Array.from({ length: count }, (_, i) => ({
        _id: `old-${String(i).padStart(6, '0')}` as never,
        userId: owner.id,
        requestMade: 'search_schools:old',
        timeMade: new Date(first + Math.floor(i / perDay) * 86_400_000 + (i % perDay) * 1000),
        cost: 1 + (i % 3),
      })),
    );
    await store.db.collection(COLLECTIONS.migrations).deleteMany({});
    await store.db.collection(COLLECTIONS.usageDays).deleteMany({});
  }

  /** What recordsOfBefore's records from the `from`th to before the `to`th cost together. */
  const costOf = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => 1 + ((from + i) % 3)).reduce((a, b) => a + b, 0);

  test('when two instances start at once, then one counts the records, the other waits for it and reads none, and a record counted after is kept', async () => {
    await recordsOfBefore(3);
    const held = gate();
    const readByA = { count: 0 };
    // B claims first; its first write of the counters is slow.
    const b = migrateUsage(
      instanceDb(store.db, { [COLLECTIONS.usageDays]: (real) => writesHeld(real, held) }),
      options,
    );
    await held.reached;
    const a = migrateUsage(instanceDb(store.db, { [COLLECTIONS.requests]: (real) => reading(real, readByA) }), options);
    // A serves once its start-up is done: a search made then is counted by its append.
    const appendOnceStarted = async () =>
      store.requests.append(record(4, owner.id, new Date('2022-01-02T18:00:00.000Z'), 5));
    const aStarted = await Promise.race([
      a.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 1000)),
    ]);
    if (aStarted) await appendOnceStarted();
    held.open();
    await Promise.all([a, b]);
    if (!aStarted) await appendOnceStarted();
    expect(await store.requests.usageByDay(owner.id, '2022-01-01', '2022-01-03')).toStrictEqual([
      { day: '2022-01-01', count: 1, cost: 1 },
      { day: '2022-01-02', count: 2, cost: 7 },
      { day: '2022-01-03', count: 1, cost: 3 },
    ]);
    expect(await store.requests.usage(owner.id)).toMatchObject({ count: 4, totalCost: 11 });
    expect(readByA.count).toBe(0);
  });

  test('when the instance counting the records dies half-way, then another takes over once its claim has lapsed and goes on from where it stopped', async () => {
    // 300 records, 10 a day; batches of 100. The first instance dies reading its third batch.
    await recordsOfBefore(300, 10);
    const batched = { ...options, batch: 100 };
    const first = { count: 0 };
    const died: unknown = await migrateUsage(
      instanceDb(store.db, { [COLLECTIONS.requests]: (real) => reading(real, first, 250) }),
      batched,
    ).catch((error: unknown) => error);
    expect(died).toBeInstanceOf(Error);
    clock += 2 * MINUTE;
    const second = { count: 0 };
    await migrateUsage(instanceDb(store.db, { [COLLECTIONS.requests]: (real) => reading(real, second) }), batched);
    // Not every record again: the batches the first instance finished stay done.
    expect(second.count).toBeLessThan(300);
    expect(await store.requests.usage(owner.id)).toMatchObject({ count: 300, totalCost: costOf(0, 300) });
    expect(await store.requests.usageByDay(owner.id, '2022-01-01', '2022-01-02')).toStrictEqual([
      { day: '2022-01-01', count: 10, cost: costOf(0, 10) },
      { day: '2022-01-02', count: 10, cost: costOf(10, 20) },
    ]);
    // Done for good: a third start reads nothing.
    const third = { count: 0 };
    await migrateUsage(instanceDb(store.db, { [COLLECTIONS.requests]: (real) => reading(real, third) }), batched);
    expect(third.count).toBe(0);
  });
});

describe('the retention purge, without a server', () => {
  test('then the records are found by time and the usage days by day, each from an index of its own', () => {
    expect(INDEXES.requests.some((i) => Object.keys(i.key)[0] === 'timeMade')).toBe(true);
    expect(INDEXES.usageDays.some((i) => Object.keys(i.key)[0] === 'day')).toBe(true);
  });

  test("then the usage days the chart can show are kept: as many as the contract's longest chart", async () => {
    const contract = parse(await readFile(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as {
      paths: Record<string, { get: { parameters: { name: string; schema: { maximum: number } }[] } }>;
    };
    const days = contract.paths['/v1/fetchMyUsage']!.get.parameters.find((p) => p.name === 'days')!;
    expect(LONGEST_USAGE_CHART_DAYS).toBe(days.schema.maximum);
  });
});

describe.skipIf(servers.length === 0).each(servers)('the retention purge on %s', (_name, uri, flavor) => {
  let store: SearchedMongoStore;
  let requests: Collection<RequestDocument>;
  let days: Collection<UsageDayDocument>;
  const now = () => Date.parse('2026-11-20T10:00:00.000Z');
  const log = (r = requests) => new MongoRequestLog(r, days, now, COUNTING, store.db.collection(COLLECTIONS.leases));

  beforeEach(async () => {
    store = await openFreshMongoStore(uri, flavor);
    requests = store.db.collection<RequestDocument>(COLLECTIONS.requests);
    days = store.db.collection<UsageDayDocument>(COLLECTIONS.usageDays);
  });
  afterEach(async () => {
    await dropAndClose(store);
  });

  /**
   * `perUser` records for each of `users` users, one a day from `firstDay` on, as appends leave
   * them once counted: the records, and their days' counters (written at once: FerretDB reads a
   * whole collection for each update whose filter is more than an _id, so 730 appends would take
   * minutes there).
   */
  async function searches(users: number, perUser: number, firstDay: string): Promise<void> {
    const first = Date.parse(`${firstDay}T12:00:00.000Z`);
    const made = Array.from({ length: users }, (_, u) =>
      Array.from({ length: perUser }, (_, i) =>
        record((u + 1) * 1000 + i, user(u + 1).id, new Date(first + i * 86_400_000), 1 + (i % 3)),
      ),
    ).flat();
    await requests.insertMany(
      made.map((r) => ({
        _id: r.id,
        userId: r.userId,
        requestMade: r.requestMade,
        timeMade: r.timeMade,
        cost: r.cost,
        day: r.timeMade.toISOString().slice(0, 10),
      })),
    );
    await days.insertMany(
      made.map((r) => {
        const day = r.timeMade.toISOString().slice(0, 10);
        return {
          _id: `${r.userId}|${day}`,
          userId: r.userId,
          day,
          count: 1,
          cost: r.cost,
          lastAt: r.timeMade,
          applied: [],
        };
      }),
    );
  }

  test('when two instances purge at once, then one does it and the other finds the purge taken', async () => {
    await searches(2, 5, '2026-11-10');
    const held = gate();
    const first = log(intercept(requests, { deleteMany: holdOnce(held) })).purgeBefore('2026-11-13');
    await held.reached;
    const deletes = { count: 0 };
    const second = await log(
      intercept(requests, {
        deleteMany: (real, args) => {
          deletes.count++;
          return real(...args);
        },
      }),
    ).purgeBefore('2026-11-13');
    held.open();
    expect({ second, deletes: deletes.count }).toStrictEqual({ second: 0, deletes: 0 });
    expect(await first).toBe(6);
    expect(await requests.countDocuments({ timeMade: { $lt: new Date('2026-11-13T00:00:00.000Z') } })).toBe(0);
  });

  test("when many users' records are old, then they go by time in a few bounded deletes, not one per user", async () => {
    await searches(30, 3, '2026-11-10');
    const deletes: unknown[] = [];
    const deleted = await log(
      intercept(requests, {
        deleteMany: (real, args) => {
          deletes.push(args[0]);
          return real(...args);
        },
      }),
    ).purgeBefore('2026-11-12');
    expect(deleted).toBe(60);
    expect(deletes).toHaveLength(1);
    expect(JSON.stringify(deletes[0])).not.toContain('userId');
  });

  // FerretDB's explain does not show MongoDB's planner; this runs where MONGODB_URI names MongoDB.
  test.skipIf(flavor === 'ferretdb')(
    "then MongoDB answers the purge's and the heal's queries from their indexes",
    async () => {
      await searches(3, 3, '2026-11-10');
      const plan = async (cursor: { explain(): Promise<Document> }) => JSON.stringify(await cursor.explain());
      const before = new Date('2026-11-12T00:00:00.000Z');
      expect(
        await plan(
          requests
            .find({ timeMade: { $lt: before } })
            .sort({ timeMade: 1 })
            .limit(1000),
        ),
      ).toContain('"indexName":"requests_by_time"');
      expect(
        await plan(
          days
            .find({ day: { $lt: '2026-11-12' } })
            .sort({ day: 1 })
            .limit(1000),
        ),
      ).toContain('"indexName":"usage_days_by_day"');
      expect(await plan(requests.find({ userId: user(1).id, pending: true, timeMade: { $lt: before } }))).toContain(
        '"indexName":"requests_pending_by_user"',
      );
    },
  );

  test("when usage days are older than the retention and the longest chart, then they are folded into the user's totals, which do not change", async () => {
    // 400 days of one search a day, up to yesterday: the 35 first are older than the chart's 366 days.
    await searches(1, 400, '2025-10-16');
    const owner = user(1).id;
    const before = await store.requests.usage(owner);
    const chart = await store.requests.usageByDay(owner, '2025-11-20', '2026-11-20');
    await log().purgeBefore('2026-11-13');
    // The chart's 366 days stay day by day; older days are one document per user.
    expect(await days.countDocuments({ day: { $lt: '2025-11-20' } })).toBe(0);
    expect(await days.countDocuments({})).toBe(365 + 1);
    expect(await store.requests.usage(owner)).toStrictEqual(before);
    expect(await store.requests.usageByDay(owner, '2025-11-20', '2026-11-20')).toStrictEqual(chart);
    // Again: nothing left to fold, nothing counted twice.
    await log().purgeBefore('2026-11-13');
    expect(await store.requests.usage(owner)).toStrictEqual(before);
  }, 60_000);
});
