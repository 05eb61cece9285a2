// The ranked answers an index keeps: a query's first results (documents, grades, equality) and
// its total, by its words as typed and its scope. A search box asks the same prefixes again and
// again, and a later page of a list already ranked far enough is sliced from it. An index is
// immutable, so what it kept stays its answer for as long as it serves (one edition: a new
// catalog is a new index, with nothing kept). Not the answers given again over HTTP
// (src/domain/search/kept-answers.ts): those are a page's JSON, these the ranking behind pages.
import { scopeKey } from '../../domain/search/search-key.ts';
import type { EngineQuery } from '../../domain/search/engine.port.ts';

/** Ranked answers kept by default: the last queries' ranking. */
export const RESULTS = 2048;

/** A query's first `count` results in order (documents, grades, equality) and its total. */
export interface Ranked {
  readonly total: number;
  readonly count: number;
  readonly docs: Int32Array;
  readonly keys: Int32Array;
  readonly equality: Uint8Array;
  /** The query's words that some document has (the score's `known`). */
  readonly known: number;
  /** The small words the query's known words begin with (query.ts, leadingSmallWords): the score's `lead`. */
  readonly lead: number;
}

/** The key of a query's ranking: its plan follows from the words typed, so they and the scope are all it depends on. */
export function rankedKey(query: EngineQuery): string {
  return `${scopeKey(query)}\u0000${query.plan.typed.join(' ')}`;
}

/** The last `capacity` rankings asked for, least recently used first out (0: none kept). */
export class RankedAnswers {
  readonly #capacity: number;
  /** Most recently used last: the first in the map is the first to go. */
  readonly #kept = new Map<string, Ranked>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  /**
   * The ranking kept under `key` when it reaches result `end` (or holds all of them), taken out
   * to be put back (`keep`) as the most recently used; otherwise undefined.
   */
  take(key: string, end: number): Ranked | undefined {
    const ranked = this.#kept.get(key);
    if (ranked === undefined || ranked.count < Math.min(end, ranked.total)) return undefined;
    this.#kept.delete(key);
    return ranked;
  }

  /**
   * Keeps a ranking as the most recently used. A new one (`fresh`) first makes room by letting
   * the least recently used go.
   */
  keep(key: string, ranked: Ranked, fresh: boolean): void {
    if (this.#capacity === 0) return;
    if (fresh && this.#kept.size >= this.#capacity) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, ranked);
  }

  clear(): void {
    this.#kept.clear();
  }
}
