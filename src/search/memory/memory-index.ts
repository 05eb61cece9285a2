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
// It searches one index (segment.ts), or after a small import two: the last full build with the
// schools the import changed left out (its live documents), and a small index of those schools
// as they are now (memory.engine.ts, deltas). Every decision that depends on the catalog as a
// whole (which words some school in scope has, which word soft matching drops, the total) is
// taken on the two segments' counts added up, and each segment's page is merged with the other's
// in the order of the ranking rules (the static order compared by prominence, name and id), so
// the answers are those of one index built of the whole catalog: the property tests hold them
// side by side.
import type { EngineHit, EnginePage, EngineQuery } from '../../domain/search/engine.port.ts';
import { compareDistance } from '../../domain/search/filters.ts';
import { leadingSmallWords, withoutWords } from '../../domain/search/query.ts';
import {
  compareLiteral,
  compareStatic,
  type Equality,
  Kind,
  similarityScore,
} from '../../domain/search/ranking-rules.ts';
import { RankedAnswers, RESULTS, rankedKey, type Ranked } from './answers.ts';
import { and, andCount, has, wordsFor } from './bitset.ts';
import { buffersOf } from './build.ts';
import { equalDocs } from './equality.ts';
import type { Expansion } from './expansion.ts';
import { docDistance } from './geo-grid.ts';
import { qualityOf } from './grading.ts';
import { type IndexData, leadCode } from './index-data.ts';
import { Segment } from './segment.ts';

/** The ranking of a query nothing matches. */
const NONE: Ranked = {
  total: 0,
  count: 0,
  docs: new Int32Array(0),
  keys: new Int32Array(0),
  equality: new Uint8Array(0),
  known: 0,
  lead: 0,
};

/** A segment as one index searches it: its documents are numbered from `offset` in the index's rankings. */
export interface Part {
  readonly segment: Segment;
  /** The documents still in the catalog (undefined: all): the base less the schools a delta changed. */
  readonly live: Uint32Array | undefined;
  readonly offset: number;
  readonly size: number;
}

/** One segment's share of a search: its scope, each known word's expansion and documents in scope, its matches. */
interface Share {
  readonly part: Part;
  readonly scope: Uint32Array | undefined;
  readonly expansions: Expansion[];
  readonly sets: Uint32Array[];
  readonly sizes: number[];
  matches: Uint32Array | undefined;
  count: number;
}

/** A result before it is placed: the segment's document, its grade, equality and distance. */
interface Result {
  readonly share: Share;
  readonly doc: number;
  readonly key: number;
  readonly equality: Equality;
  readonly distance: number | undefined;
  /** Named as typed, then by a name that begins with the query's small words (equality.ts): after the distance, before the static order. */
  readonly literal: boolean;
  readonly leading: boolean;
}

export class MemoryIndex {
  readonly #parts: readonly Part[];
  readonly #answers: RankedAnswers;
  readonly #keptAnswers: number;
  #released = false;

  /**
   * `keptAnswers`: rankings kept (answers.ts, RESULTS; 0: none, for benchmarks that measure
   * answering). `parts` is withChanges's: the segments instead of one of `data`.
   */
  constructor(data: IndexData, options: { keptAnswers?: number } = {}, parts?: readonly Part[]) {
    this.#parts = parts ?? [{ segment: new Segment(data), live: undefined, offset: 0, size: data.docCount }];
    this.#keptAnswers = options.keptAnswers ?? RESULTS;
    this.#answers = new RankedAnswers(this.#keptAnswers);
  }

