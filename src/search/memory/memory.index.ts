// Answers searches from an index built by build.ts, with the semantics of
// src/domain/search/ (held to the reference engine by the property tests).
//
// A query word's documents are a bitset (the union of the lists of its whole-word, prefix and
// typo terms), cached per word; the matches are the AND of the words' bitsets and the scope's
// (state, levels, types, radius: scope-bits.ts), so a total is a population count, exact whatever
// the catalog's size. The page is found by walking the matches in document order, which is the
// static order, grading each from the forward index, and stopping once the page is full of
// matches no later document can beat. With a `near` point, equal grades are ordered by distance
// before the static order: the walk then goes on through the documents that can tie the page's
// worst, measuring only those inside the box of its distance (geo-grid.ts).
import type { EngineHit, EnginePage, EngineQuery } from '../../domain/search/engine.port.ts';
import { MAX_QUERY_WORDS, withoutWords } from '../../domain/search/query.ts';
import { Kind, similarityScore, type Equality } from '../../domain/search/ranking-rules.ts';
import { andCount, has, wordsFor } from './bitset.ts';
import { buffersOf } from './build.ts';
import { docDistance } from './geo-grid.ts';
import type { IndexData } from './index-data.ts';
import { CatalogView } from './catalog.view.ts';
import { Expander, type Expansion } from './expansion.ts';
import { WordSets } from './word-sets.ts';
import { RankedAnswers, RESULTS, rankedKey, type Ranked } from './answers.ts';
import { ScopeBits } from './scope-bits.ts';
import { equalDocs } from './equality.ts';
import { Grader, qualityOf } from './grading.ts';
import { TopKWalk } from './top-k-walk.ts';

export class MemoryIndex {
  readonly #d: IndexData;
  readonly #catalog: CatalogView;
  readonly #answers: RankedAnswers;
  readonly #words: number;
  readonly #expander: Expander;
  readonly #sets: WordSets;
  readonly #scratch: Uint32Array[];
  readonly #grader: Grader;
  readonly #scope: ScopeBits;
  readonly #walk: TopKWalk;
  #released = false;

  /** `keptAnswers`: rankings kept (answers.ts, RESULTS; 0: none, for benchmarks that measure answering). */
  constructor(data: IndexData, options: { keptAnswers?: number } = {}) {
    this.#answers = new RankedAnswers(options.keptAnswers ?? RESULTS);
    this.#d = data;
    this.#catalog = new CatalogView(data);
    this.#words = wordsFor(data.docCount);
    this.#expander = new Expander(data);
    this.#sets = new WordSets(data);
    this.#scratch = Array.from({ length: MAX_QUERY_WORDS + 1 }, () => new Uint32Array(this.#words));
    this.#grader = new Grader(data);
    this.#scope = new ScopeBits(data);
    this.#walk = new TopKWalk(data, this.#sets, this.#grader);
  }

  get size(): number {
    return this.#d.docCount;
  }

  /** Documents graded by the searches so far: what walking to a page cost (tests and benchmarks read it). */
  get graded(): number {
    return this.#grader.graded;
  }

  /**
   * Gives the memory of the index's arrays back now (they are detached: this index answers no
   * more), rather than when V8 next collects it, which can be long: at a million schools the
   * 258 MB of an index replaced by a rebuild were still resident 10 s later, and a second import
   * would have built beside both. For the owner of the IndexData only (the engine, on the index
   * it has just replaced: searches are synchronous, none is under way on it).
   */
  release(): void {
    this.#released = true;
    this.#answers.clear();
    for (const buffer of buffersOf(this.#d)) buffer.transfer(0);
  }

  search(query: EngineQuery): EnginePage {
    if (this.#released) throw new Error('this index was released: search the one that replaced it');
    const { plan } = query;
    if (plan.words.length === 0 || this.#d.docCount === 0) return { total: 0, hits: [] };
    const end = query.offset + query.limit;
    const key = rankedKey(query);
    const kept = this.#answers.take(key, end);
    const ranked = kept ?? this.#rank(query, end);
    this.#answers.keep(key, ranked, kept === undefined);
    const hits: EngineHit[] = [];
    for (let i = query.offset; i < Math.min(end, ranked.count); i++) {
      const doc = ranked.docs[i]!;
      const quality = qualityOf(ranked.keys[i]!, ranked.equality[i] as Equality);
      const school = this.#catalog.school(doc);
      const score = similarityScore(quality, ranked.known, plan.words.length);
      const distanceKm = query.near === undefined ? undefined : docDistance(this.#d, doc, query.near);
      hits.push(distanceKm === undefined ? { school, score } : { school, score, distanceKm });
    }
    return { total: ranked.total, hits };
  }

  /** The first `end` results of a query in order, and its total. */
  #rank(query: EngineQuery, end: number): Ranked {
    const none: Ranked = {
      total: 0,
      count: 0,
      docs: new Int32Array(0),
      keys: new Int32Array(0),
      equality: new Uint8Array(0),
      known: 0,
    };
    const filter = this.#scope.of(query);
    if (filter === null) return none;
    const near = query.near;

    // Each word's matching documents, and how many. Words no document has are left out as if
    // not typed (withoutWords); the score still counts them.
    const expansions: Expansion[] = [];
    const sets: Uint32Array[] = [];
    const sizes: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < query.plan.words.length; i++) {
      const e = this.#expander.expand(query.plan.words[i]!);
      const all = this.#sets.atLeast(e, Kind.Typo);
      let set = all;
      let size: number;
      if (filter) {
        set = this.#scratch[known.length]!;
        size = andCount(set, all, filter);
      } else size = this.#sets.size(all);
      if (size === 0) continue;
      known.push(i);
      expansions.push(e);
      sets.push(set);
      sizes.push(size);
    }
    // The plan of the words some document in scope has.
    const knownPlan = withoutWords(query.plan, known);

    // Soft matching: the most common word is dropped, one at a time (on a tie, the later one),
    // until some document has all that remain.
    let required = sizes.map((_, i) => i);
    const matches = this.#scratch[MAX_QUERY_WORDS]!;
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
    const anyMatch = required.length > 0;

    const equal = equalDocs(this.#d, this.#catalog, knownPlan.canonical, filter, near);
    const extraEqual = equal.filter((e) => !anyMatch || !has(matches, e.doc)).length;
    const total = count + extraEqual;
    const want = Math.min(end, total);
    if (want === 0) return { ...none, total, known: knownPlan.words.length };

    const { sequence } = knownPlan;
    this.#grader.mark(expansions);
    try {
      const results: { doc: number; equality: Equality; key: number }[] = equal.map((e) => ({
        ...e,
        key: this.#grader.grade(e.doc, expansions, sequence),
      }));
      const need = want - results.length;
      if (need > 0 && anyMatch) {
        const skip = new Set(equal.map((e) => e.doc));
        for (const { doc, key } of this.#walk.top(need, { matches, skip, expansions, sequence, near }))
          results.push({ doc, equality: 0, key });
      }
      const page = results.slice(0, want);
      return {
        total,
        count: page.length,
        docs: Int32Array.from(page, (r) => r.doc),
        keys: Int32Array.from(page, (r) => r.key),
        equality: Uint8Array.from(page, (r) => r.equality),
        known: knownPlan.words.length,
      };
    } finally {
      this.#grader.unmark(expansions);
    }
  }
}
