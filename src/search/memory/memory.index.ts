// Answers searches from an index built by build.ts, with the semantics of
// src/domain/search/ (held to the reference engine by the property tests).
//
// A query word's documents are a bitset (the union of the lists of its whole-word, prefix and
// typo terms), cached per word; the matches are the AND of the words' bitsets (and the state's),
// so a total is a population count, exact whatever the catalog's size. The page is found by
// walking the matches in document order, which is the static order, grading each from the
// forward index, and stopping once the page is full of matches no later document can beat.
import { canonicalKey } from '../../domain/search/analysis.ts';
import type { CatalogSchool, EngineHit, EnginePage, EngineQuery } from '../../domain/search/engine.ts';
import { MAX_QUERY_WORDS, type QueryWord } from '../../domain/search/query.ts';
import { BEST_CREDIT, credit, Field, Kind, similarityScore, type Equality } from '../../domain/search/ranking.ts';
import { and, andNot, has, isEmpty, popcount, wordsFor } from './bitset.ts';
import { childOf, hash32, STATE_LIST, type IndexData } from './build.ts';
import { typoMatches } from './typos.ts';

/** How the terms of the vocabulary match one query word. */
interface Expansion {
  readonly key: string;
  /** Terms that are the word or a synonym. */
  readonly exact: readonly number[];
  /** The trie node of the word itself (every term starting with it), or -1. */
  readonly prefixNode: number;
  readonly prefixLo: number;
  readonly prefixHi: number;
  /** Terms and subtrees within the word's typo budget. */
  readonly typoTerms: readonly number[];
  readonly typoNodes: readonly number[];
  /** The best kinds any term offers, and the best short of whole words (for the page's early stop). */
  readonly best: Kind;
  readonly bestNonExact: Kind;
}

/** Name credit by kind: the most a word can earn with a match of that kind. */
const TOP_CREDIT = [0, credit(Kind.Typo, Field.Name), credit(Kind.Prefix, Field.Name), credit(Kind.Exact, Field.Name)] as const;
const KEY_SCALE = 1024;
/** Cached word bitsets may take this many bytes. */
const SET_CACHE_BYTES = 48 * 1024 * 1024;
const EXPANSION_CACHE_SIZE = 20_000;

const CREDIT_TABLE = new Int32Array(12);
for (const field of [Field.Name, Field.Alias, Field.City]) {
  for (const kind of [Kind.Typo, Kind.Prefix, Kind.Exact]) CREDIT_TABLE[(field << 2) | kind] = credit(kind, field);
}

export class MemoryIndex {
  readonly #d: IndexData;
  readonly #rows: readonly CatalogSchool[];
  readonly #words: number;
  readonly #expansions = new Map<string, Expansion>();
  readonly #sets = new Map<string, Uint32Array>();
  readonly #maxSets: number;
  readonly #scratch: Uint32Array[];
  readonly #marks: Uint8Array[];
  /** Per query word slot: the documents' best credit so far, reused by #grade. */
  readonly #best = new Int32Array(MAX_QUERY_WORDS);

  constructor(data: IndexData, rows: readonly CatalogSchool[]) {
    this.#d = data;
    this.#rows = rows;
    this.#words = wordsFor(data.docCount);
    this.#maxSets = Math.max(32, Math.floor(SET_CACHE_BYTES / Math.max(4, this.#words * 4)));
    this.#scratch = Array.from({ length: MAX_QUERY_WORDS + 3 }, () => new Uint32Array(this.#words));
    this.#marks = Array.from({ length: MAX_QUERY_WORDS }, () => new Uint8Array(data.termCount));
  }

  get size(): number {
    return this.#d.docCount;
  }

