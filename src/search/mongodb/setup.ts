// What the search engines on MongoDB need set up on the server, and what an operator reads when it
// is not: the text index and the documents' search fields (catalog-extension.ts), the Atlas Search index
// (atlas-search-index.ts). Readiness checks them before a search is answered
// (engines.ts); a pipeline whose index is missing says so as a 503 naming the fix, never a 500.
import { MongoServerError, type Collection } from 'mongodb';
import { StoreUnavailableError } from '../../domain/shared/errors.ts';
import type { SchoolCatalog } from '../../mongodb-shared/catalog.port.ts';
import { guarded, MongoSetupError, translate } from '../../mongodb-shared/errors.ts';
import { ensureSearchIndex } from './atlas-search-index.ts';
import { SEARCH_FIELDS_VERSION, type DerivedSearch, type SearchedSchool } from './search-fields.ts';
import { TEXT_INDEX } from './catalog-extension.ts';

/** What an operator reads when schools hold search fields of an older SEARCH_FIELDS_VERSION (a search's 503, readiness). */
export const SEARCH_FIELDS_OUTDATED =
  'some schools were written by an earlier version without the current search fields: rewrite them with `npx school-search indexes`';

/** What an operator reads when the $text pipeline's index is gone (a search's 503, readiness). */
export const TEXT_INDEX_MISSING = `the text index ${TEXT_INDEX} is missing: create it with \`npx school-search indexes\``;

/**
 * Which engine on MongoDB answers searches (MONGODB_SEARCH), and so what must be set up: `text`
 * the text index, `atlas` the Atlas Search index of this name (MONGODB_SEARCH_INDEX). The default,
 * `memory`, is the in-process index, which needs nothing of the server.
 */
export type PipelineMode = { readonly kind: 'text' } | { readonly kind: 'atlas'; readonly index: string };

const NO_ATLAS_SEARCH =
  'Atlas Search is not available on this server: MONGODB_SEARCH=atlas needs MongoDB Atlas (or a server with mongot)';

/**
 * Server errors of a search pipeline that mean its index or Atlas Search is missing: the
 * operator's to fix, while every search answers 503 (not 500) and says why in its log line.
 */
const SEARCH_SETUP_CODES: ReadonlyMap<number, string> = new Map([
  [27, TEXT_INDEX_MISSING], // IndexNotFound
  [31082, NO_ATLAS_SEARCH], // SearchNotEnabled: no mongot configured
  [6047401, NO_ATLAS_SEARCH], // $search on a server without the search module
  [40324, NO_ATLAS_SEARCH], // Unrecognized pipeline stage name: $search on an old server
]);

/** Why an Atlas Search query refused for another reason is a 503 (its log line's cause). */
export const ATLAS_REFUSED =
  'Atlas Search refused the query (a limit of the cluster tier, such as the 1,024 clauses of the shared tiers, or mongot itself): see the cause';

/**
 * translate(), plus: a search pipeline's missing index or Atlas Search is a 503 whose cause says
 * which; and any other refusal of an Atlas Search stage (`atlas`: the pipeline starts with one)
 * is a 503 too, its cause the server's error: mongot's limits depend on the query and the tier
 * (the shared tiers' clause limit, reachable through a word's fuzzy expansions), and a 500 would
 * say the API is broken (issue 43, L2). A $text pipeline's other refusals stay what they are:
 * its pipelines are the API's own, and such an error is a defect to see.
 */
export function translateSearch(error: unknown, atlas = false): unknown {
  const setup = error instanceof MongoServerError ? SEARCH_SETUP_CODES.get(Number(error.code)) : undefined;
  if (setup) {
    return new StoreUnavailableError('The search index is unavailable.', {
      cause: new MongoSetupError(setup, { cause: error }),
    });
  }
  if (atlas && error instanceof MongoServerError) {
    return new StoreUnavailableError('The search is unavailable.', {
      cause: new MongoSetupError(ATLAS_REFUSED, { cause: error }),
    });
  }
  return translate(error);
}

/**
 * Throws StoreUnavailableError, its cause naming the fix, unless the pipeline's index can answer
 * (`schools`: the collection on the primary, SchoolCatalog's).
 */
export async function searchReady(schools: Collection<SearchedSchool>, mode: PipelineMode): Promise<void> {
  try {
    if (mode.kind === 'atlas') {
      await ensureSearchIndex(schools, mode.index, 'verify');
      await searchFieldsCurrent(schools);
      return;
    }
    const indexes = await guarded(() => schools.listIndexes().toArray()).catch((error: unknown) => {
      // No schools collection yet (a database opened with `indexes: 'none'`, nothing imported):
      // the server refuses to list its indexes (NamespaceNotFound), which is no text index, not a 500.
      if (error instanceof MongoServerError && error.code === 26) return [];
      throw error;
    });
    if (!indexes.some((index) => index['name'] === TEXT_INDEX)) {
      throw new MongoSetupError(TEXT_INDEX_MISSING);
    }
    await searchFieldsCurrent(schools);
  } catch (error) {
    if (!(error instanceof MongoSetupError)) throw error;
    throw new StoreUnavailableError('The search index is unavailable.', { cause: error });
  }
}

/** Throws MongoSetupError while some document's search fields are of an older version (schools_search_version finds one). */
async function searchFieldsCurrent(schools: Collection<SearchedSchool>): Promise<void> {
  const outdated = await guarded(() =>
    schools.findOne({ searchVersion: { $ne: SEARCH_FIELDS_VERSION } }, { projection: { _id: 1 } }),
  );
  if (outdated) throw new MongoSetupError(SEARCH_FIELDS_OUTDATED);
}

/**
 * At start-up with MONGODB_SEARCH=atlas: refuses to start (SearchIndexMissingError) while the
 * Atlas Search index is missing or still building, as searches would fail or miss schools.
 */
export async function verifySearchSetup(
  catalog: Pick<SchoolCatalog<DerivedSearch>, 'schools'>,
  mode: PipelineMode,
): Promise<void> {
  if (mode.kind === 'atlas') await ensureSearchIndex(catalog.schools, mode.index, 'verify');
}

/**
 * `school-search indexes`, after the store's own indexes (which include the text index, created
 * from the wing's catalog extension): with MONGODB_SEARCH=atlas, the Atlas Search index (Atlas
 * builds it in the background; searches answer 503 until it is queryable). It has no synonym
 * mappings: the queries carry each word's synonyms (atlas-pipeline.ts).
 */
export async function createSearchSetup(
  catalog: Pick<SchoolCatalog<DerivedSearch>, 'schools'>,
  mode: PipelineMode,
): Promise<void> {
  if (mode.kind !== 'atlas') return;
  await ensureSearchIndex(catalog.schools, mode.index, 'create');
}
