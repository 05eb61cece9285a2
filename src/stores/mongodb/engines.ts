// The MongoDB search engines (MONGODB_SEARCH=text or atlas) on a store's schools collection.
import type { SearchEngine } from '../../domain/search/engine.ts';
import { MongoAtlasEngine } from './atlas.engine.ts';
import type { MongoSchoolStore, PipelineMode } from './school.store.ts';
import type { CandidateEngineOptions, SearchSource } from './candidates.ts';
import { MongoTextEngine } from './text.engine.ts';

export function mongoSearchEngine(
  schools: MongoSchoolStore,
  mode: PipelineMode,
  options: CandidateEngineOptions = {},
): SearchEngine {
  const source: SearchSource = {
    aggregate: (pipeline) => schools.aggregate(pipeline),
    catalogVersion: () => schools.catalogVersion(),
    ready: () => schools.searchIndexReady(mode),
    totals: schools.totals,
  };
  return mode.kind === 'atlas'
    ? new MongoAtlasEngine(source, mode.index, options)
    : new MongoTextEngine(source, options);
}
