// The MongoDB search engines (MONGODB_SEARCH=text or atlas) over the store's side of the port
// (catalog.port.ts): each pipeline's failures read as the search's (a missing index is a 503
// naming the fix), Atlas Search's stages read as mongod allows them, readiness checked on the
// server before searches are answered (setup.ts), and the $text engine's totals shared through
// the store with the other instances (search-totals.ts).
import type { Document } from 'mongodb';
import type { SearchEngine } from '../../domain/search/engine.port.ts';
import { MongoAtlasEngine } from './atlas.engine.ts';
import type { PipelineReads, SearchCatalog } from './catalog.port.ts';
import type { CandidateEngineOptions, SearchSource } from './candidates.ts';
import { MongoSearchTotals } from './search-totals.ts';
import { searchReady, translateSearch, type PipelineMode } from './setup.ts';
import { MongoTextEngine } from './text.engine.ts';

export type { PipelineMode };

/** Atlas Search's stages: they run with read concern `local` only (mongod refuses any other). */
const SEARCH_STAGES = ['$search', '$searchMeta'];

/** How the catalog is read for a pipeline: `local` for one that starts with an Atlas Search stage. */
export function pipelineReads(pipeline: readonly Document[]): PipelineReads {
  const first = pipeline[0];
  return first !== undefined && SEARCH_STAGES.some((stage) => stage in first) ? 'local' : 'catalog';
}

/** The engines' source over the store's side of the port: what each engine runs its pipelines on. */
export function searchSource(catalog: SearchCatalog, mode: PipelineMode): SearchSource {
  return {
    aggregate: (pipeline) =>
      catalog.aggregate(pipeline, pipelineReads(pipeline)).catch((error: unknown) => {
        throw translateSearch(error);
      }),
    catalogVersion: () => catalog.catalogVersion(),
    ready: () => searchReady(catalog.collection, mode),
    totals: catalog.totals && new MongoSearchTotals(catalog.totals, catalog.operationTimeLimitMs),
  };
}

export function mongoSearchEngine(
  catalog: SearchCatalog,
  mode: PipelineMode,
  options: CandidateEngineOptions = {},
): SearchEngine {
  const source = searchSource(catalog, mode);
  return mode.kind === 'atlas'
    ? new MongoAtlasEngine(source, mode.index, options)
    : new MongoTextEngine(source, options);
}
