// MongoDB servers the tests can use, and stores on fresh databases of their own:
// - MONGODB_URI (a real MongoDB: the GitHub workflow's service container, docker compose, Atlas):
//   the store contract suite, and the API and security tests through startTestApp, run on it;
// - FerretDB v1 (started by test/support/global-setup.ts when installed): the contract suite
//   runs on it too; what FerretDB lacks (text indexes, TTL indexes) is left out of its indexes.
import { randomBytes } from 'node:crypto';
import { MongoClient, type Collection, type Document } from 'mongodb';
import { inject } from 'vitest';
import type { DerivedSearch } from '../../src/search/mongodb/search-fields.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { IndexCreationError } from '../../src/stores/mongodb/indexes.ts';
import { MongoStore } from '../../src/stores/mongodb/store.ts';

export type Flavor = 'mongodb' | 'ferretdb';

/** The MongoDB store as the composition root opens it: its schools carry the search wing's fields (its catalog extension). */
export type SearchedMongoStore = MongoStore<DerivedSearch>;

/**
 * Indexes FerretDB v1 refuses: the text index (no text indexes), the TTL clean-up (no
 * expireAfterSeconds) and the partial ones, pending records' and one key's records' (no
 * partialFilterExpression).
 */
const FERRETDB_REFUSED_INDEXES = new Set([
  'schools_tokens_text',
  'tokens_dead_ttl',
  'links_dead_ttl',
  'rate_limits_ttl',
  'requests_pending_by_user',
  'requests_by_key',
]);

/**
 * The MongoDB server the API and security tests run on, if any: MONGODB_URI, or with
 * TEST_STORE=ferretdb (`npm run test:ferretdb`) the run's FerretDB.
 */
export function mongoUriFromEnv(): string | undefined {
  if (process.env['TEST_STORE'] === 'ferretdb') {
    const uri = inject('ferretdbUri');
    if (!uri) throw new Error('TEST_STORE=ferretdb, but FerretDB is not installed (npm run ferretdb:setup)');
    return uri;
  }
  return process.env['MONGODB_URI'] || undefined;
}

/** A wire-protocol server a test file runs on: [title, URI, flavor]. */
export type MongoServer = [name: string, uri: string, flavor: Flavor];

/**
 * Every wire-protocol server this run has, for describe.each: FerretDB v1 (when installed) and
 * the server at MONGODB_URI (when set and not that FerretDB). Empty when there is none; the
 * caller says why it skips.
 */
export async function mongoServers(): Promise<MongoServer[]> {
  const ferretdb = inject('ferretdbUri');
  const uri = mongoUriFromEnv();
  return [
    ...(ferretdb ? [['ferretdb v1.24', ferretdb, 'ferretdb'] as MongoServer] : []),
    ...(uri && uri !== ferretdb
      ? [[`${await flavorOf(uri)} at MONGODB_URI`, uri, await flavorOf(uri)] as MongoServer]
      : []),
  ];
}

/** A database name no other test uses (MongoDB allows 63 characters; no dots). */
export function freshDatabaseName(): string {
  return `test_${process.pid}_${randomBytes(6).toString('hex')}`;
}

/** Per URI, once per test process: every test app asks, and each asking would open a connection. */
const flavors = new Map<string, Promise<Flavor>>();

/** FerretDB says so in buildInfo; MongoDB does not. */
export function flavorOf(uri: string): Promise<Flavor> {
  let flavor = flavors.get(uri);
  if (!flavor) {
    flavor = askFlavor(uri);
    flavors.set(uri, flavor);
  }
  return flavor;
}

async function askFlavor(uri: string): Promise<Flavor> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return 'ferretdbVersion' in info ? 'ferretdb' : 'mongodb';
  } finally {
    await client.close();
  }
}

/**
 * Opens the adapter on a fresh database, exactly as the API does (indexes created at open). On
 * FerretDB the indexes it cannot have are left out, and only those: any other refusal fails.
 */
export async function openFreshMongoStore(
  uri: string,
  flavor: Flavor,
  database = freshDatabaseName(),
  options: { allowMissingCollections?: boolean } = {},
): Promise<SearchedMongoStore> {
  const extension = SEARCH_EXTENSION;
  if (flavor === 'mongodb') return MongoStore.open({ uri, database, extension, ...options });
  const store = await MongoStore.open({ uri, database, extension, indexes: 'none', ...options });
  try {
    await store.createIndexes();
  } catch (error) {
    if (!(error instanceof IndexCreationError) || error.failures.some((f) => !FERRETDB_REFUSED_INDEXES.has(f.index))) {
      await store.close();
      throw error;
    }
  }
  return store;
}

/** Drops the store's database and closes it. */
export async function dropAndClose(store: MongoStore<object> | SearchedMongoStore): Promise<void> {
  try {
    await store.db.dropDatabase();
  } finally {
    await store.close();
  }
}

/** A collection method as intercept hands it over: the real one, bound to the collection. */
export type Call = (...args: unknown[]) => unknown;

/**
 * The collection, with some of its methods replaced: each override gets the real method and the
 * arguments. What the tests make interleavings with: a call that waits, fails or sees nothing.
 */
export function intercept<T extends Document>(
  collection: Collection<T>,
  overrides: Record<string, (real: Call, args: unknown[]) => unknown>,
): Collection<T> {
  return new Proxy(collection, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      const real = (value as Call).bind(target);
      const override = typeof key === 'string' ? overrides[key] : undefined;
      return override ? (...args: unknown[]) => override(real, args) : real;
    },
  });
}
