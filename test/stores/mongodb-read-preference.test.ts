// Where each read of the MongoDB adapter may be answered, on a replica set: the catalog served
// (searches, a school, the version poll, the catalog the index is built from) from a fresh
// enough secondary; imports, their reads before writing, readiness's checks, tokens, users,
// request records, usage and quotas from the primary.
//
// FerretDB (and the CI's MongoDB) is one node: no secondary answers, and a direct connection
// sends no $readPreference to watch. So this watches the driver's own objects instead: every
// Collection method the stores call is spied on, and each call's collection and the read
// preference the driver resolves it with (the call's option, else the collection's) are
// recorded, while the real services and stores run against the server.
import { Collection, type ClientSession, type ReadPreference } from 'mongodb';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi, type MockInstance } from 'vitest';
import { planQuery } from '../../src/domain/search/query.ts';
import { searchSource } from '../../src/search/mongodb/engines.ts';
import { upgradeSearchFields } from '../../src/search/mongodb/search-fields.migration.ts';
import { searchReady } from '../../src/search/mongodb/setup.ts';
import { createServices } from '../../src/composition/services.ts';
import { COLLECTIONS } from '../../src/stores/mongodb/documents.ts';
import { cheapHasher } from '../support/app.ts';
import { FERRETDB_MISSING } from '../../scripts/ferretdb/server.ts';
import {
  dropAndClose,
  type MongoServer,
  mongoServers,
  openFreshMongoStore,
  type SearchedMongoStore,
} from '../support/mongodb.ts';
import { school } from '../support/builders.ts';
import { readWholeCatalog } from '../support/catalog-read.ts';

const servers = await mongoServers();
const none = servers.length === 0;
if (none) console.warn(`MongoDB read preferences — skipped: ${FERRETDB_MISSING}, and MONGODB_URI is not set`);

/** Where a method takes its options (the read preference, a session): after the filter or pipeline, or first. */
const OPTIONS_AT: Record<string, number> = {
  find: 1,
  findOne: 1,
  countDocuments: 1,
  aggregate: 1,
  distinct: 2,
  listIndexes: 0,
  listSearchIndexes: 1,
  estimatedDocumentCount: 0,
  insertOne: 1,
  insertMany: 1,
  bulkWrite: 1,
  updateOne: 2,
  updateMany: 2,
  replaceOne: 2,
  findOneAndUpdate: 2,
  findOneAndReplace: 2,
  findOneAndDelete: 1,
  deleteOne: 1,
  deleteMany: 1,
};
const READS = new Set([
  'find',
  'findOne',
  'countDocuments',
  'aggregate',
  'distinct',
  'listIndexes',
  'listSearchIndexes',
  'estimatedDocumentCount',
]);

interface Call {
  collection: string;
  method: string;
  read: boolean;
  mode: string | undefined;
  readConcern: string | undefined;
  /** The call's own read concern, which wins over the collection's. */
  readConcernOption: string | undefined;
  session: ClientSession | undefined;
}

