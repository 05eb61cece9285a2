// The store contract suite on the MongoDB adapter, on every wire-protocol server this run has:
// the MongoDB at MONGODB_URI (when set), and FerretDB v1 (when installed: .ci/run installs it).
import { describe, expect, inject, test } from 'vitest';
import type { Store } from '../../src/domain/ports.ts';
import { COLLECTIONS, type SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';
import { FERRETDB_MISSING as FERRETDB_NOT_INSTALLED } from '../support/ferretdb.ts';
import { withMingoSearch } from '../support/mingo-search.ts';
import { dropAndClose, FERRETDB_MISSING, flavorOf, freshDatabaseName, mongoUriFromEnv, openFreshMongoStore, type Flavor } from '../support/mongodb.ts';
import { school } from './contract/builders.ts';
import { storeContractSuite } from './contract/suite.ts';
import type { StoreTarget } from './contract/target.ts';

/**
 * The adapter on a fresh database of this server. `view` wraps each opened store (the mingo
 * target answers the search itself); reopen closes the store and opens the same database again.
 */
function target(name: string, uri: string, flavor: Flavor, view?: (store: MongoStore) => Store): StoreTarget {
  const wrap = view ?? ((store: MongoStore): Store => store);
  return {
    name,
    // FerretDB cannot search, unless the view answers the search itself.
    ...(flavor === 'ferretdb' && view === undefined ? { missing: FERRETDB_MISSING } : {}),
    async create() {
      const database = freshDatabaseName();
      let store = await openFreshMongoStore(uri, flavor, database);
      let viewed = wrap(store);
      return {
        get store() {
          return viewed;
        },
        async reopen() {
          await store.close();
          store = await MongoStore.open({ uri, database, indexes: 'none' });
          viewed = wrap(store);
          return viewed;
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
    : unavailable('mongodb', 'MONGODB_URI is not set; the GitHub workflow and docker compose run this suite on MongoDB 8'),
);
storeContractSuite(ferretdb ? target('ferretdb v1.24', ferretdb, 'ferretdb') : unavailable('ferretdb v1.24', FERRETDB_NOT_INSTALLED));

// The search pipeline FerretDB cannot run, evaluated by mingo over the documents the adapter
// wrote to FerretDB (test/support/mingo-search.ts): the search part of the suite, on the
// adapter's documents and pipeline, though not on a MongoDB server.
storeContractSuite(
  ferretdb
    ? target('mongodb search pipeline (documents on ferretdb v1.24, pipeline run by mingo)', ferretdb, 'ferretdb', withMingoSearch)
    : unavailable('mongodb search pipeline (mingo)', FERRETDB_NOT_INSTALLED),
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
      const collection = store.db.collection<SchoolDocument>(COLLECTIONS.schools);
      const blind = new Proxy(collection, {
        get(target, key, receiver) {
          // find() of the batch sees none of the schools: as if read before the other import wrote.
          if (key === 'find') return () => ({ toArray: async () => [] });
          const value = Reflect.get(target, key, receiver) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const racing = new MongoSchoolStore(blind, { kind: 'text' });
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
});
