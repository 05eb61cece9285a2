// The MongoDB search engines (MONGODB_SEARCH=text or atlas) over the catalog as the store serves
// it (src/mongodb-shared/catalog.port.ts: SchoolCatalog): each pipeline's failures read as the search's
// (a missing index is a 503 naming the fix), Atlas Search's stages read as mongod allows them,
// readiness checked on the server before searches are answered (setup.ts), and the $text
// engine's totals shared through the store with the other instances (search-totals.ts).
import type { Document } from 'mongodb';
import type { SearchEngine } from '../../domain/search/engine.port.ts';
import type { PipelineReads, SchoolCatalog } from '../../mongodb-shared/catalog.port.ts';
import { MongoAtlasEngine } from './atlas.engine.ts';
import type { CandidateEngineOptions, SearchSource } from './candidates.ts';
import type { DerivedSearch } from './search-fields.ts';
import { MongoSearchTotals, type SearchTotalDocument } from './search-totals.ts';
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

/**
 * What an engine runs on, over the catalog the store serves: its pipelines (their failures read
 * as the search's), the catalog's version, readiness, and the shared totals. The one place the
 * engines meet the port; the tests' stand-ins of a server take its place (scripts/quality/mingo-search.ts).
 */
export function searchSource(catalog: SchoolCatalog<DerivedSearch>, mode: PipelineMode): SearchSource {
  const totals = catalog.perVersion?.<SearchTotalDocument>();
  return {
    aggregate: (pipeline) => {
      const reads = pipelineReads(pipeline);
      return catalog.aggregate(pipeline, reads).catch((error: unknown) => {
        throw translateSearch(error, reads === 'local');
      });
    },
    catalogVersion: () => catalog.catalogVersion(),
    ready: () => searchReady(catalog.schools, mode),
    totals: totals && new MongoSearchTotals(totals, catalog.operationTimeLimitMs),
  };
}

export function mongoSearchEngine(
  catalog: SchoolCatalog<DerivedSearch>,
  mode: PipelineMode,
  options: CandidateEngineOptions = {},
): SearchEngine {
  const source = searchSource(catalog, mode);
  return mode.kind === 'atlas'
    ? new MongoAtlasEngine(source, mode.index, options)
    : new MongoTextEngine(source, options);
}
