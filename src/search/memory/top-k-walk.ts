// The best `need` documents of a query's matches (the schools it names aside), best first: by
// grade (grading.ts), then by distance with a `near` point, then by number (the static order).
// The matches are walked in eight groups (twelve when the query begins with small words), each in
// document order, best possible grade first (the groups sorted by it):
//
//   X  a match of the better kind for every word that has better and worse ones (splitOf), or not;
//   C  a name with no more words than the query, which it can spell out whole, or not;
//   S  a name whose first word (or a start: nameAlt) the first word typed matches, or not;
//   L  within S, a name that begins with the query's first small word (leadSets), or not.
//
// Ranked documents (ranking-rules.ts, step 4′) are numbered first (the static order begins with
// prominence), so within a group a document past rankedEnd grades RANKED below the group's bound.
//
// The walk stops as soon as the page holds `need` documents that nothing left to walk can beat,
// so its cost follows the page, not the number of matches. Without `near`, a group is left at the
// first document that can at best tie the page's worst (its number is higher); with `near`, a
// later one may be nearer, so the group is walked on, and a document that can at best tie is
// measured only inside the box of the worst's distance, and graded only if it is nearer.
import type { GeoPoint } from '../../domain/catalog/geo.ts';
import { isRanked, Kind } from '../../domain/search/ranking-rules.ts';
import { and, wordsFor } from './bitset.ts';
import type { Expansion } from './expansion.ts';
import { docDistance, GeoBox } from './geo-grid.ts';
import { COVERS, CREDIT_SCALE, type Grader, KEY_SCALE, LEAD_SCALE, RANKED, STARTS, TOP_CREDIT } from './grading.ts';
import { Heap } from './heap.ts';
import type { IndexData } from './index-data.ts';
import type { WordSets } from './word-sets.ts';

/** A distance the heap compares: unknown ones (and all of them without `near`) after any known one. */
const FAR = Number.POSITIVE_INFINITY;

/** What a walk is asked for. */
export interface WalkQuery {
  /** The documents to walk: the query's matches. */
  readonly matches: Uint32Array;
  /** Documents to leave out: the schools the query names, on the page already. */
  readonly skip: ReadonlySet<number>;
  /** The query's words, marked for grading (Grader.mark), and their order as typed (SearchPlan.sequence). */
  readonly expansions: readonly Expansion[];
  readonly sequence: readonly number[];
  readonly near: GeoPoint | undefined;
  /** The leadCode of the small words the query begins with, and the bytes of it to compare (0: none; grading.ts). */
  readonly lead?: number;
  readonly leadMask?: number;
}

/** One walk as each group's pass reads it: the query, the sets that make the groups, and the page. */
interface WalkState {
  readonly query: WalkQuery;
  /** The indexes of the words of `matches` that hold any document, `count` of them: a rare query walks a few, not all. */
  readonly occupied: Uint32Array;
  readonly count: number;
  /** C: the documents whose name has no more words than the query (index-data.ts, lengthSets). */
  readonly short: Uint32Array;
  /** S: the documents whose name may start with a word the first word typed matches. */
  readonly first: Uint32Array;
  /** L: the documents whose name begins with the query's first small word; undefined without one. */
  readonly leading: Uint32Array | undefined;
  /** X: the matches with the better match of every word that splits; undefined when none splits. */
  readonly whole: Uint32Array | undefined;
  /** The page so far. */
  readonly heap: Heap;
  /** The box of the page's worst distance, made again when that changes (closer). */
  readonly box: GeoBox;
}

/** A word that splits the matches: those it matches at `from` or better, and the others, which do `below` at best. */
interface Split {
  readonly word: number;
  readonly from: Kind;
  readonly below: Kind;
}

/**
 * The best grade a match can have (`top`: every word, each at its best kind), and the best a
 * match outside X can have (`outside`), with the words that make X. A document missing the
 * better match of a word that has better and worse ones grades lower: a word with whole words
 * (or translations), below which it has starts or typos; a word with starts and typos only.
 * Without the second, a typo of a common word whose start few documents have (`schol`:
 * `scholars`) bounded every group by a start's credit: the page, all typos, could never beat it,
 * and the walk graded every match.
 */