describe.skipIf(none).each(none ? [['no server', '', 'ferretdb'] as MongoServer] : servers)(
  'MongoDB read preferences on %s',
  (_name, serverUri, flavor) => {
    let store: SearchedMongoStore;
    const spies: Array<[string, MockInstance]> = [];
    beforeAll(async () => {
      store = await openFreshMongoStore(serverUri, flavor);
      for (const method of Object.keys(OPTIONS_AT))
        spies.push([method, vi.spyOn(Collection.prototype as never, method as never)]);
    });
    afterEach(() => {
      for (const [, spy] of spies) spy.mockClear();
    });
    afterAll(async () => {
      vi.restoreAllMocks();
      await dropAndClose(store);
    });

    /** The calls `work` made, a driver-internal call of one method by another (findOne → find) once. */
    async function calls(work: () => Promise<unknown>): Promise<Call[]> {
      for (const [, spy] of spies) spy.mockClear();
      await work();
      const made: Call[] = [];
      for (const [method, spy] of spies) {
        spy.mock.calls.forEach((args, i) => {
          const collection = spy.mock.contexts[i] as Collection;
          const options = (args as unknown[])[OPTIONS_AT[method]!] as
            | { readPreference?: ReadPreference; session?: ClientSession; readConcern?: { level?: string } }
            | undefined;
          made.push({
            collection: collection.collectionName,
            method,
            read: READS.has(method),
            mode: (options?.readPreference ?? collection.readPreference)?.mode,
            readConcern: collection.readConcern?.level,
            readConcernOption: options?.readConcern?.level,
            session: options?.session,
          });
        });
      }
      return made;
    }

    test('when the catalog is served (the index built, a school, the count, the version, a search pipeline), then every read may go to a fresh enough secondary, with majority reads', async () => {
      await store.schools.upsertMany([school('Served Academy'), school('Served College')]);
      const services = createServices({ store, hasher: cheapHasher, tokenTtlSeconds: 3600, search: { refreshMs: 0 } });
      try {
        const made = await calls(async () => {
          await services.engine.start();
          await services.engine.search({ plan: planQuery('served'), stateCode: undefined, offset: 0, limit: 10 });
          await store.schools.findById(school('Served Academy').id);
          await store.schools.count();
          await store.schools.catalogVersion();
          await store.catalog.aggregate([{ $match: { name: 'Served Academy' } }]);
        });
        const reads = made.filter((c) => c.read);
        expect(new Set(reads.map((c) => c.collection))).toStrictEqual(
          new Set([COLLECTIONS.schools, COLLECTIONS.catalog]),
        );
        expect(new Set(reads.map((c) => c.method))).toStrictEqual(
          new Set(['find', 'findOne', 'countDocuments', 'aggregate']),
        );
        for (const call of made)
          expect(call).toMatchObject({ read: true, mode: 'secondaryPreferred', readConcern: 'majority' });
      } finally {
        services.engine.close();
      }
    });

    test('when the catalog is read whole, then the version before, the schools and the version after are read in one causally consistent session', async () => {
      const made = await calls(() => readWholeCatalog(store.schools));
      // findOne is find with a limit inside the driver: the catalog's two findOne, the schools' find.
      const byCollection = made.filter((c) => c.method !== 'find' || c.collection === COLLECTIONS.schools);
      expect(byCollection.map((c) => `${c.collection}.${c.method}`).sort()).toStrictEqual(
        [`${COLLECTIONS.schools}.find`, `${COLLECTIONS.catalog}.findOne`, `${COLLECTIONS.catalog}.findOne`].sort(),
      );
      const sessions = new Set(made.map((c) => c.session));
      expect(sessions.size).toBe(1);
      const [session] = sessions;
      expect(session?.supports.causalConsistency).toBe(true);
      for (const call of made) expect(call).toMatchObject({ mode: 'secondaryPreferred', readConcern: 'majority' });
    });

    test('when search pipelines run, then Atlas Search stages with read concern local and no session (mongod refuses any other read concern for them), $text ones in a causally consistent session', async () => {
      // Through the search wing's source, as the engines run them: the wing says which pipelines
      // read `local` (the port's PipelineReads: src/mongodb-shared/catalog.port.ts), the store's served catalog reads them so.
      const atlasSource = searchSource(store.catalog, { kind: 'atlas', index: 'schools_search' });
      const textSource = searchSource(store.catalog, { kind: 'text' });
      const made = await calls(async () => {
        // FerretDB has no Atlas Search: the call is what is watched, not its answer.
        await atlasSource
          .aggregate([{ $searchMeta: { index: 'schools_search', exists: { path: 'name' } } }])
          .catch(() => undefined);
        await textSource.aggregate([{ $match: { name: 'Served Academy' } }, { $limit: 1 }]);
      });
      const [atlas, text] = made.filter((c) => c.method === 'aggregate');
      expect(atlas).toMatchObject({ mode: 'secondaryPreferred', readConcernOption: 'local', session: undefined });
      expect(text).toMatchObject({ mode: 'secondaryPreferred', readConcern: 'majority', readConcernOption: undefined });
      expect(text!.session?.supports.causalConsistency).toBe(true);
    });

    test('when schools are imported, compared, upgraded or checked for readiness, then every read goes to the primary', async () => {
      const changed = { ...school('Served Academy'), city: 'Elsewhere' };
      const made = await calls(async () => {
        await store.schools.compareMany([changed]);
        await store.schools.upsertMany([changed, school('Imported Institute')]);
        await upgradeSearchFields(store.catalog);
        // FerretDB holds no text index: not ready, which is beside the point here.
        await searchReady(store.catalog.schools, { kind: 'text' }).catch(() => undefined);
      });
      expect(made.filter((c) => c.read).map((c) => c.method)).toEqual(expect.arrayContaining(['find', 'listIndexes']));
      expect(made.filter((c) => !c.read).map((c) => c.method)).toEqual(
        expect.arrayContaining(['bulkWrite', 'updateOne']),
      );
      for (const call of made) expect(call, `${call.collection}.${call.method}`).toMatchObject({ mode: 'primary' });
    });

    test('when users sign up and log in, tokens are checked and revoked, searches are recorded and history, usage and quotas are read, then every read goes to the primary', async () => {
      await store.schools.upsertMany([school('Recorded University')]);
      const services = createServices({ store, hasher: cheapHasher, tokenTtlSeconds: 3600, search: { refreshMs: 0 } });
      await services.engine.start();
      try {
        const made = await calls(async () => {
          await services.auth.createUser('reader@example.com', 'correct-horse-battery');
          const issued = await services.auth.login('reader@example.com', 'correct-horse-battery');
          const principal = await services.auth.authenticate(issued.value);
          await services.auth.listTokens(principal);
          await services.search.search(principal, { query: 'recorded', offset: 0, limit: 10 });
          await services.account.account(principal);
          await services.account.history(principal, { offset: 0, limit: 10 });
          await services.account.usageByDay(principal, 7);
          await store.quotas.hit('reader', 60_000);
          await store.quotas.get('reader');
          await services.auth.revokeCurrent(principal);
          await services.auth.authenticate(issued.value).catch(() => undefined);
        });
        expect(new Set(made.map((c) => c.collection))).toStrictEqual(
          new Set([
            COLLECTIONS.users,
            COLLECTIONS.tokens,
            COLLECTIONS.requests,
            COLLECTIONS.usageDays,
            COLLECTIONS.quotas,
          ]),
        );
        for (const call of made) expect(call, `${call.collection}.${call.method}`).toMatchObject({ mode: 'primary' });
      } finally {
        services.engine.close();
      }
    });
  },
);
