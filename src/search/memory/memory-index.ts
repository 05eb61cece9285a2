// Answers searches from an index built by build.ts, with the semantics of src/domain/search/
// (held to the reference engine by the property tests), one step a module:
//
//   scope-bits.ts     the query's filters (state, levels, types, radius) as one bitset;
//   soft-matching.ts  each word's documents in scope and their AND: the matches, and their
//                     number, exact whatever the catalog's size;
//   equality.ts       the schools the query names, by the hash of its equality key;
//   top-k-walk.ts     the rest of the page, walked out of the matches in document order (the
//                     static order) until no later document can beat it, each graded from the
//                     forward index (grading.ts);
//   answers.ts        the rankings of the last queries, kept: a search box asks them again.
//
// This class puts the steps in order, passing each what it needs, and makes the page's hits.
import type { EngineHit, EnginePage, EngineQuery } from '../../domain/search/engine.port.ts';
import { withoutWords } from '../../domain/search/query.ts';
import { type Equality, similarityScore } from '../../domain/search/ranking-rules.ts';
import { RankedAnswers, RESULTS, rankedKey, type Ranked } from './answers.ts';
import { has } from './bitset.ts';
import { buffersOf } from './build.ts';
import { CatalogView } from './catalog-view.ts';
import { equalDocs } from './equality.ts';
import { Expander } from './expansion.ts';
import { docDistance } from './geo-grid.ts';
import { Grader, qualityOf } from './grading.ts';
import type { IndexData } from './index-data.ts';
import { ScopeBits } from './scope-bits.ts';
import { SoftMatching } from './soft-matching.ts';
import { TopKWalk } from './top-k-walk.ts';
import { WordSets } from './word-sets.ts';

/** The ranking of a query nothing matches. */
const NONE: Ranked = {
  total: 0,
  count: 0,
  docs: new Int32Array(0),
  keys: new Int32Array(0),
  equality: new Uint8Array(0),
  known: 0,
};

export class MemoryIndex {
  readonly #d: IndexData;
  readonly #catalog: CatalogView;
  readonly #answers: RankedAnswers;
  readonly #scope: ScopeBits;
  readonly #matching: SoftMatching;
  readonly #grader: Grader;
  readonly #walk: TopKWalk;
  #released = false;

  /** `keptAnswers`: rankings kept (answers.ts, RESULTS; 0: none, for benchmarks that measure answering). */
  constructor(data: IndexData, options: { keptAnswers?: number } = {}) {
    this.#d = data;
    this.#catalog = new CatalogView(data);
    this.#answers = new RankedAnswers(options.keptAnswers ?? RESULTS);
    // The word sets are one cache of the index: soft matching and the walk both read it.
    const sets = new WordSets(data);
    this.#scope = new ScopeBits(data);
    this.#matching = new SoftMatching(data.docCount, new Expander(data), sets);
    this.#grader = new Grader(data);
    this.#walk = new TopKWalk(data, sets, this.#grader);
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
   * more), rather than when V8 next collects it, which can be long after a rebuild replaced it
   * (docs/search.md, a million schools): a second import would build beside both. For the owner
   * of the IndexData only (the engine, on the index it has just replaced: searches are
   * synchronous, none is under way on it).
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
    const scope = this.#scope.of(query);
    if (scope === null) return NONE;
    const { near } = query;
    const { known, expansions, matches, count } = this.#matching.match(query.plan, scope);
    // The words no document in scope has are left out as if not typed (the score still counts them).
    const knownPlan = withoutWords(query.plan, known);
    const { sequence } = knownPlan;
    const equal = equalDocs(this.#d, this.#catalog, knownPlan.canonical, scope, near);
    const total = count + equal.filter((e) => matches === undefined || !has(matches, e.doc)).length;
    const want = Math.min(end, total);
    if (want === 0) return { ...NONE, total, known: knownPlan.words.length };

    this.#grader.mark(expansions);
    try {
      const results = equal.map((e) => ({ ...e, key: this.#grader.grade(e.doc, expansions, sequence) }));
      const need = want - results.length;
      if (need > 0 && matches !== undefined) {
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
