// Terms within a few edits of a query word, found by walking the vocabulary's trie against it
// (typo-walk.ts): a branch is left as soon as no cell of its row is within the budget. The
// distance is optimal string alignment, exactly as src/domain/search/matching.ts computes it, so
// both agree term by term.
import { typoBudget } from '../../domain/search/query.ts';
import type { IndexData } from './index-data.ts';
import { MAX_EDITS, TypoWalk, type WalkTrie } from './typo-walk.ts';

/** What of an index the typo walks read. */
export type TypoTries = Pick<IndexData, 'nodeChar' | 'nodeFirstChild' | 'nodeTerm'>;

/** The typo matches of words against one index; one walk's scratch, reused. */
export class Typos {
  readonly #trie: WalkTrie;
  readonly #walk = new TypoWalk();

  constructor(tries: TypoTries) {
    this.#trie = tries;
  }

  /** The terms within their budget of `word` (typoBudget of the longer of the two, as matching.ts decides), ascending. */
  terms(word: string): number[] {
    const out: number[] = [];
    this.#walk.spell(word);
    this.#walk.terms(this.#trie, wholeEdits(word.length), out);
    return out;
  }

  /** The nodes (prefixes) within the budget of `word`'s own length, each standing for every term below it; in the trie's order. */
  nodes(word: string): number[] {
    const out: number[] = [];
    this.#walk.spell(word);
    this.#walk.nodes(this.#trie, typoBudget(word.length), out);
    return out;
  }
}

/**
 * The most edits a whole term may be at from a word of `letters` letters: a term δ edits away has
 * at most letters + δ letters, and is within its budget only if δ ≤ typoBudget(letters + δ).
 */
export function wholeEdits(letters: number): number {
  let edits = MAX_EDITS;
  while (edits > 0 && typoBudget(letters + edits) < edits) edits--;
  return edits;
}
