// The documents a query word matches, as bitsets, cached by word (most recently used kept): the
// sets a search ANDs together. Built from the term and trie-node lists of the index.
import { popcount, wordsFor } from './bitset.ts';
import type { IndexData } from './index-data.ts';
import type { Expansion } from './expansion.ts';

/** Cached bitsets may take this many bytes (each is docCount / 8 bytes: 16 KB at 130,000 schools). */
const CACHE_BYTES = 16 * 1024 * 1024;

export class WordSets {
  readonly #d: IndexData;
  readonly #words: number;
  readonly #cache = new Map<string, Uint32Array>();
  /** The number of documents of each cached set, counted once. */
  readonly #sizes = new WeakMap<Uint32Array, number>();
  readonly #max: number;

  constructor(data: IndexData) {
    this.#d = data;
    this.#words = wordsFor(data.docCount);
    this.#max = Math.max(32, Math.floor(CACHE_BYTES / Math.max(4, this.#words * 4)));
  }

  /** The documents of every term the word matches; exactOnly: of its whole-word and translation terms. */
  matches(e: Expansion, exactOnly: boolean): Uint32Array {
    return this.#cached(exactOnly ? `=${e.key}` : e.key, (set) => {
      for (const t of e.exact) this.#orList(set, t);
      for (const t of e.translations) this.#orList(set, t);
      if (exactOnly) return;
      for (const t of e.opened) this.#orList(set, t);
      if (e.prefixNode >= 0) this.#orNode(set, e.prefixNode);
      for (const t of e.typoTerms) this.#orList(set, t);
      for (const node of e.typoNodes) this.#orNode(set, node);
    });
  }

  /** How many documents a set of this cache holds. */
  size(set: Uint32Array): number {
    let n = this.#sizes.get(set);
    if (n === undefined) {
      n = popcount(set);
      this.#sizes.set(set, n);
    }
    return n;
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
    if (hit) {
      // Least recently used goes first: re-insert what is used.
      this.#cache.delete(key);
      this.#cache.set(key, hit);
      return hit;
    }
    const set = new Uint32Array(this.#words);
    fill(set);
    if (this.#cache.size >= this.#max) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, set);
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
