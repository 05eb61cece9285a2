// The documents a query word matches, as bitsets, cached by word (most recently used kept): the
// sets a search ANDs together. Built from the term and trie-node lists of the index.
//
// The sets live in slots of one buffer, and a set that goes makes room for the next in its slot:
// a new array per set (19 KB at 150,000 schools) made thousands of them garbage a second while
// queries were new, held until V8 next collected, and that external memory was the server's
// peak RSS after 20,000 distinct searches.
import { popcount, wordsFor } from './bitset.ts';
import type { IndexData } from './index-data.ts';
import type { Expansion } from './expansion.ts';
import { Kind } from '../../domain/search/ranking-rules.ts';

/**
 * Cached bitsets may take this many bytes (each is docCount / 8 bytes: 19 KB at 150,000 schools,
 * so 448 sets). 8 MiB, not 16: with repeated searches answered from the ranked answers kept
 * (answers.ts), the engine alone answered the bench's mix as fast (3.3 s of CPU for 20,000
 * searches of it against 3.8 s) and 21,696 distinct searches too (18.4 s against 20.5 s), and
 * the server's RSS is 8 MiB lower once the slots are used.
 */
const CACHE_BYTES = 8 * 1024 * 1024;

export class WordSets {
  readonly #d: IndexData;
  readonly #words: number;
  /** Key → slot, least recently used first. */
  readonly #cache = new Map<string, number>();
  readonly #max: number;
  /** The slots' buffer: its pages become resident as slots are first used. */
  readonly #pool: Uint32Array;
  readonly #views: Uint32Array[] = [];
  readonly #slotOf = new Map<Uint32Array, number>();
  /** The number of documents of each slot's set, counted once (-1: not yet). */
  readonly #sizes: Int32Array;

  constructor(data: IndexData) {
    this.#d = data;
    this.#words = wordsFor(data.docCount);
    // At most 4,096 slots: a small catalog needs no 16 MiB of them.
    this.#max = Math.min(4096, Math.max(32, Math.floor(CACHE_BYTES / Math.max(4, this.#words * 4))));
    this.#pool = new Uint32Array(this.#max * this.#words);
    this.#sizes = new Int32Array(this.#max).fill(-1);
  }

  /**
   * The documents the word matches with a term of kind `from` or better: Typo, every term it
   * matches; Prefix, all but its typos; Translation, its whole-word and translation terms.
   */
  atLeast(e: Expansion, from: Kind): Uint32Array {
    const key = from === Kind.Typo ? e.key : from === Kind.Prefix ? `>${e.key}` : `=${e.key}`;
    return this.#cached(key, (set) => {
      for (const t of e.exact) this.#orList(set, t);
      for (const t of e.translations) this.#orList(set, t);
      if (from >= Kind.Translation) return;
      for (const t of e.opened) this.#orList(set, t);
      if (e.prefixNode >= 0) this.#orNode(set, e.prefixNode);
      if (from >= Kind.Prefix) return;
      for (const t of e.typoTerms) this.#orList(set, t);
      for (const node of e.typoNodes) this.#orNode(set, node);
    });
  }

  /** How many documents a set of this cache holds. */
  size(set: Uint32Array): number {
    const slot = this.#slotOf.get(set);
    if (slot === undefined) return popcount(set);
    if (this.#sizes[slot]! < 0) this.#sizes[slot] = popcount(set);
    return this.#sizes[slot]!;
  }

  /** The documents whose name's first word the word matches (any kind): those that can start with it. */
  firstWord(e: Expansion): Uint32Array {
    const d = this.#d;
    return this.#cached(`^${e.key}`, (set) => {
      const add = (term: number) => {
        for (let i = d.firstStart[term]!; i < d.firstStart[term + 1]!; i++) {
          const doc = d.firstDocs[i]!;
          set[doc >>> 5]! |= 1 << (doc & 31);
        }
      };
      for (const t of [...e.exact, ...e.translations, ...e.opened, ...e.typoTerms]) add(t);
      for (let t = e.prefixLo; t < e.prefixHi; t++) add(t);
      for (const node of e.typoNodes) for (let t = d.nodeLo[node]!; t < d.nodeHi[node]!; t++) add(t);
    });
  }

  #cached(key: string, fill: (set: Uint32Array) => void): Uint32Array {
    const hit = this.#cache.get(key);
    if (hit !== undefined) {
      // Least recently used goes first: re-insert what is used.
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return this.#views[hit]!;
    }
    // A free slot, or the least recently used one's: a search holds far fewer sets than there
    // are slots, and those it holds were just used.
    let slot = this.#views.length;
    let set: Uint32Array;
    if (slot < this.#max) {
      set = this.#pool.subarray(slot * this.#words, (slot + 1) * this.#words);
      this.#views.push(set);
      this.#slotOf.set(set, slot);
    } else {
      const [oldest, freed] = this.#cache.entries().next().value!;
      this.#cache.delete(oldest);
      slot = freed;
      set = this.#views[slot]!;
      set.fill(0);
      this.#sizes[slot] = -1;
    }
    fill(set);
    this.#cache.set(key, slot);
    return set;
  }

  #orNode(set: Uint32Array, node: number): void {
    const d = this.#d;
    const list = d.nodeList[node]!;
    if (list >= 0) this.#orList(set, list);
    else for (let t = d.nodeLo[node]!; t < d.nodeHi[node]!; t++) this.#orList(set, t);
  }

  #orList(set: Uint32Array, list: number): void {
    const d = this.#d;
    const dense = d.listDense[list]!;
    if (dense >= 0) {
      for (let w = 0; w < set.length; w++) set[w]! |= d.dense[dense + w]!;
      return;
    }
    const start = d.listStart[list]!;
    const end = start + d.listCount[list]!;
    for (let i = start; i < end; i++) {
      const doc = d.sparse[i]!;
      set[doc >>> 5]! |= 1 << (doc & 31);
    }
  }
}
