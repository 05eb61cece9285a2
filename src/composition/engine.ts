// Which search engine answers, and how the process keeps it fresh: the in-process index (the
// default, on every store), given an import's changes as a delta or rebuilt when the catalog's
// version moves, each logged and its failures counted; or on MongoDB one of the search wing's pipelines (MONGODB_SEARCH=text or atlas) over
// the catalog as the store serves it (src/mongodb-shared/catalog.port.ts), which needs no rebuild
// (mongodb.ts, loaded only then).
import type { pino } from 'pino';
import { StoreUnavailableError } from '../domain/shared/errors.ts';
import type { Store } from '../domain/store.port.ts';
import type { SearchEngine } from '../domain/search/engine.port.ts';
import type { Metrics } from '../metrics/metrics.port.ts';
import { unmanaged, type ManagedEngine } from '../search/managed.engine.ts';
import { MemorySearchEngine } from '../search/memory/memory.engine.ts';
import type { StoreConfig } from '../stores/store.config.ts';
import { composeIndexFiles } from './index-files.ts';

/** The MongoDB engine the configuration asks for (MONGODB_SEARCH=text or atlas); otherwise undefined: the in-process index. */
export async function pipelineEngine(store: Store, config: StoreConfig): Promise<SearchEngine | undefined> {
  if (config.kind !== 'mongodb' || config.search.kind === 'memory') return undefined;
  return (await import('./mongodb.ts')).mongoPipelineEngine(store, config.search);
}

/**
 * The engine the configuration names, as the process runs it. The in-process index looks for a
 * changed catalog every `refreshMs`; each rebuild is logged, and a failed one is counted and
 * logged while the previous index keeps serving.
 */
export async function composeEngine(
  store: Store,
  config: { store: StoreConfig; searchRefreshMs: number; searchIndexDir?: string | undefined },
  logger: pino.Logger,
  metrics: Metrics,
): Promise<ManagedEngine> {
  const pipeline = await pipelineEngine(store, config.store);
  if (pipeline) return unmanaged(pipeline);
  const indexFiles = composeIndexFiles(store, config, logger);
  return new MemorySearchEngine(store.schools, {
    refreshMs: config.searchRefreshMs,
    ...(indexFiles ? { indexFiles } : {}),
    onRefresh: (event) => {
      if (event.ok && event.changes !== undefined)
        logger.info(
          { schools: event.schools, changes: event.changes, ms: Math.round(event.ms) },
          'search index changes applied',
        );
      else if (event.ok)
        logger.info(
          { schools: event.schools, ms: Math.round(event.ms), folded: event.folded ?? false },
          event.from === 'file' ? 'search index loaded' : 'search index built',
        );
      else {
        metrics.storeFailed(
          'searchIndexRefresh',
          event.error instanceof StoreUnavailableError ? 'unavailable' : 'error',
        );
        logger.warn({ err: event.error }, 'search index not refreshed: the previous one keeps serving');
      }
    },
  });
}
