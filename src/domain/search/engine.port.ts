// The search engine port: what the search service asks of whatever answers a search (the
// in-process index, a MongoDB pipeline), and the catalog an engine indexes. Every engine orders
// by ranking-rules.ts and scores with it, so results mean the same wherever they come from.
import type { School } from '../catalog/catalog.ports.ts';
import type { SearchScope } from './filters.ts';
import type { SearchPlan } from './query.ts';

/**
 * A search as it is asked, in one shape from the HTTP edge to the engine, with the contract's
 * names: its words as typed, its scope (filters.ts: stateCode, level, type, near, radiusKm) and
 * its page. The record of a metered search keeps the same (metering.ports.ts, RecordedSearch).
 */
export interface SearchRequest extends SearchScope {
  readonly query: string;
  readonly offset: number;
  readonly limit: number;
  /** The client's Idempotency-Key: a retry of the search gets the first one's record, metered once (search.service.ts). */
  readonly idempotencyKey?: string;
}

/** What an engine answers: a request whose words the search rules have planned (query.ts). */
export interface EngineQuery extends SearchScope {
  readonly plan: SearchPlan;
  readonly offset: number;
  readonly limit: number;
}

export interface EngineHit {
  readonly school: School;
  /** similarity_score (ranking-rules.ts). */
  readonly score: number;
  /** distance_km from the query's `near` (geo.ts), when it has one and the school has coordinates. */
  readonly distanceKm?: number;
}

export interface EnginePage {
  /** All schools the query matches (not only this page's). */
  readonly total: number;
  readonly hits: readonly EngineHit[];
  /** The edition (SearchEngine.edition) this page was answered from; absent: none. */
  readonly edition?: object | undefined;
}

export interface SearchEngine {
  search(query: EngineQuery): Promise<EnginePage>;
  /**
   * Resolves when the engine can answer searches; throws StoreUnavailableError (its cause says
   * why) when it cannot (an index missing or still building). Readiness asks it. Absent: always.
   */
  ready?(): Promise<void>;
  /**
   * What the engine answers from now, as a value: the same object for as long as every query's
   * answer stays the same (an immutable index), another as soon as any answer may differ. An
   * answer may be given again without asking the engine while its edition is current
   * (src/domain/search/kept-answers.ts). Absent or undefined: answers may change at any time
   * (an engine that queries a live database), and none is given again.
   */
  edition?(): object | undefined;
}