  search(query: EngineQuery): EnginePage {
    const plan = query.plan;
    const n = Math.min(plan.words.length, MAX_QUERY_WORDS);
    if (n === 0 || this.#d.docCount === 0) return { total: 0, hits: [] };
    let filter: Uint32Array | undefined;
    let stateIndex = -1;
    if (query.state !== undefined) {
      stateIndex = STATE_LIST.indexOf(query.state);
      if (stateIndex < 0) return { total: 0, hits: [] };
      filter = this.#d.stateSets.subarray(stateIndex * this.#words, (stateIndex + 1) * this.#words);
    }

    // Each word's matching documents, and how many.
    const expansions: Expansion[] = [];
    const sets: Uint32Array[] = [];
    const sizes: number[] = [];
    for (let i = 0; i < n; i++) {
      const e = this.#expand(plan.words[i]!);
      const all = this.#wordSet(e, false);
      const set = filter ? and(this.#scratch[i]!, all, filter) : all;
      expansions.push(e);
      sets.push(set);
      sizes.push(popcount(set));
    }

    // Soft matching: the words nothing has are dropped, then the most common one at a time
    // (on a tie, the later one), until some document has all that remain.
    let required = sizes.map((_, i) => i).filter((i) => sizes[i]! > 0);
    const matches = this.#scratch[MAX_QUERY_WORDS]!;
    const intersect = () => {
      matches.set(sets[required[0]!]!);
      for (let k = 1; k < required.length; k++) and(matches, matches, sets[required[k]!]!);
    };
    if (required.length > 0) intersect();
    while (required.length > 0 && isEmpty(matches)) {
      let drop = required[0]!;
      for (const i of required) if (sizes[i]! >= sizes[drop]!) drop = i;
      required = required.filter((i) => i !== drop);
      if (required.length > 0) intersect();
    }
    const anyMatch = required.length > 0;

    const equal = this.#equalDocs(plan.canonical, stateIndex);
    const extraEqual = equal.filter((e) => !anyMatch || !has(matches, e.doc)).length;
    const total = (anyMatch ? popcount(matches) : 0) + extraEqual;
    const end = Math.min(query.offset + query.limit, total);
    if (query.offset >= end) return { total, hits: [] };

    this.#mark(expansions);
    try {
      const ranked: { doc: number; equality: Equality; key: number }[] = equal.map((e) => ({ ...e, key: this.#grade(e.doc, expansions) }));
      const need = end - ranked.length;
      if (need > 0 && anyMatch) {
        const skip = new Set(equal.map((e) => e.doc));
        for (const { doc, key } of this.#top(need, matches, expansions, sizes, skip)) ranked.push({ doc, equality: 0, key });
      }
      const hits: EngineHit[] = ranked.slice(query.offset, end).map(({ doc, equality, key }) => {
        const row = this.#rows[this.#d.order[doc]!]!;
        const matched = Math.floor(key / KEY_SCALE);
        return {
          school: { id: row.id, name: row.name, city: row.city, state: row.state, imageUrl: row.imageUrl },
          score: similarityScore({ equality, matched, credit: key - matched * KEY_SCALE }, n),
        };
      });
      return { total, hits };
    } finally {
      this.#unmark(expansions);
    }
  }

  /**
   * The `need` best documents of `matches` (equality aside), best first: by words found, then
   * credit, then document number. Documents are walked in order; the walk stops as soon as the
   * page holds `need` documents that no later one can beat (a later one wins only with a better
   * grade, and the best grade possible is known from the words' expansions).
   */
  #top(need: number, matches: Uint32Array, expansions: readonly Expansion[], sizes: readonly number[], skip: ReadonlySet<number>): { doc: number; key: number }[] {
    const heap = new Heap(need);
    // The best grade any document can have: every word that matches anything, at its best kind.
    let maxMatched = 0;
    let maxCredit = 0;
    for (let i = 0; i < expansions.length; i++) {
      if (sizes[i]! === 0) continue;
      maxMatched++;
      maxCredit += TOP_CREDIT[expansions[i]!.best];
    }
    const bound1 = maxMatched * KEY_SCALE + maxCredit;
    // Documents with a whole-word match for every word that has whole words are walked first;
    // the rest miss at least one of those, which bounds their grade lower (bound2).
    const exactWords = expansions.map((e, i) => i).filter((i) => sizes[i]! > 0 && expansions[i]!.best === Kind.Exact);
    let bound2 = bound1;
    let rest = matches;
    if (exactWords.length > 0) {
      const first = this.#scratch[MAX_QUERY_WORDS + 1]!;
      first.set(matches);
      for (const i of exactWords) and(first, first, this.#wordSet(expansions[i]!, true));
      bound2 = -1;
      for (const i of exactWords) {
        const fallback = expansions[i]!.bestNonExact;
        const key = fallback === Kind.None ? bound1 - KEY_SCALE - BEST_CREDIT : bound1 - BEST_CREDIT + TOP_CREDIT[fallback];
        if (key > bound2) bound2 = key;
      }
      if (!this.#walk(first, heap, expansions, skip, bound1)) return heap.sorted();
      rest = andNot(this.#scratch[MAX_QUERY_WORDS + 2]!, matches, first);
    }
    this.#walk(rest, heap, expansions, skip, bound2);
    return heap.sorted();
  }

  /** Offers the documents of `set` to the heap, in order; false when it stopped early (the page is settled). */
  #walk(set: Uint32Array, heap: Heap, expansions: readonly Expansion[], skip: ReadonlySet<number>, bound: number): boolean {
    for (let w = 0; w < set.length; w++) {
      let bits = set[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const doc = (w << 5) | (31 - Math.clz32(low));
        // No document from here on can beat the worst kept: its key is at most `bound`, and its
        // number is higher (the first walk's documents may come after the second's).
        if (heap.full && (heap.worstKey > bound || (heap.worstKey === bound && doc > heap.worstDoc))) return false;
        if (skip.size > 0 && skip.has(doc)) continue;
        heap.offer(doc, this.#grade(doc, expansions));
      }
    }
    return true;
  }

  /** matched × KEY_SCALE + credit of a document, from its forward entries. */
  #grade(doc: number, expansions: readonly Expansion[]): number {
    const d = this.#d;
    const n = expansions.length;
    const best = this.#best;
    best.fill(0, 0, n);
    const end = d.fwdStart[doc + 1]!;
    for (let at = d.fwdStart[doc]!; at < end; at++) {
      const entry = d.fwd[at]!;
      const term = entry >>> 2;
      const field = entry & 3;
      for (let i = 0; i < n; i++) {
        const mark = this.#marks[i]![term]!;
        const e = expansions[i]!;
        const kind = mark === Kind.Exact ? Kind.Exact : term >= e.prefixLo && term < e.prefixHi ? Kind.Prefix : mark;
        if (kind !== 0) {
          const c = CREDIT_TABLE[(field << 2) | kind]!;
          if (c > best[i]!) best[i] = c;
        }
      }
    }
    let matched = 0;
    let sum = 0;
    for (let i = 0; i < n; i++) {
      if (best[i]! > 0) {
        matched++;
        sum += best[i]!;
      }
    }
    return matched * KEY_SCALE + sum;
  }

  /** Marks, per query word, its exact terms (3) and typo terms (1), for #grade. */
  #mark(expansions: readonly Expansion[]): void {
    expansions.forEach((e, i) => this.#paint(this.#marks[i]!, e, true));
  }

  #unmark(expansions: readonly Expansion[]): void {
    expansions.forEach((e, i) => this.#paint(this.#marks[i]!, e, false));
  }

  #paint(marks: Uint8Array, e: Expansion, on: boolean): void {
    const d = this.#d;
    for (const t of e.typoTerms) marks[t] = on ? Kind.Typo : 0;
    for (const node of e.typoNodes) marks.fill(on ? Kind.Typo : 0, d.nodeLo[node]!, d.nodeHi[node]!);
    for (const t of e.exact) marks[t] = on ? Kind.Exact : 0;
  }

  /** Documents whose name (2) or an alternative name (1) has the query's equality key, best first. */
  #equalDocs(canonical: string, stateIndex: number): { doc: number; equality: Equality }[] {
    if (!canonical) return [];
    const d = this.#d;
    const hash = hash32(canonical);
    let low = 0;
    let high = d.eqHash.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (d.eqHash[mid]! < hash) low = mid + 1;
      else high = mid;
    }
    const found = new Map<number, Equality>();
    for (let at = low; at < d.eqHash.length && d.eqHash[at] === hash; at++) {
      const doc = d.eqDoc[at]!;
      if (stateIndex >= 0 && d.docState[doc] !== stateIndex) continue;
      const row = this.#rows[d.order[doc]!]!;
      const equality: Equality = d.eqField[at] === 2 ? 2 : 1;
      // A hash collision is not equality: check the text itself.
      const real = equality === 2 ? canonicalKey(row.name) === canonical : row.aliases.some((a) => canonicalKey(a) === canonical);
      if (real && equality > (found.get(doc) ?? 0)) found.set(doc, equality);
    }
    return [...found].map(([doc, equality]) => ({ doc, equality })).sort((a, b) => b.equality - a.equality || a.doc - b.doc);
  }

  #expand(word: QueryWord): Expansion {
    const key = `${word.text}\u0000${word.last ? 1 : 0}`;
    let e = this.#expansions.get(key);
    if (e) return e;
    const d = this.#d;
    const exact = [word.text, ...word.synonyms].map((t) => this.#termId(t)).filter((t) => t >= 0);
    const prefixNode = this.#nodeOf(word.text);
    const prefixLo = prefixNode >= 0 ? d.nodeLo[prefixNode]! : 0;
    const prefixHi = prefixNode >= 0 ? d.nodeHi[prefixNode]! : 0;
    const typos = word.typos > 0 ? typoMatches(d, word.text, word.typos, word.last) : { terms: [], nodes: [] };
    const exactInRange = exact.filter((t) => t >= prefixLo && t < prefixHi).length;
    const hasPrefix = prefixHi - prefixLo > exactInRange;
    const hasTypo = typos.terms.length > 0 || typos.nodes.length > 0;
    const bestNonExact = hasPrefix ? Kind.Prefix : hasTypo ? Kind.Typo : Kind.None;
    e = {
      key,
      exact,
      prefixNode,
      prefixLo,
      prefixHi,
      typoTerms: typos.terms,
      typoNodes: typos.nodes,
      best: exact.length > 0 ? Kind.Exact : bestNonExact,
      bestNonExact,
    };
    if (this.#expansions.size >= EXPANSION_CACHE_SIZE) this.#expansions.delete(this.#expansions.keys().next().value!);
    this.#expansions.set(key, e);
    return e;
  }

  /** The documents of every term a word matches (exactOnly: of its whole-word terms), cached. */
  #wordSet(e: Expansion, exactOnly: boolean): Uint32Array {
    const key = exactOnly ? `=${e.key}` : e.key;
    const cached = this.#sets.get(key);
    if (cached) {
      // Least recently used goes first: re-insert what is used.
      this.#sets.delete(key);
      this.#sets.set(key, cached);
      return cached;
    }
    const set = new Uint32Array(this.#words);
    for (const t of e.exact) this.#orList(set, t);
    if (!exactOnly) {
      if (e.prefixNode >= 0) this.#orNode(set, e.prefixNode);
      for (const t of e.typoTerms) this.#orList(set, t);
      for (const node of e.typoNodes) this.#orNode(set, node);
    }
    if (this.#sets.size >= this.#maxSets) this.#sets.delete(this.#sets.keys().next().value!);
    this.#sets.set(key, set);
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

  #nodeOf(text: string): number {
    let node = 0;
    for (let i = 0; i < text.length && node >= 0; i++) node = childOf(this.#d, node, text.charCodeAt(i));
    return node;
  }

  #termId(text: string): number {
    const node = this.#nodeOf(text);
    return node >= 0 ? this.#d.nodeTerm[node]! : -1;
  }
}

/**
 * The best `capacity` (document, key) pairs offered: higher key first, then lower document. A
 * min-heap on that order, so its root is the worst kept.
 */
class Heap {
  readonly capacity: number;
  readonly #docs: Int32Array;
  readonly #keys: Int32Array;
  #size = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
    this.#docs = new Int32Array(capacity);
    this.#keys = new Int32Array(capacity);
  }

  get full(): boolean {
    return this.#size === this.capacity;
  }

  get worstKey(): number {
    return this.#keys[0]!;
  }

  get worstDoc(): number {
    return this.#docs[0]!;
  }

  /** a is worse than b. */
  #worse(a: number, b: number): boolean {
    const ka = this.#keys[a]!;
    const kb = this.#keys[b]!;
    return ka < kb || (ka === kb && this.#docs[a]! > this.#docs[b]!);
  }

  offer(doc: number, key: number): void {
    if (this.#size < this.capacity) {
      let i = this.#size++;
      this.#docs[i] = doc;
      this.#keys[i] = key;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.#worse(i, parent)) break;
        this.#swap(i, parent);
        i = parent;
      }
      return;
    }
    if (key < this.#keys[0]! || (key === this.#keys[0]! && doc > this.#docs[0]!)) return;
    this.#docs[0] = doc;
    this.#keys[0] = key;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.#size && this.#worse(l, worst)) worst = l;
      if (r < this.#size && this.#worse(r, worst)) worst = r;
      if (worst === i) break;
      this.#swap(i, worst);
      i = worst;
    }
  }

  #swap(a: number, b: number): void {
    const doc = this.#docs[a]!;
    const key = this.#keys[a]!;
    this.#docs[a] = this.#docs[b]!;
    this.#keys[a] = this.#keys[b]!;
    this.#docs[b] = doc;
    this.#keys[b] = key;
  }

  sorted(): { doc: number; key: number }[] {
    const out: { doc: number; key: number }[] = [];
    for (let i = 0; i < this.#size; i++) out.push({ doc: this.#docs[i]!, key: this.#keys[i]! });
    return out.sort((a, b) => b.key - a.key || a.doc - b.doc);
  }
}
