// The MongoDB side of the composition root: the store adapter, with the search wing's side of
// their port (the search fields it writes with every school), and the wing's pipeline engines.
// store.ts and engine.port.ts import this module only when the configuration names MongoDB: the
// driver and the wing cost a server on the embedded store, which never uses them, 7.5 MiB of
// V8 heap and a 17 MiB buffer the BSON serializer allocates when it loads (docs/runs/performance.md, Run K).
import type { SearchEngine } from '../domain/search/engine.port.ts';
import type { Store } from '../domain/store.port.ts';
import { mongoSearchEngine } from '../search/mongodb/engines.ts';
import { SCHOOL_SEARCH_FIELDS } from '../search/mongodb/search.indexes.ts';
import { verifySearchSetup } from '../search/mongodb/setup.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import type { StoreConfig, StoreWarning } from '../stores/store.config.ts';

type MongoConfig = Extract<StoreConfig, { kind: 'mongodb' }>;

/** The MongoDB store; with MONGODB_SEARCH=atlas, refused when its Atlas Search index is missing or building. */
export async function openMongoStore(config: MongoConfig, options: { warn?: StoreWarning } = {}): Promise<Store> {
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

/** The MongoDB store for a look that writes no school, without creating indexes. */
export function openExistingMongoStore(config: MongoConfig): Promise<Store> {
  return MongoStore.open({ uri: config.uri, searchFields: SCHOOL_SEARCH_FIELDS, indexes: 'none' });
}

/** The MongoDB engine the configuration asks for (MONGODB_SEARCH=text or atlas); otherwise undefined: the in-process index. */
export function pipelineEngine(store: Store, config: StoreConfig): SearchEngine | undefined {
  if (config.kind !== 'mongodb' || config.search.kind === 'memory' || !(store instanceof MongoStore)) return undefined;
  return mongoSearchEngine(store.schools, config.search);
}
