// The store contract suite on the MongoDB adapter, on every wire-protocol server this run has:
// the MongoDB at MONGODB_URI (when set), and FerretDB v1 (when installed: .ci/run installs it).
import { inject } from 'vitest';
import type { Store } from '../../src/domain/ports.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';
import { FERRETDB_MISSING as FERRETDB_NOT_INSTALLED } from '../support/ferretdb.ts';
import { withMingoSearch } from '../support/mingo-search.ts';
import { dropAndClose, FERRETDB_MISSING, flavorOf, freshDatabaseName, mongoUriFromEnv, openFreshMongoStore, type Flavor } from '../support/mongodb.ts';
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
