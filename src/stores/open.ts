// Picks the store adapter the configuration names: the one place that knows both.
import { existsSync } from 'node:fs';
import type { Store } from '../domain/ports.ts';
import type { SearchEngine } from '../domain/search/engine.ts';
import { mongoSearchEngine } from '../search/mongodb/engines.ts';
import { MongoStore } from './mongodb/store.ts';
import { SqliteStore } from './sqlite/store.ts';
import type { StoreConfig, StoreWarning } from './store.config.ts';

/**
 * `warn`: where a store reports what it repaired by itself (the embedded store's lost quota
 * counters file), or waits for at open (MongoDB: another instance filling the usage counters).
 */
export function openStore(config: StoreConfig, options: { warn?: StoreWarning } = {}): Promise<Store> {
  return config.kind === 'mongodb'
    ? MongoStore.open({
        uri: config.uri,
        search: config.search,
        allowMissingCollections: config.allowMissingCollections ?? false,
        warn: options.warn,
      })
    : SqliteStore.open({ path: config.path, ...(options.warn ? { warn: options.warn } : {}) });
}

/**
 * The store for a look that writes no school (an import's dry run): null when the embedded
 * store's file does not exist yet, as opening it would create it; MongoDB without creating
 * indexes. An embedded store of an older version is still brought up to date, as by any command.
 */
export function openExistingStore(config: StoreConfig): Promise<Store | null> {
  if (config.kind === 'mongodb')
    return MongoStore.open({ uri: config.uri, search: config.search, indexes: 'none', searchIndex: 'skip' });
  return existsSync(config.path) ? SqliteStore.open({ path: config.path }) : Promise.resolve(null);
}

/** Where the store is, for logs and messages: never a MongoDB password (nor the options, which may hold one). */
export function storeLocation(config: StoreConfig): string {
  return config.kind === 'mongodb' ? redactUri(config.uri) : config.path;
}

export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@').replace(/\?.*$/, '');
}

/** The MongoDB engine the configuration asks for (MONGODB_SEARCH=text or atlas); otherwise undefined: the in-process index. */
export function pipelineEngine(store: Store, config: StoreConfig): SearchEngine | undefined {
  if (config.kind !== 'mongodb' || config.search.kind === 'memory' || !(store instanceof MongoStore)) return undefined;
  return mongoSearchEngine(store.schools, config.search);
}
