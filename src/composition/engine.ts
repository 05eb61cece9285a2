// Which search engine answers: the in-process index (the default, on every store), or on MongoDB
// one of the search wing's pipelines (MONGODB_SEARCH=text or atlas) over the store's side of its port.
import type { Store } from '../domain/ports.ts';
import type { SearchEngine } from '../domain/search/engine.ts';
import { mongoSearchEngine } from '../search/mongodb/engines.ts';
import { MongoStore } from '../stores/mongodb/store.ts';
import type { StoreConfig } from '../stores/store.config.ts';

/** The MongoDB engine the configuration asks for (MONGODB_SEARCH=text or atlas); otherwise undefined: the in-process index. */
export function pipelineEngine(store: Store, config: StoreConfig): SearchEngine | undefined {
  if (config.kind !== 'mongodb' || config.search.kind === 'memory' || !(store instanceof MongoStore)) return undefined;
  return mongoSearchEngine(store.schools, config.search);
}
