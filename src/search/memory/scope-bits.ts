// The documents a query's filters keep (filters.ts, inScope), as one bitset: the AND of its
// state's set, the OR of its levels' sets, the OR of its types' sets and its radius's set
// (geo-grid.ts). Every word's documents are ANDed with it before they are counted, so soft
// matching counts words among the schools in scope and the total is exact. The index holds a set
// per state, level and type (build.ts, kind-bits.ts), so a scope costs a few passes over bitset words, not
// one over the schools.
import { LEVELS } from '../../domain/catalog/school-kind.ts';
import { type SearchScope, TYPE_FILTERS } from '../../domain/search/filters.ts';
import { and, wordsFor } from './bitset.ts';
import { GeoBox, withinRadius } from './geo-grid.ts';
import { type IndexData, STATE_LIST } from './index-data.ts';

export class ScopeBits {
  readonly #d: IndexData;
  readonly #words: number;
  /** The scope when it is made of more than one set, or of `#temp`. */
  readonly #scope: Uint32Array;
  /** A union of levels or types, or a radius's documents: a set the scope is made from. */
  readonly #temp: Uint32Array;
  /** withinRadius's scratch. */
  readonly #box = new GeoBox();

  constructor(data: IndexData) {
    this.#d = data;
    this.#words = wordsFor(data.docCount);
    this.#scope = new Uint32Array(this.#words);
    this.#temp = new Uint32Array(this.#words);
  }

  /**
   * The documents the query's filters keep; undefined when they keep the whole catalog, null
   * when they keep nothing. The set is the index's or this object's own: read it before the next
   * call.
   */
  of(query: SearchScope): Uint32Array | undefined | null {
    const d = this.#d;
    const words = this.#words;
    const temp = this.#temp;
    let scope: Uint32Array | undefined;
    const narrow = (set: Uint32Array): void => {
      if (scope !== undefined) scope = and(this.#scope, scope, set);
      else if (set === temp) {
        this.#scope.set(temp);
        scope = this.#scope;
      } else scope = set;
    };
    // Any one of several sets: their union.
    const anyOf = (sets: Uint32Array, indexes: readonly number[]): Uint32Array => {
      temp.fill(0);
      for (const i of indexes) {
        if (i < 0) continue;
        for (let w = 0; w < words; w++) temp[w]! |= sets[i * words + w]!;
      }
      return temp;
    };
    if (query.stateCode !== undefined) {
      const s = STATE_LIST.indexOf(query.stateCode);
      if (s < 0) return null;
      narrow(d.stateSets.subarray(s * words, (s + 1) * words));
    }
    if (query.level !== undefined)
      narrow(
        anyOf(
          d.levelSets,
          query.level.map((l) => LEVELS.indexOf(l)),
        ),
      );
    if (query.type !== undefined)
      narrow(
        anyOf(
          d.typeSets,
          query.type.map((t) => TYPE_FILTERS.indexOf(t)),
        ),
      );
    if (query.radiusKm !== undefined) {
      // A radius from nowhere keeps no school (filters.ts, inScope).
      if (query.near === undefined) return null;
      withinRadius(d, query.near, query.radiusKm, temp, this.#box);
      narrow(temp);
    }
    return scope;
  }
}
