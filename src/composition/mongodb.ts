// The MongoDB side of the composition root: the store adapter, handed the search wing's catalog
// extension (the search fields it writes with every school, their indexes, the wing's per-version
// collection), and the wing's pipeline engines over the catalog as the store serves it.
// store.ts and engine.ts import this module only when the configuration names MongoDB: the
// driver and the wing cost a server on the embedded store, which never uses them, heap and a
// buffer the BSON serializer allocates when it loads (docs/runs/performance.md, Run K;
// test/main/lazy-packages.test.ts keeps them out).
import type { SearchEngine } from '../domain/search/engine.port.ts';
import type { Store } from '../domain/store.port.ts';
import { mongoSearchEngine } from '../search/mongodb/engines.ts';
import type { DerivedSearch } from '../search/mongodb/search-fields.ts';
import { SEARCH_EXTENSION } from '../search/mongodb/catalog-extension.ts';
import { verifySearchSetup, type PipelineMode } from '../search/mongodb/setup.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import type { StoreConfig, StoreWarning } from '../stores/store.config.ts';

type MongoConfig = Extract<StoreConfig, { kind: 'mongodb' }>;

/** The MongoDB store; with MONGODB_SEARCH=atlas, refused when its Atlas Search index is missing or building. */
export async function openMongoStore(config: MongoConfig, options: { warn?: StoreWarning } = {}): Promise<Store> {
  const store = await MongoStore.open({
    uri: config.uri,
    extension: SEARCH_EXTENSION,
    allowMissingCollections: config.allowMissingCollections ?? false,
    warn: options.warn,
  });
  if (config.search.kind === 'memory') return store;
  try {
    await verifySearchSetup(store.catalog, config.search);
    return store;
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** The MongoDB store for a look that writes no school, without creating indexes. */
export function openExistingMongoStore(config: MongoConfig): Promise<Store> {
  return MongoStore.open({ uri: config.uri, extension: SEARCH_EXTENSION, indexes: 'none' });
}

/**
 * The engine `mode` names over the catalog the MongoDB store serves (engine.ts decides whether
 * the configuration asks for one); undefined for another store.
 */
export function mongoPipelineEngine(store: Store, mode: PipelineMode): SearchEngine | undefined {
  return holdsSearchFields(store) ? mongoSearchEngine(store.catalog, mode) : undefined;
}

/**
 * A MongoDB store, opened with the wing's extension as this module opens them: its documents
 * carry the search fields (the type parameter cannot be checked at run time).
 */
function holdsSearchFields(store: Store): store is MongoStore<DerivedSearch> {
  return store instanceof MongoStore;
}
