// Terms within a few edits of a query word, found by walking the vocabulary's trie against it
// (typo-walk.ts): a branch is left as soon as no cell of its row is within the budget. The
// distance is optimal string alignment, exactly as src/domain/search/matching.ts computes it, so
// both agree term by term.
//
// A walk from the root with a budget of k edits cannot leave any branch in its first k letters,
// and goes much below (it visited 13,000 of the real seed's 134,000 nodes for 2 edits): a
// mistyped first letter or two leaves everything open. Whole terms are found in two walks that each start narrow instead
// (a pigeonhole split): take the word's first `head` letters. A term whose best alignment gets
// through the head with no edit starts with the head as typed: a walk below the head's node. Any
// other alignment has spent an edit by the time it reaches the letter after the head (a
// transposition across the two counts), so spends at most k − 1 on the letters after that: a
// walk of the reverse trie from the end of the word, where the cells of those letters count only
// within k − 1 edits (for k = 1, those letters as typed). Each walk computes the distance of the
// terms it finds, never below the true one, and together they find every term within the budget.
import { typoBudget } from '../../domain/search/query.ts';
import type { IndexData } from './index-data.ts';
import { MAX_EDITS, TypoWalk, type WalkTrie } from './typo-walk.ts';

/** What of an index the typo walks read. */
export type TypoTries = Pick<
  IndexData,
  'nodeChar' | 'nodeFirstChild' | 'nodeTerm' | 'nodeLongest' | 'revChar' | 'revFirstChild' | 'revTerm'
>;

/** The typo matches of words against one index; one walk's scratch, reused. */
export class Typos {
  readonly #forward: WalkTrie;
  readonly #reverse: WalkTrie;
  readonly #longest: Uint8Array;
  readonly #walk = new TypoWalk();

  constructor(tries: TypoTries) {
    // Two objects of one shape, so that the walk's reads of them stay monomorphic.
    this.#forward = { nodeChar: tries.nodeChar, nodeFirstChild: tries.nodeFirstChild, nodeTerm: tries.nodeTerm };
    this.#reverse = { nodeChar: tries.revChar, nodeFirstChild: tries.revFirstChild, nodeTerm: tries.revTerm };
    this.#longest = tries.nodeLongest;
  }

  /** The terms within their budget of `word` (typoBudget of the longer of the two, as matching.ts decides), ascending. */
  terms(word: string): number[] {
    const m = word.length;
    const edits = wholeEdits(m);
    const out: number[] = [];
    const walk = this.#walk;
    walk.spell(word, false);
    if (edits === 0) {
      walk.terms(this.#forward, 0, m, -1, 0, out);
      return out;
    }
    // Half of the word less its edits: of the heads tried on the real seed, the one whose two
    // walks visited fewest nodes.
    const head = (m - edits) >> 1;
    walk.terms(this.#forward, edits, head, -1, edits, out);
    const tail = m - head - 1;
    walk.spell(word, true);
    if (edits === 1) walk.terms(this.#reverse, 1, tail, -1, 1, out);
    else walk.terms(this.#reverse, edits, 0, tail, edits - 1, out);
    return ascendingOnce(out);
  }

  /** The nodes (prefixes) within the budget of `word`'s own length, each standing for every term below it; in the trie's order. */
  nodes(word: string): number[] {
    const out: number[] = [];
    this.#walk.spell(word, false);
    this.#walk.nodes(this.#forward, typoBudget(word.length), this.#longest, out);
    return out;
  }
}

/**
 * Whether nodes(word) holds every term terms(word) finds, for a word of `letters` letters: when
 * no whole term may be more edits away (wholeEdits) than the word's own budget, each such term is
 * a prefix (of itself) within that budget, so at or below one of the highest such nodes.
 */
export function nodesHoldTerms(letters: number): boolean {
  return wholeEdits(letters) <= typoBudget(letters);
}

/** The ids in ascending order, each once (both walks may find a term). */
function ascendingOnce(ids: number[]): number[] {
  ids.sort((a, b) => a - b);
  let kept = 0;
  for (let i = 0; i < ids.length; i++) if (kept === 0 || ids[kept - 1] !== ids[i]) ids[kept++] = ids[i]!;
  ids.length = kept;
  return ids;
}

/**
 * The most edits a whole term may be at from a word of `letters` letters: a term δ edits away has
 * at most letters + δ letters, and is within its budget only if δ ≤ typoBudget(letters + δ).
 */
function wholeEdits(letters: number): number {
  let edits = MAX_EDITS;
  while (edits > 0 && typoBudget(letters + edits) < edits) edits--;
  return edits;
}
