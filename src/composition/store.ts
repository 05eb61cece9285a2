// Picks the store adapter the configuration names. The MongoDB one, with the search wing's side of
// their port, is in mongodb.ts, loaded only when the configuration names MongoDB.
import { existsSync } from 'node:fs';
import type { Store } from '../domain/store.port.ts';
import { SqliteStore } from '../stores/sqlite/store.ts';
import { refuseLeftovers } from '../stores/sqlite/store-files.ts';
import type { StoreConfig, StoreWarning } from '../stores/store.config.ts';

/** The embedded store's files are not a store's, or not one store's: the process stops with the message. */
export { StoreFileError } from '../stores/sqlite/store-file.error.ts';

/**
 * `warn`: where a store reports what it repaired by itself (the embedded store's lost quota
 * counters file), or waits for at open (MongoDB: another instance filling the usage counters).
 * With MONGODB_SEARCH=atlas, a store whose Atlas Search index is missing or building is refused.
 */
export async function openStore(config: StoreConfig, options: { warn?: StoreWarning } = {}): Promise<Store> {
  if (config.kind !== 'mongodb')
    return SqliteStore.open({ path: config.path, ...(options.warn ? { warn: options.warn } : {}) });
  const { openMongoStore } = await import('./mongodb.ts');
  return openMongoStore(config, options);
}

/**
 * The store for a look that writes no school (an import's dry run): null when the embedded
 * store's file does not exist yet, as opening it would create it (refused, as the opening would
 * be, where the files of a lost one are still beside the path); MongoDB without creating
 * indexes. An embedded store of an older version is still brought up to date, as by any command.
 */
export async function openExistingStore(config: StoreConfig): Promise<Store | null> {
  if (config.kind === 'mongodb') return (await import('./mongodb.ts')).openExistingMongoStore(config);
  if (existsSync(config.path)) return SqliteStore.open({ path: config.path });
  refuseLeftovers(config.path);
  return null;
}

/** Where the store is, for logs and messages: never a MongoDB password (nor the options, which may hold one). */
export function storeLocation(config: StoreConfig): string {
  return config.kind === 'mongodb' ? redactUri(config.uri) : config.path;
}

export function redactUri(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/)[^@/]*@/, '$1***@').replace(/\?.*$/, '');
}
