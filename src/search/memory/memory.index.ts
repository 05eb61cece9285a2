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
import type { GeoPoint } from '../../domain/catalog/geo.ts';
import { MAX_QUERY_WORDS, withoutWords } from '../../domain/search/query.ts';
import { Kind, similarityScore, type Equality } from '../../domain/search/ranking-rules.ts';
import { and, andCount, has, wordsFor } from './bitset.ts';
import { buffersOf } from './build.ts';
import { docDistance, GeoBox } from './geo-grid.ts';
import type { IndexData } from './index-data.ts';
import { CatalogView } from './catalog.view.ts';
import { Expander, type Expansion } from './expansion.ts';
import { Heap } from './heap.ts';
import { WordSets } from './word-sets.ts';
import { RankedAnswers, RESULTS, rankedKey, type Ranked } from './answers.ts';
import { ScopeBits } from './scope-bits.ts';
import { equalDocs } from './equality.ts';
import { Grader, KEY_SCALE, qualityOf, TOP_CREDIT } from './grading.ts';

/** A distance the heap compares: unknown ones (and all of them without `near`) after any known one. */
const FAR = Number.POSITIVE_INFINITY;

export class MemoryIndex {
  readonly #d: IndexData;
  readonly #catalog: CatalogView;
  readonly #answers: RankedAnswers;
  readonly #words: number;
  readonly #expander: Expander;
  readonly #sets: WordSets;
  readonly #scratch: Uint32Array[];
  readonly #grader: Grader;
  /** The indexes of the non-empty words of a query's matches (#top). */
  readonly #occupied: Uint32Array;
  readonly #scope: ScopeBits;
  /** The box of the page's worst distance (#closer). */
  readonly #box = new GeoBox();
  #released = false;