export function gradeBounds(expansions: readonly Expansion[]): {
  top: number;
  outside: number;
  splits: Split[];
} {
  let maxCredit = 0;
  for (const e of expansions) maxCredit += TOP_CREDIT[e.best];
  const top = expansions.length * KEY_SCALE + LEAD_SCALE + maxCredit * CREDIT_SCALE + COVERS + RANKED + STARTS;
  const splits = expansions.flatMap((e, word) => {
    const split = splitOf(e);
    return split ? [{ word, ...split }] : [];
  });
  if (splits.length === 0) return { top, outside: top, splits };
  let outside = -1;
  for (const { word, below } of splits) {
    const { best } = expansions[word]!;
    const key =
      below === Kind.None
        ? top - KEY_SCALE - CREDIT_SCALE * TOP_CREDIT[best]
        : top - CREDIT_SCALE * (TOP_CREDIT[best] - TOP_CREDIT[below]);
    if (key > outside) outside = key;
  }
  return { top, outside, splits };
}

export class TopKWalk {
  readonly #d: IndexData;
  readonly #sets: WordSets;
  readonly #grader: Grader;
  readonly #words: number;
  /** Scratch of one walk: X, and the occupied words of the matches. */
  readonly #whole: Uint32Array;
  readonly #occupied: Uint32Array;
  /** The first unranked document: those before it are ranked (the static order begins with prominence). */
  readonly #rankedEnd: number;

  constructor(data: IndexData, sets: WordSets, grader: Grader) {
    this.#d = data;
    this.#sets = sets;
    this.#grader = grader;
    this.#words = wordsFor(data.docCount);
    this.#whole = new Uint32Array(this.#words);
    this.#occupied = new Uint32Array(this.#words);
    this.#rankedEnd = rankedEnd(data.docProminence, data.docCount);
  }

