// School search and its metering. No HTTP in here: the query is planned by the search rules
// (src/domain/search/), answered by whichever engine the composition root chose, and recorded.
import { randomUUIDv7 } from 'node:crypto';
import type { Principal } from './auth.service.ts';
import type { Clock, RecordedSearch, RequestLog, RequestRecord } from './ports.ts';
import type { EngineHit, SearchEngine } from './search/engine.ts';
import type { SearchScope } from './search/filters.ts';
import { planQuery } from './search/query.ts';

/** Credits one search costs (the unit of `trequestcost`). */
export const SEARCH_COST = 1;

export interface SearchInput extends Omit<SearchScope, 'state'> {
  readonly query: string;
  readonly stateCode?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

export interface SearchOutcome {
  readonly record: RequestRecord;
  readonly total: number;
  /**
   * The page as the engine answered it, each school with its similarity_score (ranking.ts: in
   * [0, 1], never higher than the one before it) and its distance_km from a `near`.
   */
  readonly hits: readonly EngineHit[];
  /** The engine's edition the answer came from (engine.ts): the same query answers the same while it is current. */
  readonly edition: object | undefined;
}

export class SearchService {
  readonly #engine: SearchEngine;
  readonly #requests: RequestLog;
  readonly #clock: Clock;

  constructor(deps: { engine: SearchEngine; requests: RequestLog; clock: Clock }) {
    this.#engine = deps.engine;
    this.#requests = deps.requests;
    this.#clock = deps.clock;
  }

  async search(principal: Principal, input: SearchInput): Promise<SearchOutcome> {
    const page = await this.#engine.search({
      plan: planQuery(input.query),
      state: input.stateCode,
      levels: input.levels,
      types: input.types,
      near: input.near,
      radiusKm: input.radiusKm,
      offset: input.offset,
      limit: input.limit,
    });
    const record = await this.#record(principal, input);
    return {
      record,
      edition: page.edition,
      total: page.total,
      hits: page.hits,
    };
  }

  /** The engine's edition now: an answer of a search given while it was current is its answer still. */
  edition(): object | undefined {
    return this.#engine.edition?.();
  }

  /**
   * Meters a search answered again from an earlier answer of the current edition, without the
   * engine: the same record, durable, as search() makes.
   */
  meter(principal: Principal, input: SearchInput): Promise<RequestRecord> {
    return this.#record(principal, input);
  }

  async #record(principal: Principal, input: SearchInput): Promise<RequestRecord> {
    const record: RequestRecord = {
      // Time-ordered (RFC 9562 version 7): the request log's primary key then grows at its end,
      // where a random id lands on a random page of it. In SQLite a commit of 8 records into a
      // log of 300,000 cost 20 µs of CPU a record against 35 (docs/performance.md, Run M).
      id: randomUUIDv7(),
      userId: principal.userId,
      requestMade: `search_schools:${input.query}`,
      timeMade: this.#clock.now(),
      cost: SEARCH_COST,
      search: recordedSearch(input),
    };
    // Durable before the response exists: a tid the client sees is always in its history. A
    // token taken as the store remembered it must still hold when the record commits.
    await this.#requests.append(record, principal.remembered ? principal.tokenId : undefined);
    return record;
  }
}

/** The search's parameters besides its words, for its record: only those it gave. */
function recordedSearch(input: SearchInput): RecordedSearch {
  return {
    ...(input.stateCode !== undefined && { stateCode: input.stateCode }),
    offset: input.offset,
    limit: input.limit,
    ...(input.levels !== undefined && { levels: input.levels }),
    ...(input.types !== undefined && { types: input.types }),
    ...(input.near !== undefined && { near: { latitude: input.near.latitude, longitude: input.near.longitude } }),
    ...(input.radiusKm !== undefined && { radiusKm: input.radiusKm }),
  };
}
