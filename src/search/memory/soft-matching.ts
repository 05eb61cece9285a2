// Which documents a query matches, by the rules of src/domain/search/rank-candidates.ts (soft
// matching): each word's documents (word-sets.ts) in scope, counted as they are ANDed with the
// scope; the words no document in scope has left out as if not typed (the score still counts
// them); then the AND of the rest, and while no document has them all, the most common word
// dropped (on a tie, the later one). The count is the population count taken during the AND: a
// total exact whatever the catalog's size, with no document visited.
import { MAX_QUERY_WORDS, type SearchPlan } from '../../domain/search/query.ts';
import { Kind } from '../../domain/search/ranking-rules.ts';
import { andCount, wordsFor } from './bitset.ts';
import type { Expander, Expansion } from './expansion.ts';
import type { WordSets } from './word-sets.ts';

export interface Matching {
  /** The indexes (into the plan's words) of the words some document in scope has, and their expansions. */
  readonly known: readonly number[];
  readonly expansions: readonly Expansion[];
  /** The documents that have every word soft matching kept (undefined: none kept, no match), and how many. */
  readonly matches: Uint32Array | undefined;
  readonly count: number;
}

export class SoftMatching {
  readonly #expander: Expander;
  readonly #sets: WordSets;
  /** Each known word's documents in scope (when there is a scope), and their AND. */
  readonly #inScope: Uint32Array[];
  readonly #matches: Uint32Array;

  constructor(docCount: number, expander: Expander, sets: WordSets) {
    this.#expander = expander;
    this.#sets = sets;
    const words = wordsFor(docCount);
    this.#inScope = Array.from({ length: MAX_QUERY_WORDS }, () => new Uint32Array(words));
    this.#matches = new Uint32Array(words);
  }

  /** The plan's matches among the documents of `scope` (undefined: all). The sets are this object's or the word sets': read them before the next call. */
  match(plan: SearchPlan, scope: Uint32Array | undefined): Matching {
    const expansions: Expansion[] = [];
    const sets: Uint32Array[] = [];
    const sizes: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < plan.words.length; i++) {
      const e = this.#expander.expand(plan.words[i]!);
      const all = this.#sets.atLeast(e, Kind.Typo);
      let set = all;
      let size: number;
      if (scope) {
        set = this.#inScope[known.length]!;
        size = andCount(set, all, scope);
      } else size = this.#sets.size(all);
      if (size === 0) continue;
      known.push(i);
      expansions.push(e);
      sets.push(set);
      sizes.push(size);
    }

    let required = sizes.map((_, i) => i);
    const matches = this.#matches;
    const intersect = (): number => {
      if (required.length === 1) {
        matches.set(sets[required[0]!]!);
        return sizes[required[0]!]!;
      }
      let count = andCount(matches, sets[required[0]!]!, sets[required[1]!]!);
      for (let k = 2; k < required.length; k++) count = andCount(matches, matches, sets[required[k]!]!);
      return count;
    };
    let count = required.length > 0 ? intersect() : 0;
    while (required.length > 0 && count === 0) {
      let drop = required[0]!;
      for (const i of required) if (sizes[i]! >= sizes[drop]!) drop = i;
      required = required.filter((i) => i !== drop);
      count = required.length > 0 ? intersect() : 0;
    }
    return { known, expansions, matches: required.length > 0 ? matches : undefined, count };
  }
}