  /** The `need` best documents of the query's matches with their grades, best first. */
  top(need: number, query: WalkQuery): { doc: number; key: number }[] {
    const { matches, expansions, sequence } = query;
    const heap = new Heap(need);
    const { top, outside, splits } = gradeBounds(expansions);
    let whole: Uint32Array | undefined;
    if (splits.length > 0) {
      whole = this.#whole;
      whole.set(matches);
      for (const { word, from } of splits) and(whole, whole, this.#sets.atLeast(expansions[word]!, from));
    }
    const words = this.#words;
    const short = this.#d.lengthSets.subarray((expansions.length - 1) * words, expansions.length * words);
    const first = this.#sets.firstWord(expansions[sequence[0]!]!);
    const lead = query.lead ?? 0;
    const leading =
      lead === 0 ? undefined : this.#d.leadSets.subarray(((lead & 0xff) - 1) * words, (lead & 0xff) * words);
    const occupied = this.#occupied;
    let count = 0;
    for (let w = 0; w < words; w++) if (matches[w] !== 0) occupied[count++] = w;
    const walk: WalkState = { query, occupied, count, short, first, leading, whole, heap, box: new GeoBox() };
    const groups: { covers: boolean; starts: boolean; leads: boolean | undefined; inWhole: boolean; bound: number }[] =
      [];
    for (const inWhole of whole ? [true, false] : [false]) {
      const base = inWhole || !whole ? top : outside;
      for (const covers of [true, false]) {
        for (const starts of [true, false]) {
          // Only a name that starts with the query can lead with it (grading.ts).
          for (const leads of starts && leading ? [true, false] : [undefined]) {
            const bound = base - (leads ? 0 : LEAD_SCALE) - (covers ? 0 : COVERS) - (starts ? 0 : STARTS);
            groups.push({ covers, starts, leads, inWhole, bound });
          }
        }
      }
    }
    // Groups come best bound first (a leading name's group before the others, whatever they
    // cover): once the page beats a group's bound, it beats the rest. Stable: ties keep this order.
    groups.sort((a, b) => b.bound - a.bound);
    for (const { covers, starts, leads, inWhole, bound } of groups) {
      if (heap.full && heap.worstKey > bound) return heap.sorted();
      this.#group(walk, covers, starts, leads, inWhole, bound);
    }
    return heap.sorted();
  }

  /**
   * Offers the documents of one group (inside or outside each of C, S, L and X; `leads`
   * undefined: L does not split it; its documents grade `bound` at best) to the page, in order,
   * until nothing left in the group can beat it.
   */
  #group(
    walk: WalkState,
    covers: boolean,
    starts: boolean,
    leads: boolean | undefined,
    inWhole: boolean,
    bound: number,
  ): void {
    const { occupied, count, short, first, leading, whole, heap, box } = walk;
    const { matches, skip, expansions, sequence, near, lead = 0, leadMask = 0 } = walk.query;
    const d = this.#d;
    // x ^ 0 keeps a mask, x ^ -1 inverts it.
    const flipC = covers ? 0 : -1;
    const flipS = starts ? 0 : -1;
    const flipX = inWhole ? 0 : -1;
    // An unranked document of the group grades `unranked` at best, a ranked one (numbered before
    // rankedEnd) `bound`.
    const rankedEnd = this.#rankedEnd;
    const unranked = bound - RANKED;
    const rankedLast = rankedEnd === 0 ? -1 : (rankedEnd - 1) >>> 5;
    // The last word of the matches that can still hold a document for the page (-1: none): once
    // the page is full, only documents that can beat its worst, or tie it and come before it
    // (without `near`), can; so without `near` the words after the worst's are not read (a
    // group with no document left to offer was read to its end).
    const stopAt = (): number => {
      if (!heap.full) return 0x7fffffff;
      const worst = heap.worstKey;
      if (worst > bound) return -1;
      // Only ranked documents can beat or tie it.
      if (worst === bound) return near === undefined ? Math.min(heap.worstDoc >>> 5, rankedLast) : rankedLast;
      if (worst > unranked) return rankedLast;
      // Ranked ones can beat it, unranked ones tie it.
      if (worst === unranked) return near === undefined ? Math.max(heap.worstDoc >>> 5, rankedLast) : 0x7fffffff;
      return 0x7fffffff;
    };
    let stop = stopAt();
    for (let k = 0; k < count; k++) {
      const w = occupied[k]!;
      if (w > stop) return;
      let bits = matches[w]! & (short[w]! ^ flipC) & (first[w]! ^ flipS);
      if (whole) bits &= whole[w]! ^ flipX;
      if (leads !== undefined) bits &= leading![w]! ^ (leads ? 0 : -1);
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const doc = (w << 5) | (31 - Math.clz32(low));
        let distance = FAR;
        const best = doc < rankedEnd ? bound : unranked;
        if (heap.full && heap.worstKey >= best) {
          // No document from here on can have a better grade than the worst kept: its key is at
          // most `best` (a later one is ranked only if this one is).
          if (heap.worstKey > best) return;
          if (near === undefined) {
            // Nor a better number (documents of an earlier group may come after this one's).
            if (doc > heap.worstDoc) return;
          } else {
            // It can tie the worst kept at best: then only if it is nearer, which is checked
            // before it is graded. The rest of the group is walked: a later one may be nearer.
            distance = closer(d, doc, near, heap, box);
            if (distance < 0) continue;
          }
        } else if (near !== undefined) distance = docDistance(d, doc, near) ?? FAR;
        if (skip.size > 0 && skip.has(doc)) continue;
        heap.offer(doc, this.#grader.grade(doc, expansions, sequence, lead, leadMask), distance);
        stop = stopAt();
        if (stop < 0) return;
      }
    }
  }
}

/**
 * The document's distance (FAR when unknown) when it would beat the page's worst at an equal
 * grade, otherwise -1. Outside the box of the worst's distance it is farther, unmeasured.
 */
function closer(d: IndexData, doc: number, near: GeoPoint, heap: Heap, box: GeoBox): number {
  const worst = heap.worstDistance;
  if (worst !== FAR) {
    const around = box.km === worst ? box : box.around(near, worst);
    if (!around.contains(d.docLat[doc]!, d.docLon[doc]!)) return -1;
  }
  const distance = docDistance(d, doc, near) ?? FAR;
  return distance < worst || (distance === worst && doc < heap.worstDoc) ? distance : -1;
}

/**
 * How a word splits the matches: the documents it matches at `from` or better, and the best it
 * can do for the others (`below`; None: they lack the word, soft matching left it out).
 * Undefined when all its matches are of one kind.
 */
function splitOf(e: Expansion): { from: Kind; below: Kind } | undefined {
  if (e.best >= Kind.Translation) return { from: Kind.Translation, below: e.bestNonExact };
  if (e.best === Kind.Prefix && (e.typoTerms.length > 0 || e.typoNodes.length > 0))
    return { from: Kind.Prefix, below: Kind.Typo };
  return undefined;
}

/** The number of the first unranked document of `prominence` (in the static order: ranked first). */
function rankedEnd(prominence: Float64Array, count: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (isRanked(prominence[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