  /** `keptAnswers`: rankings kept (answers.ts, RESULTS; 0: none, for benchmarks that measure answering). */
  constructor(data: IndexData, options: { keptAnswers?: number } = {}) {
    this.#answers = new RankedAnswers(options.keptAnswers ?? RESULTS);
    this.#d = data;
    this.#catalog = new CatalogView(data);
    this.#words = wordsFor(data.docCount);
    this.#expander = new Expander(data);
    this.#sets = new WordSets(data);
    this.#scratch = Array.from({ length: MAX_QUERY_WORDS + 3 }, () => new Uint32Array(this.#words));
    this.#grader = new Grader(data);
    this.#occupied = new Uint32Array(this.#words);
    this.#scope = new ScopeBits(data);
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
    // The box is made again for this query's point (#closer).
    this.#box.km = Number.NaN;

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
        for (const { doc, key } of this.#top(need, matches, expansions, sequence, skip, near))
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

  /**
   * The `need` best documents of `matches` (equality aside), best first: by grade (grading.ts),
   * then document number. The matches are walked in groups, each in document order, best possible
   * grade first: with a whole-word match for every word that has whole words (X) or not, able to
   * be spelled out whole by the query (its name has no more words than the query: C) or not, and
   * with a first name word the first query word matches (S) or not. The walk stops as soon as the
   * page holds `need` documents that nothing left to walk can beat.
   */
  #top(
    need: number,
    matches: Uint32Array,
    expansions: readonly Expansion[],
    sequence: readonly number[],
    skip: ReadonlySet<number>,
    near: GeoPoint | undefined,
  ): { doc: number; key: number }[] {
    const heap = new Heap(need);
    const d = this.#d;
    // The best grade any document can have: every word (each matches something), at its best kind.
    let maxCredit = 0;
    for (const e of expansions) maxCredit += TOP_CREDIT[e.best];
    const bound1 = expansions.length * KEY_SCALE + maxCredit * 4 + 3;
    // Documents missing the better match of some word that has better and worse ones grade
    // lower (bound2): a word with whole words (or translations), below which it has starts or
    // typos; a word with starts and typos only. Without the second, a typo of a common word
    // whose start few documents have (`schol`: `scholars`) bounded every group by a start's
    // credit: the page, all typos, could never beat it, and the walk graded every match (750,000
    // at a million schools, 60-100 ms).
    const splits = expansions.flatMap((e, i) => {
      const split = splitOf(e);
      return split ? [{ i, ...split }] : [];
    });
    let whole: Uint32Array | undefined;
    let bound2 = bound1;
    if (splits.length > 0) {
      whole = this.#scratch[MAX_QUERY_WORDS + 1]!;
      whole.set(matches);
      for (const { i, from } of splits) and(whole, whole, this.#sets.atLeast(expansions[i]!, from));
      bound2 = -1;
      for (const { i, below } of splits) {
        const { best } = expansions[i]!;
        const key =
          below === Kind.None
            ? bound1 - KEY_SCALE - 4 * TOP_CREDIT[best]
            : bound1 - 4 * (TOP_CREDIT[best] - TOP_CREDIT[below]);
        if (key > bound2) bound2 = key;
      }
    }
    const words = this.#words;
    const short = d.lengthSets.subarray((expansions.length - 1) * words, expansions.length * words);
    const first = this.#sets.firstWord(expansions[sequence[0]!]!);
    // The words of `matches` that hold any document: a rare query walks a few, not all.
    const occupied = this.#occupied;
    let count = 0;
    for (let w = 0; w < words; w++) if (matches[w] !== 0) occupied[count++] = w;
    const walk = { matches, occupied, count, short, first, whole, heap, expansions, sequence, skip, near };
    for (const inWhole of whole ? [true, false] : [false]) {
      const base = inWhole || !whole ? bound1 : bound2;
      for (const covers of [true, false]) {
        for (const starts of [true, false]) {
          const bound = base - (covers ? 0 : 2) - (starts ? 0 : 1);
          // Groups come best bound first: once the page beats a group's bound, it beats the rest.
          if (heap.full && heap.worstKey > bound) return heap.sorted();
          this.#walk(walk, covers, starts, inWhole, bound);
        }
      }
    }
    return heap.sorted();
  }

  /**
   * Offers the documents of one group (inside or outside each of C, S and X) to the heap, in
   * order, until nothing left in the group can beat the heap.
   */
  #walk(
    g: {
      matches: Uint32Array;
      occupied: Uint32Array;
      count: number;
      short: Uint32Array;
      first: Uint32Array;
      whole: Uint32Array | undefined;
      heap: Heap;
      expansions: readonly Expansion[];
      sequence: readonly number[];
      skip: ReadonlySet<number>;
      near: GeoPoint | undefined;
    },
    covers: boolean,
    starts: boolean,
    inWhole: boolean,
    bound: number,
  ): void {
    const { matches, occupied, count, short, first, whole, heap, expansions, sequence, skip, near } = g;
    // x ^ 0 keeps a mask, x ^ -1 inverts it.
    const flipC = covers ? 0 : -1;
    const flipS = starts ? 0 : -1;
    const flipX = inWhole ? 0 : -1;
    for (let k = 0; k < count; k++) {
      const w = occupied[k]!;
      let bits = matches[w]! & (short[w]! ^ flipC) & (first[w]! ^ flipS);
      if (whole) bits &= whole[w]! ^ flipX;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const doc = (w << 5) | (31 - Math.clz32(low));
        let distance = FAR;
        if (heap.full && heap.worstKey >= bound) {
          // No document from here on can have a better grade than the worst kept: its key is at
          // most `bound`.
          if (heap.worstKey > bound) return;
          if (near === undefined) {
            // Nor a better number (documents of an earlier group may come after this one's).
            if (doc > heap.worstDoc) return;
          } else {
            // It can tie the worst kept at best: then only if it is nearer, which is checked
            // before it is graded. The rest of the group is walked: a later one may be nearer.
            distance = this.#closer(doc, near, heap);
            if (distance < 0) continue;
          }
        } else if (near !== undefined) distance = docDistance(this.#d, doc, near) ?? FAR;
        if (skip.size > 0 && skip.has(doc)) continue;
        heap.offer(doc, this.#grader.grade(doc, expansions, sequence), distance);
      }
    }
  }

  /**
   * The document's distance (FAR when unknown) when it would beat the heap's worst at an equal
   * grade, otherwise -1. Outside the box of the worst's distance it is farther, unmeasured.
   */
  #closer(doc: number, near: GeoPoint, heap: Heap): number {
    const worst = heap.worstDistance;
    if (worst !== FAR) {
      const box = this.#box.km === worst ? this.#box : this.#box.around(near, worst);
      if (!box.contains(this.#d.docLat[doc]!, this.#d.docLon[doc]!)) return -1;
    }
    const distance = docDistance(this.#d, doc, near) ?? FAR;
    return distance < worst || (distance === worst && doc < heap.worstDoc) ? distance : -1;
  }
}

/**
 * How a word splits the matches for the walk (#top): the documents it matches at `from` or
 * better, and the best it can do for the others (`below`; None: they lack the word, soft
 * matching left it out). Undefined when all its matches are of one kind.
 */
function splitOf(e: Expansion): { from: Kind; below: Kind } | undefined {
  if (e.best >= Kind.Translation) return { from: Kind.Translation, below: e.bestNonExact };
  if (e.best === Kind.Prefix && (e.typoTerms.length > 0 || e.typoNodes.length > 0))
    return { from: Kind.Prefix, below: Kind.Typo };
  return undefined;
}
