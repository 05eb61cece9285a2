// The store contract suite on the MongoDB adapter, on every wire-protocol server this run has:
// the MongoDB at MONGODB_URI (when set), and FerretDB v1 (when installed: .ci/run installs it).
import { MongoClient } from 'mongodb';
import { describe, expect, inject, test } from 'vitest';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { toDocument, type CatalogDocument, type SchoolDocument } from '../../src/mongodb-shared/school-document.ts';
import { catalogReads, MongoStore } from '../../src/stores/mongodb/store.ts';
import { STALE_PENDING_MS } from '../../src/stores/mongodb/request.store.ts';
import { migrateUsage } from '../../src/stores/mongodb/usage.migration.ts';
import { SEARCH_FIELDS_VERSION, type SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { upgradeSearchFields } from '../../src/search/mongodb/search-fields.migration.ts';
import { searchReady } from '../../src/search/mongodb/setup.ts';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import { FERRETDB_MISSING as FERRETDB_NOT_INSTALLED } from '../../scripts/ferretdb/server.ts';
import {
  dropAndClose,
  flavorOf,
  freshDatabaseName,
  intercept,
  mongoUriFromEnv,
  openFreshMongoStore,
  type Flavor,
} from '../support/mongodb.ts';
import { record, recordId, school, user } from '../support/builders.ts';
import { readWholeCatalog } from '../support/catalog-read.ts';
import { storeContractSuite } from './contract/suite.ts';
import type { StoreTarget } from './contract/target.ts';

/** The adapter on a fresh database of this server; reopen closes the store and opens the same database again. */
function target(name: string, uri: string, flavor: Flavor): StoreTarget {
  return {
    name,
    async create() {
      const database = freshDatabaseName();
      let store = await openFreshMongoStore(uri, flavor, database);
      return {
        get store() {
          return store;
        },
        async reopen() {
          await store.close();
          store = await MongoStore.open({ uri, database, extension: SEARCH_EXTENSION, indexes: 'none' });
          return store;
        },
        dispose: () => dropAndClose(store),
      };
    },
  };
}

const unavailable = (name: string, reason: string): StoreTarget => ({
  name,
  unavailable: reason,
  create: () => Promise.reject(new Error(reason)),
});

const uri = mongoUriFromEnv();
const ferretdb = inject('ferretdbUri');

const flavor = uri ? await flavorOf(uri) : undefined;

storeContractSuite(
  uri && flavor
    ? target(`mongodb (${flavor} at MONGODB_URI)`, uri, flavor)
    : unavailable(
        'mongodb',
        'MONGODB_URI is not set; the GitHub workflow and docker compose run this suite on MongoDB 8',
      ),
);
storeContractSuite(
  ferretdb ? target('ferretdb v1.24', ferretdb, 'ferretdb') : unavailable('ferretdb v1.24', FERRETDB_NOT_INSTALLED),
);

// An import reads each batch before it writes it; another import may write the same school in
// between. Simulated by a collection whose read finds nothing: the insert collides, and the
// school must end up replaced by this import's row, not fail the import.
describe.each(
  [
    uri && flavor ? { name: `mongodb (${flavor} at MONGODB_URI)`, uri, flavor } : undefined,
    ferretdb ? { name: 'ferretdb v1.24', uri: ferretdb, flavor: 'ferretdb' as const } : undefined,
  ].filter((s) => s !== undefined),
)('MongoSchoolStore.upsertMany on $name', ({ uri: serverUri, flavor: serverFlavor }) => {
  test('when another import wrote a school after this batch read it, then this import replaces it', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const first = school('Racing College', { city: 'Before', key: 'race:1' });
      await store.schools.upsertMany([first]);
      const collection = store.db.collection<SearchedSchool>(COLLECTIONS.schools);
      // find() of the batch sees none of the schools: as if read before the other import wrote.
      const blind = intercept(collection, { find: () => ({ toArray: async () => [] }) });
      const racing = new MongoSchoolStore(
        blind,
        store.db.collection<CatalogDocument>(COLLECTIONS.catalog),
        SEARCH_EXTENSION,
      );
      const second = school('Racing College', { city: 'After', key: 'race:1' });
      const fresh = school('Other College');
      expect(await racing.upsertMany([second, fresh])).toStrictEqual({ inserted: 2, updated: 0, unchanged: 0 });
      expect(await store.schools.findById(first.id)).toMatchObject({ city: 'After' });
      expect(await store.schools.findById(fresh.id)).toMatchObject({ name: 'Other College' });
      expect(await store.schools.count()).toBe(2);
    } finally {
      await dropAndClose(store);
    }
  });

  // Issue 26, finding 6: the in-process index is built from the catalog as the server sends it,
  // a batch at a time: nothing holds the catalog whole (what that cost at a million schools:
  // docs/performance.md, "What MongoDB adds").
  test("when the catalog is more than one of the server's batches, then each is handed over before the server is asked for the next", async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    const watching = new MongoClient(serverUri, { monitorCommands: true });
    try {
      await store.db.collection<SearchedSchool>(COLLECTIONS.schools).insertMany(
        Array.from({ length: 4_001 }, (_, i) => ({
          ...toDocument(school(`Streamed Academy ${i}`), SEARCH_EXTENSION),
          // The read projects the search fields away: they need not be real here.
          tokens: [],
        })),
      );
      let getMores = 0;
      watching.on('commandStarted', (event) => {
        if (event.commandName === 'getMore') getMores++;
      });
      const db = watching.db(store.db.databaseName);
      const watched = new MongoSchoolStore(
        db.collection<SearchedSchool>(COLLECTIONS.schools),
        db.collection<CatalogDocument>(COLLECTIONS.catalog),
        SEARCH_EXTENSION,
      );
      const batches: { schools: number; getMores: number }[] = [];
      for await (const chunk of watched.readCatalog())
        if (chunk.kind === 'schools') batches.push({ schools: chunk.schools.length, getMores });
      expect(batches.map((b) => b.getMores)).toEqual([0, 1, 2]);
      expect(batches.reduce((n, b) => n + b.schools, 0)).toBe(4_001);
    } finally {
      await watching.close();
      await dropAndClose(store);
    }
  });

  // Rule 9 of the search on MongoDB: an API instance sees an import made through another
  // connection (another instance, the command line) within seconds. Two connections here stand
  // in for two processes; the process test on the embedded store is test/main/freshness.test.ts.
  test('when documents were written by an earlier version, then readiness says so, and an import (counting them updated) or `indexes` rewrites their search fields', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const old = [
        school('Old Academy', { key: 'old:1' }),
        school('Older Academy', { key: 'old:2', latitude: 45.5, longitude: -73.6 }),
        school('Oldest Academy', { key: 'old:3' }),
      ];
      await store.schools.upsertMany(old);
      const collection = store.db.collection(COLLECTIONS.schools);
      // As the version before the search fields wrote them (and before geo and updatedAt).
      await collection.updateMany(
        {},
        {
          $unset: { tokens: '', search: '', searchVersion: '', geo: '', updatedAt: '' },
          $set: { texts: [{ grams: ['ol'], terms: ['old'], length: 3 }] },
        },
      );
      // One of them has a time of change already: a rewrite of its search fields keeps it.
      const changedAt = new Date('2026-01-02T03:04:05.000Z');
      await collection.updateOne({ _id: old[2]!.id as never }, { $set: { updatedAt: changedAt } });
      const before = new Date();
      const unready: unknown = await searchReady(store.catalog.schools, { kind: 'text' }).catch((e: unknown) => e);
      expect(unready).toBeInstanceOf(StoreUnavailableError);
      expect(String(((unready as Error).cause as Error)?.message)).toMatch(/text index|earlier version/);
      // The same rows again: updated (their search fields changed), and the first one's are current now.
      expect(await store.schools.upsertMany([old[0]!])).toEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect(await collection.countDocuments({ searchVersion: SEARCH_FIELDS_VERSION })).toBe(1);
      expect(await upgradeSearchFields(store.catalog)).toBe(2);
      expect(await upgradeSearchFields(store.catalog)).toBe(0);
      const docs = await collection.find({}).toArray();
      expect(
        docs.every(
          (d) => d['searchVersion'] === SEARCH_FIELDS_VERSION && Array.isArray(d['tokens']) && !('texts' in d),
        ),
      ).toBe(true);
      expect(docs.find((d) => d['name'] === 'Older Academy')?.['tokens']).toContain('maolder');
      // Version 3: the point Atlas Search maps, and a time of change for the record (none was kept before).
      expect(docs.find((d) => d['name'] === 'Older Academy')?.['geo']).toEqual({
        type: 'Point',
        coordinates: [-73.6, 45.5],
      });
      expect(docs.filter((d) => 'geo' in d)).toHaveLength(1);
      for (const s of old.slice(0, 2)) {
        const record = await store.schools.findRecord(s.id);
        expect(record?.updatedAt.getTime(), s.name).toBeGreaterThanOrEqual(before.getTime());
      }
      expect((await store.schools.findRecord(old[2]!.id))?.updatedAt).toEqual(changedAt);
    } finally {
      await dropAndClose(store);
    }
  });

  test('when an unchanged school is imported again after the search rules changed, then its search fields are derived again and it counts as updated', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const older = school('Older Academy');
      await store.schools.upsertMany([older]);
      const collection = store.db.collection(COLLECTIONS.schools);
      const derived = await collection.findOne({ _id: older.id as never });
      // As an earlier version of the normalisation left it: other tokens, an older version.
      await collection.updateOne(
        { _id: older.id as never },
        { $set: { tokens: ['stale'], searchVersion: SEARCH_FIELDS_VERSION - 1 } },
      );
      const version = await store.schools.catalogVersion();
      expect(await store.schools.compareMany([older])).toStrictEqual({ inserted: 0, updated: 1, unchanged: 0 });
      expect(await store.schools.upsertMany([older])).toStrictEqual({ inserted: 0, updated: 1, unchanged: 0 });
      const again = await collection.findOne({ _id: older.id as never });
      expect(again?.['searchVersion']).toBe(SEARCH_FIELDS_VERSION);
      expect(again?.['tokens']).toStrictEqual(derived?.['tokens']);
      // The school itself did not change: its time of change stays.
      expect(again?.['updatedAt']).toEqual(derived?.['updatedAt']);
      expect(await store.schools.catalogVersion()).not.toBe(version);
      expect(await store.schools.upsertMany([older])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 1 });
    } finally {
      await dropAndClose(store);
    }
  });

  test("when documents hold version 3's tokens (each twice: the catalog's and the state's), then `indexes` rewrites them with each token once, behind the state", async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const schools = [school('Lakeside Academy'), school('Harbor High School', { stateprovince: 'TX' })];
      await store.schools.upsertMany(schools);
      const collection = store.db.collection<SearchedSchool>(COLLECTIONS.schools);
      const current = await collection.find({}, { sort: { _id: 1 } }).toArray();
      // As version 3 wrote them: every token behind `0` for the catalog, and again behind the state.
      for (const doc of current) {
        const twice = doc.tokens.flatMap((t) => [`0${t.slice(2)}`, t]);
        await collection.updateOne({ _id: doc._id }, { $set: { tokens: twice, searchVersion: 3 } });
      }
      const unready: unknown = await searchReady(store.catalog.schools, { kind: 'text' }).catch((e: unknown) => e);
      expect(unready).toBeInstanceOf(StoreUnavailableError);
      expect(await upgradeSearchFields(store.catalog)).toBe(2);
      const rewritten = await collection.find({}, { sort: { _id: 1 } }).toArray();
      expect(rewritten.map((d) => [d.searchVersion, d.tokens])).toStrictEqual(
        current.map((d) => [SEARCH_FIELDS_VERSION, d.tokens]),
      );
      expect(rewritten.flatMap((d) => d.tokens).filter((t) => t.startsWith('0'))).toEqual([]);
      expect(rewritten.find((d) => d.state === 'TX')?.tokens).toContain('txharbor');
    } finally {
      await dropAndClose(store);
    }
  });

  test('when the catalog is read for serving, then it may come from a fresh enough secondary, and everything else from the primary', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    const client = new MongoClient(serverUri);
    try {
      const reads = catalogReads(client, store.db);
      for (const collection of [reads.schools, reads.catalog]) {
        expect(collection.readPreference?.mode).toBe('secondaryPreferred');
        expect(collection.readPreference?.maxStalenessSeconds).toBe(90);
        expect(collection.readConcern?.level).toBe('majority');
      }
      for (const name of [
        COLLECTIONS.schools,
        COLLECTIONS.tokens,
        COLLECTIONS.users,
        COLLECTIONS.requests,
        COLLECTIONS.usageDays,
        COLLECTIONS.quotas,
      ]) {
        expect(store.db.collection(name).readPreference?.mode).toBe('primary');
      }
    } finally {
      await client.close();
      await dropAndClose(store);
    }
  });

  test('when a school store serves from other collections than it imports into, then searches, a school, the version and the catalog come from those, and imports go to the primary', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    const replica = store.db.client.db(`${store.db.databaseName}_r`);
    try {
      const served = new MongoSchoolStore(
        store.db.collection<SearchedSchool>(COLLECTIONS.schools),
        store.db.collection<CatalogDocument>(COLLECTIONS.catalog),
        SEARCH_EXTENSION,
        {
          schools: replica.collection<SchoolDocument>(COLLECTIONS.schools),
          catalog: replica.collection<CatalogDocument>(COLLECTIONS.catalog),
          session: () => store.db.client.startSession({ causalConsistency: true }),
        },
      );
      // The "secondary" holds one school at version 7; the import writes another to the primary.
      const onReplica = school('Replica College');
      await new MongoSchoolStore(
        replica.collection<SearchedSchool>(COLLECTIONS.schools),
        replica.collection<CatalogDocument>(COLLECTIONS.catalog),
        SEARCH_EXTENSION,
      ).upsertMany([onReplica]);
      await replica
        .collection<CatalogDocument>(COLLECTIONS.catalog)
        .updateOne({ _id: 'schools' }, { $set: { version: 7 } });
      const imported = school('Primary University');
      expect(await served.upsertMany([imported])).toStrictEqual({ inserted: 1, updated: 0, unchanged: 0 });
      expect(await served.compareMany([imported])).toStrictEqual({ inserted: 0, updated: 0, unchanged: 1 });
      expect(await served.findById(onReplica.id)).not.toBeNull();
      // Not on the serving member yet: with sessions (a replica set), the primary says (issue 43, M1).
      expect((await served.findById(imported.id))?.name).toBe('Primary University');
      expect(await served.count()).toBe(1);
      expect((await served.catalog.aggregate([{ $project: { name: 1 } }])).map((d) => d['name'])).toStrictEqual([
        'Replica College',
      ]);
      expect(await served.catalogVersion()).toBe('7');
      const read = await readWholeCatalog(served);
      expect(read.version).toBe('7');
      expect(read.schools.map((s) => s.name)).toStrictEqual(['Replica College']);
      expect(await store.schools.findById(imported.id)).not.toBeNull();
    } finally {
      await replica.dropDatabase();
      await dropAndClose(store);
    }
  });

  test('when request records were written before the usage counters existed, then the migration counts them once, with or without their day', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const owner = user(1);
      await store.users.create(owner);
      const requests = store.db.collection(COLLECTIONS.requests);
      const old = (n: number, iso: string, cost: number, day?: string) =>
        requests.insertOne({
          _id: recordId(n) as never,
          userId: owner.id,
          requestMade: 'search_schools:old',
          timeMade: new Date(iso),
          cost,
          ...(day ? { day } : {}),
        });
      await old(1, '2026-11-20T10:00:00.000Z', 2, '2026-11-20');
      await old(2, '2026-11-20T11:00:00.000Z', 3);
      await old(3, '2026-11-21T11:00:00.000Z', 1);
      // The database as the release before the counters left it: records, no days, no marker.
      await store.db.collection(COLLECTIONS.migrations).deleteMany({});
      await migrateUsage(store.db);
      await migrateUsage(store.db); // a no-op: the marker says it ran
      expect(await store.requests.usageByDay(owner.id, '2026-11-20', '2026-11-21')).toStrictEqual([
        { day: '2026-11-20', count: 2, cost: 5 },
        { day: '2026-11-21', count: 1, cost: 1 },
      ]);
      expect(await store.requests.usage(owner.id)).toStrictEqual({
        count: 3,
        totalCost: 6,
        lastAt: new Date('2026-11-21T11:00:00.000Z'),
      });
      // Appends after it add to the days it made.
      await store.requests.append(record(4, owner.id, new Date('2026-11-21T12:00:00.000Z'), 4));
      expect((await store.requests.list(owner.id, { offset: 0, limit: 10 })).total).toBe(4);
      expect(await store.requests.usageByDay(owner.id, '2026-11-21', '2026-11-21')).toStrictEqual([
        { day: '2026-11-21', count: 2, cost: 5 },
      ]);
    } finally {
      await dropAndClose(store);
    }
  });

  test('when an append stopped after its record was written, then the next read counts it once, whether or not its day had counted it', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const owner = user(1);
      await store.users.create(owner);
      await store.requests.append(record(1, owner.id, new Date('2026-11-20T10:00:00.000Z'), 1));
      const requests = store.db.collection(COLLECTIONS.requests);
      const days = store.db.collection(COLLECTIONS.usageDays);
      // Stopped after step 1 (written, pending, not counted)...
      await requests.insertOne({
        _id: recordId(2) as never,
        userId: owner.id,
        requestMade: 'search_schools:a',
        timeMade: new Date('2026-11-20T11:00:00.000Z'),
        cost: 2,
        day: '2026-11-20',
        pending: true,
      });
      // ...and after step 2 (counted, still pending and noted in the day).
      await requests.insertOne({
        _id: recordId(3) as never,
        userId: owner.id,
        requestMade: 'search_schools:b',
        timeMade: new Date('2026-11-20T12:00:00.000Z'),
        cost: 4,
        day: '2026-11-20',
        pending: true,
      });
      await days.updateOne(
        { _id: `${owner.id}|2026-11-20` as never },
        {
          $inc: { count: 1, cost: 4 },
          $max: { lastAt: new Date('2026-11-20T12:00:00.000Z') },
          $push: { applied: recordId(3) } as never,
        },
      );
      const expected = { count: 3, totalCost: 7, lastAt: new Date('2026-11-20T12:00:00.000Z') };
      expect(await store.requests.usage(owner.id)).toStrictEqual(expected);
      expect(await store.requests.usage(owner.id)).toStrictEqual(expected);
      expect((await store.requests.list(owner.id, { offset: 0, limit: 10 })).total).toBe(3);
      expect(await requests.countDocuments({ pending: true })).toBe(0);
      expect(await days.findOne({ _id: `${owner.id}|2026-11-20` as never })).toMatchObject({
        count: 3,
        cost: 7,
        applied: [],
      });
    } finally {
      await dropAndClose(store);
    }
  });

  test('when an append is still under way, then a read leaves its record to it: counted once', async () => {
    const store = await openFreshMongoStore(serverUri, serverFlavor);
    try {
      const owner = user(1);
      await store.users.create(owner);
      const now = new Date();
      await store.db.collection(COLLECTIONS.requests).insertOne({
        _id: recordId(1) as never,
        userId: owner.id,
        requestMade: 'search_schools:a',
        timeMade: now,
        cost: 1,
        day: now.toISOString().slice(0, 10),
        pending: true,
      });
      expect((await store.requests.usage(owner.id)).count).toBe(0);
      expect(now.getTime() + STALE_PENDING_MS).toBeGreaterThan(Date.now());
    } finally {
      await dropAndClose(store);
    }
  });

  test('when another connection imports, then the engine of this one finds the schools within 5 s', async () => {
    const database = freshDatabaseName();
    const api = await openFreshMongoStore(serverUri, serverFlavor, database);
    const cli = await MongoStore.open({
      uri: serverUri,
      database,
      extension: SEARCH_EXTENSION,
      indexes: 'none',
    });
    const engine = new MemorySearchEngine(api.schools, { refreshMs: 200 });
    try {
      await engine.start();
      const find = async () =>
        (await engine.search({ plan: planQuery('zanzibar'), offset: 0, limit: 5 })).hits.map((h) => h.school.name);
      expect(await find()).toEqual([]);
      await cli.schools.upsertMany([school('Zanzibar Institute of Technology')]);
      const started = performance.now();
      while ((await find()).length === 0 && performance.now() - started < 5000)
        await new Promise((r) => setTimeout(r, 50));
      expect(await find()).toEqual(['Zanzibar Institute of Technology']);
    } finally {
      engine.close();
      await cli.close();
      await dropAndClose(api);
    }
  });
});
