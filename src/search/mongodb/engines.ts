// The MongoDB search engines (MONGODB_SEARCH=text or atlas) over the store's side of the port
// (catalog.port.ts): each pipeline's failures read as the search's (a missing index is a 503
// naming the fix), and readiness checked on the server before searches are answered (setup.ts).
import type { SearchEngine } from '../../domain/search/engine.ts';
import { MongoAtlasEngine } from './atlas.engine.ts';
import type { SearchCatalog } from './catalog.port.ts';
import type { CandidateEngineOptions, SearchSource } from './candidates.ts';
import { searchReady, translateSearch, type PipelineMode } from './setup.ts';
import { MongoTextEngine } from './text.engine.ts';

export type { PipelineMode };

export function mongoSearchEngine(
  catalog: SearchCatalog,
  mode: PipelineMode,
  options: CandidateEngineOptions = {},
): SearchEngine {
  const source: SearchSource = {
    aggregate: (pipeline) =>
      catalog.aggregate(pipeline).catch((error: unknown) => {
        throw translateSearch(error);
      }),
    catalogVersion: () => catalog.catalogVersion(),
    ready: () => searchReady(catalog.collection, mode),
  };
  return mode.kind === 'atlas'
    ? new MongoAtlasEngine(source, mode.index, options)
    : new MongoTextEngine(source, options);
}
