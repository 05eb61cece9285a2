// The search engine port: what the search service asks of whatever answers a search (the
// in-process index, a MongoDB pipeline), and the catalog an engine indexes. Every engine orders
// by ranking.ts and scores with it, so results mean the same wherever they come from.
import type { CatalogSchool, School } from '../ports.ts';
import type { SearchScope } from './filters.ts';
import type { SearchPlan } from './query.ts';

export type { CatalogSchool };

/** A query: its words, its scope (filters.ts: state, levels, types, near, radius) and its page. */
export interface EngineQuery extends SearchScope {
  readonly plan: SearchPlan;
  readonly offset: number;
  readonly limit: number;
}

export interface EngineHit {
  readonly school: School;
  /** similarity_score (ranking.ts). */
  readonly score: number;
  /** distance_km from the query's `near` (geo.ts), when it has one and the school has coordinates. */
  readonly distanceKm?: number;
}

export interface EnginePage {
  /** All schools the query matches (not only this page's). */
  readonly total: number;
  readonly hits: readonly EngineHit[];
}

export interface SearchEngine {
  search(query: EngineQuery): Promise<EnginePage>;
  /**
   * Resolves when the engine can answer searches; throws StoreUnavailableError (its cause says
   * why) when it cannot (an index missing or still building). Readiness asks it. Absent: always.
   */
  ready?(): Promise<void>;
}
