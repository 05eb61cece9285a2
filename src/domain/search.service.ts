// School search and its metering. No HTTP in here.
import { randomUUID } from 'node:crypto';
import type { Principal } from './auth.service.ts';
import type { Clock, RequestLog, RequestRecord, School, SchoolStore } from './ports.ts';
import { words } from './text.ts';

/** Credits one search costs (the unit of `trequestcost`). */
export const SEARCH_COST = 1;

export interface SearchInput {
  readonly query: string;
  readonly stateCode?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

export interface ScoredSchool extends School {
  /** In [0, 1]: the share of the matched name's letters and digits that the query's words cover. */
  readonly similarity: number;
}

export interface SearchOutcome {
  readonly record: RequestRecord;
  readonly total: number;
  readonly schools: readonly ScoredSchool[];
}

/**
 * The distinct words of a query, minus those that are a prefix of another query word: every
 * name matching "harvard" also matches "harv", so "harv harvard" asks for one thing, once.
 * One-character words are whole words ("a" in "Texas A & M"), not prefixes, so they stay: a
 * one-letter prefix would match most of the catalog and tell nothing.
 */
export function queryTerms(query: string): string[] {
  const distinct = [...new Set(words(query))];
  return distinct.filter((t) => t.length === 1 || !distinct.some((other) => other !== t && other.startsWith(t)));
}

export function coveredLength(terms: readonly string[]): number {
  return terms.reduce((n, t) => n + t.length, 0);
}

/** Score of a hit: letters the query covers over letters of the matched name, capped at 1. */
export function similarity(covered: number, matchedLength: number): number {
  if (matchedLength <= 0) return 0;
  return Math.round(Math.min(1, covered / matchedLength) * 10_000) / 10_000;
}

export class SearchService {
  readonly #schools: SchoolStore;
  readonly #requests: RequestLog;
  readonly #clock: Clock;

  constructor(deps: { schools: SchoolStore; requests: RequestLog; clock: Clock }) {
    this.#schools = deps.schools;
    this.#requests = deps.requests;
    this.#clock = deps.clock;
  }

  async search(principal: Principal, input: SearchInput): Promise<SearchOutcome> {
    const terms = queryTerms(input.query);
    const covered = coveredLength(terms);
    const page = await this.#schools.search({
      terms,
      coveredLength: covered,
      state: input.stateCode,
      offset: input.offset,
      limit: input.limit,
    });
    const record: RequestRecord = {
      id: randomUUID(),
      userId: principal.userId,
      requestMade: `search_schools:${input.query}`,
      timeMade: this.#clock.now(),
      cost: SEARCH_COST,
    };
    // Durable before the response exists: a tid the client sees is always in its history.
    await this.#requests.append(record);
    return {
      record,
      total: page.total,
      schools: page.hits.map(({ matchedLength, ...school }) => ({ ...school, similarity: similarity(covered, matchedLength) })),
    };
  }
}