  /**
   * The catalog of `index`'s full build with `changes` applied: the schools of `changes` replace
   * the build's schools of the same id, or are added. `index` itself may already hold changes:
   * only its build is kept (the changes are always every change since that build).
   */
  static withChanges(index: MemoryIndex, changes: IndexData): MemoryIndex {
    const base = index.#parts[0]!.segment;
    const words = wordsFor(base.d.docCount);
    const live = new Uint32Array(words).fill(0xffffffff);
    if (base.d.docCount % 32 !== 0) live[words - 1] = (1 << (base.d.docCount % 32)) - 1;
    const changed = new Segment(changes);
    let replaced = 0;
    for (let doc = 0; doc < changes.docCount; doc++) {
      const was = base.docOf(changed.catalog.id(doc));
      if (was >= 0) {
        live[was >>> 5]! &= ~(1 << (was & 31));
        replaced++;
      }
    }
    const parts: Part[] = [{ segment: base, live, offset: 0, size: base.d.docCount - replaced }];
    if (changes.docCount > 0)
      parts.push({ segment: changed, live: undefined, offset: base.d.docCount, size: changes.docCount });
    return new MemoryIndex(base.d, { keptAnswers: index.#keptAnswers }, parts);
  }

  get size(): number {
    let size = 0;
    for (const part of this.#parts) size += part.size;
    return size;
  }

  /** Schools the changes on the full build hold (0: none). */
  get changes(): number {
    return this.#parts.length > 1 ? this.#parts[1]!.size : 0;
  }

  /** Documents graded by the searches so far: what walking to pages cost (tests and benchmarks read it). */
  get graded(): number {
    let graded = 0;
    for (const part of this.#parts) graded += part.segment.grader.graded;
    return graded;
  }

  /**
   * Gives the memory of the index's arrays back now (they are detached: this index answers no
   * more), rather than when V8 next collects it, which can be long after a rebuild replaced it
   * (docs/search.md, a million schools): a second import would build beside both. For the owner
   * of the IndexData only (the engine, on the index it has just replaced: searches are
   * synchronous, none is under way on it). The segments `next` searches too (the full build a
   * delta kept) are left alone.
   */
  release(next?: MemoryIndex): void {
    this.#released = true;
    this.#answers.clear();
    const kept = new Set(next ? next.#parts.map((p) => p.segment) : []);
    for (const part of this.#parts) {
      if (kept.has(part.segment)) continue;
      for (const buffer of buffersOf(part.segment.d)) buffer.transfer(0);
    }
  }

  search(query: EngineQuery): EnginePage {
    if (this.#released) throw new Error('this index was released: search the one that replaced it');
    const { plan } = query;
    if (plan.words.length === 0 || this.size === 0) return { total: 0, hits: [] };
    const end = query.offset + query.limit;
    const key = rankedKey(query);
    const kept = this.#answers.take(key, end);
    const ranked = kept ?? this.#rank(query, end);
    this.#answers.keep(key, ranked, kept === undefined);
    const hits: EngineHit[] = [];
    for (let i = query.offset; i < Math.min(end, ranked.count); i++) {
      const { segment, doc } = this.#locate(ranked.docs[i]!);
      const quality = qualityOf(ranked.keys[i]!, ranked.equality[i] as Equality);
      const school = segment.catalog.school(doc);
      const score = similarityScore(quality, ranked.known, plan.words.length, ranked.lead);
      const distanceKm = query.near === undefined ? undefined : docDistance(segment.d, doc, query.near);
      hits.push(distanceKm === undefined ? { school, score } : { school, score, distanceKm });
    }
    return { total: ranked.total, hits };
  }

  #locate(doc: number): { segment: Segment; doc: number } {
    const parts = this.#parts;
    const part = parts.length > 1 && doc >= parts[1]!.offset ? parts[1]! : parts[0]!;
    return { segment: part.segment, doc: doc - part.offset };
  }

  /** The first `end` results of a query in order, and its total. */
  #rank(query: EngineQuery, end: number): Ranked {
    const { plan, near } = query;
    const shares: Share[] = [];
    for (const part of this.#parts) {
      let scope = part.segment.scope.of(query);
      if (scope === null) continue;
      if (part.live) scope = scope ? and(part.segment.liveScope, scope, part.live) : part.live;
      shares.push({ part, scope, expansions: [], sets: [], sizes: [], matches: undefined, count: 0 });
    }
    if (shares.length === 0) return NONE;

    // Soft matching (soft-matching rules, rank-candidates.ts) on the segments' counts added up:
    // the words no document in scope has are left out, then while no document has all the rest,
    // the most common is dropped (on a tie, the later one).
    const known: number[] = [];
    const sizes: number[] = [];
    for (let i = 0; i < plan.words.length; i++) {
      let size = 0;
      for (const share of shares) {
        const { segment } = share.part;
        const e = segment.expander.expand(plan.words[i]!);
        const all = segment.sets.atLeast(e, Kind.Typo);
        let set = all;
        let n: number;
        if (share.scope) {
          set = segment.inScope[known.length]!;
          n = andCount(set, all, share.scope);
        } else n = segment.sets.size(all);
        share.expansions.push(e);
        share.sets.push(set);
        share.sizes.push(n);
        size += n;
      }
      if (size === 0) {
        for (const share of shares) {
          share.expansions.pop();
          share.sets.pop();
          share.sizes.pop();
        }
        continue;
      }
      known.push(i);
      sizes.push(size);
    }
    let required = sizes.map((_, i) => i);
    const intersect = (): number => {
      let total = 0;
      for (const share of shares) {
        const { matches } = share.part.segment;
        const { sets } = share;
        let count: number;
        if (required.length === 1) {
          matches.set(sets[required[0]!]!);
          count = share.sizes[required[0]!]!;
        } else {
          count = andCount(matches, sets[required[0]!]!, sets[required[1]!]!);
          for (let k = 2; k < required.length; k++) count = andCount(matches, matches, sets[required[k]!]!);
        }
        share.count = count;
        total += count;
      }
      return total;
    };
    let count = required.length > 0 ? intersect() : 0;
    while (required.length > 0 && count === 0) {
      let drop = required[0]!;
      for (const i of required) if (sizes[i]! >= sizes[drop]!) drop = i;
      required = required.filter((i) => i !== drop);
      count = required.length > 0 ? intersect() : 0;
    }
    for (const share of shares) share.matches = required.length > 0 ? share.part.segment.matches : undefined;

    // The words no document in scope has are left out as if not typed (the score still counts them).
    const knownPlan = withoutWords(plan, known);
    const { sequence } = knownPlan;
    const leadWords = leadingSmallWords(knownPlan);
    const lead = leadCode(leadWords);
    const leadMask = leadWords.length >= 2 ? 0xffff : 0xff;
    const equal = shares.map((share) =>
      equalDocs(
        share.part.segment.d,
        share.part.segment.catalog,
        knownPlan.canonical,
        knownPlan.typed,
        leadWords,
        share.scope,
        near,
      ),
    );
    let total = count;
    shares.forEach((share, s) => {
      for (const e of equal[s]!) if (share.matches === undefined || !has(share.matches, e.doc)) total++;
    });
    const want = Math.min(end, total);
    if (want === 0) return { ...NONE, total, known: knownPlan.words.length, lead: leadWords.length };

    for (const share of shares) share.part.segment.grader.mark(share.expansions);
    try {
      const distanceOf = (share: Share, doc: number) =>
        near === undefined ? undefined : docDistance(share.part.segment.d, doc, near);
      const named: Result[][] = shares.map((share, s) =>
        equal[s]!.map((e) => ({
          share,
          doc: e.doc,
          equality: e.equality,
          key: share.part.segment.grader.grade(e.doc, share.expansions, sequence, lead, leadMask),
          distance: distanceOf(share, e.doc),
          literal: e.literal,
          leading: e.leading,
        })),
      );
      // The schools the query names come first: by equality, distance, spelling, the static order.
      const results = merge(
        named,
        (a, b) =>
          b.equality - a.equality ||
          compareDistance(a.distance, b.distance) ||
          compareLiteral(a.literal, b.literal) ||
          compareLiteral(a.leading, b.leading),
      );
      const need = want - results.length;
      if (need > 0) {
        const walked = shares.map((share, s) => {
          if (share.matches === undefined) return [];
          const skip = new Set(equal[s]!.map((e) => e.doc));
          const { matches, expansions } = share;
          return share.part.segment.walk.top(need, { matches, skip, expansions, sequence, near, lead, leadMask }).map(
            ({ doc, key }): Result => ({
              share,
              doc,
              key,
              equality: 0,
              distance: distanceOf(share, doc),
              literal: false,
              leading: false,
            }),
          );
        });
        // The rest: by grade, then distance (unknown last), then the static order.
        for (const r of merge(walked, (a, b) => b.key - a.key || compareDistance(a.distance, b.distance)).slice(
          0,
          need,
        ))
          results.push(r);
      }
      const page = results.slice(0, want);
      return {
        total,
        count: page.length,
        docs: Int32Array.from(page, (r) => r.share.part.offset + r.doc),
        keys: Int32Array.from(page, (r) => r.key),
        equality: Uint8Array.from(page, (r) => r.equality),
        known: knownPlan.words.length,
        lead: leadWords.length,
      };
    } finally {
      for (const share of shares) share.part.segment.grader.unmark(share.expansions);
    }
  }
}

/**
 * Each segment's results, already in order, as one list in that order: `compare`, then the
 * static order (within a segment, the documents' numbers; across two, their keys).
 */
function merge(lists: Result[][], compare: (a: Result, b: Result) => number): Result[] {
  const nonEmpty = lists.filter((l) => l.length > 0);
  if (nonEmpty.length <= 1) return nonEmpty[0] ?? [];
  const order = (a: Result, b: Result): number =>
    compare(a, b) ||
    (a.share === b.share
      ? a.doc - b.doc
      : compareStatic(a.share.part.segment.staticKey(a.doc), b.share.part.segment.staticKey(b.doc)));
  const [left, right] = nonEmpty as [Result[], Result[]];
  const out: Result[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) out.push(order(left[i]!, right[j]!) <= 0 ? left[i++]! : right[j++]!);
  while (i < left.length) out.push(left[i++]!);
  while (j < right.length) out.push(right[j++]!);
  return out;
}
