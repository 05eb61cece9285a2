// How the terms of the vocabulary match one query word, found once per word (and cached): its own
// term and synonyms, its translations, the range of terms it starts (a trie node), and the terms
// and subtrees within its typo budget.
import type { QueryWord } from '../../domain/search/query.ts';
import { typoBudget } from '../../domain/search/query.ts';
import { Kind } from '../../domain/search/ranking-rules.ts';
import type { IndexData } from './index-data.ts';
import { childOf } from './trie.ts';
import { nodesHoldTerms, Typos } from './typos.ts';

export interface Expansion {
  /** Identifies the word for caches. */
  readonly key: string;
  /** The terms of the word itself and its synonyms (Exact) and of its translations (Translation). */
  readonly exact: readonly number[];
  readonly translations: readonly number[];
  /** An open word's (query.ts) whole-word terms, which count as prefixes. */
  readonly opened: readonly number[];
  /** The trie node of the word itself (every term starting with it), or -1; its range of term ids. */
  readonly prefixNode: number;
  readonly prefixLo: number;
  readonly prefixHi: number;
  /** Terms and subtrees within the word's typo budget. */
  readonly typoTerms: readonly number[];
  readonly typoNodes: readonly number[];
  /** The best kind any term offers, and the best below a whole word or translation (for the page's early stop). */
  readonly best: Kind;
  readonly bestNonExact: Kind;
}

/**
 * Expanded words kept. 8,000, not 20,000: since the typo walks cost tens of microseconds
 * (typo-walk.ts), a word expanded again costs little, while 20,000 expansions held long enough to
 * be promoted kept the server's lifetime peak at 303 MB under the bench (287 MB with 8,000).
 */
const CACHE_SIZE = 8_000;

export class Expander {
  readonly #d: IndexData;
  readonly #cache = new Map<string, Expansion>();
  readonly #typos: Typos;

  constructor(data: IndexData) {
    this.#d = data;
    this.#typos = new Typos(data);
  }

  expand(word: QueryWord): Expansion {
    const key = `${word.text}\u0000${word.last ? 1 : 0}${word.open ? 1 : 0}`;
    let e = this.#cache.get(key);
    if (e) return e;
    const d = this.#d;
    const ids = (list: readonly string[]) => list.map((t) => this.termId(t)).filter((t) => t >= 0);
    const whole = ids([word.text, ...word.synonyms]);
    const translated = ids(word.translations);
    const exact = word.open ? [] : whole;
    const translations = word.open ? [] : translated;
    const opened = word.open ? [...whole, ...translated] : [];
    const prefixNode = this.nodeOf(word.text);
    const prefixLo = prefixNode >= 0 ? d.nodeLo[prefixNode]! : 0;
    const prefixHi = prefixNode >= 0 ? d.nodeHi[prefixNode]! : 0;
    const typoNodes = word.last && word.typos > 0 ? this.#typos.nodes(word.text) : [];
    // A last word's subtrees hold every term its whole-word walk would find when no such term
    // may have more edits than the word's own budget (typos.ts, nodesHoldTerms): those terms
    // would add no document and no mark, and that walk cost a third of the typo walks.
    const typoTerms =
      typoBudget(word.text.length + 2) > 0 && !(word.last && word.typos > 0 && nodesHoldTerms(word.text.length))
        ? this.#typos.terms(word.text)
        : [];
    const wholeInRange = [...exact, ...translations].filter((t) => t >= prefixLo && t < prefixHi).length;
    const hasPrefix = prefixHi - prefixLo > wholeInRange || opened.length > 0;
    const hasTypo = typoTerms.length > 0 || typoNodes.length > 0;
    const bestNonExact = hasPrefix ? Kind.Prefix : hasTypo ? Kind.Typo : Kind.None;
    e = {
      key,
      exact,
      translations,
      opened,
      prefixNode,
      prefixLo,
      prefixHi,
      typoTerms,
      typoNodes,
      best: exact.length > 0 ? Kind.Exact : translations.length > 0 ? Kind.Translation : bestNonExact,
      bestNonExact,
    };
    if (this.#cache.size >= CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, e);
    return e;
  }

  /** The trie node spelling `text`, or -1. */
  nodeOf(text: string): number {
    let node = 0;
    for (let i = 0; i < text.length && node >= 0; i++) node = childOf(this.#d, node, text.charCodeAt(i));
    return node;
  }

  /** The id of the term `text`, or -1 when the vocabulary has no such term. */
  termId(text: string): number {
    const node = this.nodeOf(text);
    return node >= 0 ? this.#d.nodeTerm[node]! : -1;
  }
}
