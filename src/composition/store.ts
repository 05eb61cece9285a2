// Picks the store adapter the configuration names, and hands the MongoDB store the search wing's
// side of their port (the search fields it writes with every school): the one place that knows both.
import { existsSync } from 'node:fs';
import type { Store } from '../domain/ports.ts';
import { SCHOOL_SEARCH_FIELDS } from '../search/mongodb/search.indexes.ts';
import { verifySearchSetup } from '../search/mongodb/setup.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import { SqliteStore } from '../stores/sqlite/store.ts';
import type { StoreConfig, StoreWarning } from '../stores/store.config.ts';

/**
 * `warn`: where a store reports what it repaired by itself (the embedded store's lost quota
 * counters file), or waits for at open (MongoDB: another instance filling the usage counters).
 * With MONGODB_SEARCH=atlas, a store whose Atlas Search index is missing or building is refused.
 */
export async function openStore(config: StoreConfig, options: { warn?: StoreWarning } = {}): Promise<Store> {
  if (config.kind !== 'mongodb')
    return SqliteStore.open({ path: config.path, ...(options.warn ? { warn: options.warn } : {}) });
  const store = await MongoStore.open({
    uri: config.uri,
    searchFields: SCHOOL_SEARCH_FIELDS,
    allowMissingCollections: config.allowMissingCollections ?? false,
    warn: options.warn,
  });
  if (config.search.kind === 'memory') return store;
  try {
    await verifySearchSetup(store.schools, config.search);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/**
 * The store for a look that writes no school (an import's dry run): null when the embedded
 * store's file does not exist yet, as opening it would create it; MongoDB without creating
 * indexes. An embedded store of an older version is still brought up to date, as by any command.
 */
export function openExistingStore(config: StoreConfig): Promise<Store | null> {
  if (config.kind === 'mongodb')
    return MongoStore.open({ uri: config.uri, searchFields: SCHOOL_SEARCH_FIELDS, indexes: 'none' });
  return existsSync(config.path) ? SqliteStore.open({ path: config.path }) : Promise.resolve(null);
}

/** Where the store is, for logs and messages: never a MongoDB password (nor the options, which may hold one). */
export function storeLocation(config: StoreConfig): string {
  return config.kind === 'mongodb' ? redactUri(config.uri) : config.path;
}

export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@').replace(/\?.*$/, '');
}
