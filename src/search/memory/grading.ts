// A document's grade for a query: ranking-rules.ts's steps 2 to 5′ (words found, their credit,
// the query covers the name, the school is ranked, the name starts with the query, and begins
// with its leading small words), packed in one number so that the
// walk (top-k-walk.ts) compares grades, and bounds of grades, as integers. A grade is read from
// the document's forward entries and its name's words; how a query word matches a term is one
// array read, from marks painted per query word before its documents are graded (a prefix's
// range of term ids included).
import { MAX_QUERY_WORDS } from '../../domain/search/query.ts';
import { credit, type Equality, Field, isRanked, Kind, type Quality } from '../../domain/search/ranking-rules.ts';
import type { Expansion } from './expansion.ts';
import { type IndexData, NO_START } from './index-data.ts';

/**
 * A grade: words found × KEY_SCALE + (name leads with the query: step 2) × LEAD_SCALE + credit ×
 * CREDIT_SCALE + (query covers the name) × COVERS + (ranked: step 4′) × RANKED + (name starts
 * with the query) × STARTS. Credit is at most 20 a word, 10 words: 1,607 at most below LEAD_SCALE.
 */
export const KEY_SCALE = 4096;
export const LEAD_SCALE = 2048;
export const CREDIT_SCALE = 8;
export const COVERS = 4;
export const RANKED = 2;
export const STARTS = 1;

/** Name credit by kind: the most a word can earn with a match of that kind. */
export const TOP_CREDIT = [
  0,
  credit(Kind.Typo, Field.Name),
  credit(Kind.Prefix, Field.Name),
  credit(Kind.Translation, Field.Name),
  credit(Kind.Exact, Field.Name),
] as const;

/** credit(kind, field) at (field << 3) | kind: no call per forward entry. */
const CREDIT_TABLE = new Int32Array(24);
for (const field of [Field.Name, Field.Alias, Field.City]) {
  for (const kind of [Kind.Typo, Kind.Prefix, Kind.Translation, Kind.Exact])
    CREDIT_TABLE[(field << 3) | kind] = credit(kind, field);
}

/** The match quality a grade packs, with the document's equality. */
export function qualityOf(grade: number, equality: Equality): Quality {
  const matched = Math.floor(grade / KEY_SCALE);
  const rest = grade - matched * KEY_SCALE;
  const low = rest & (LEAD_SCALE - 1);
  return {
    equality,
    matched,
    credit: Math.floor(low / CREDIT_SCALE),
    covers: (low & COVERS) !== 0,
    ranked: (low & RANKED) !== 0,
    starts: (low & STARTS) !== 0,
    leads: rest >= LEAD_SCALE,
  };
}

/**
 * Grades documents for the query whose words are marked. mark() paints the words' terms, every
 * grade() until unmark() reads them: the caller brackets a query's grading with the two.
 */
export class Grader {
  readonly #d: IndexData;
  /** Per query word slot, per term: the kind of its match (Exact, Translation, Prefix of an open word, Typo), 0 for none. */
  readonly #marks: Uint8Array[];
  /** Per query word slot: the document's best credit so far, and whether the word is in its name. */
  readonly #best = new Int32Array(MAX_QUERY_WORDS);
  readonly #inName = new Uint8Array(MAX_QUERY_WORDS);
  #graded = 0;

  constructor(data: IndexData) {
    this.#d = data;
    this.#marks = Array.from({ length: MAX_QUERY_WORDS }, () => new Uint8Array(data.termCount));
  }

  /** Documents graded so far: what walking to pages cost (tests and benchmarks read it). */
  get graded(): number {
    return this.#graded;
  }

  /**
   * Marks, per query word, its own term and synonyms (Exact), its translations (Translation), an
   * open word's whole words (Prefix) and its typo terms and subtrees (Typo); a term of two kinds is marked with the better.
   */
  mark(expansions: readonly Expansion[]): void {
    expansions.forEach((e, i) => {
      this.#paint(this.#marks[i]!, e, true);
    });
  }

  unmark(expansions: readonly Expansion[]): void {
    expansions.forEach((e, i) => {
      this.#paint(this.#marks[i]!, e, false);
    });
  }

  /**
   * A document's grade (KEY_SCALE) for the marked words `expansions`; `sequence` is the query's
   * word order as typed (SearchPlan.sequence: indexes into `expansions`), which "the name starts
   * with the query" follows; `lead` the leadCode of the small words it begins with (0: none), with
   * `leadMask` the bytes of it to compare (one word or two).
   */
  grade(doc: number, expansions: readonly Expansion[], sequence: readonly number[], lead = 0, leadMask = 0): number {
    this.#graded++;
    const d = this.#d;
    const n = expansions.length;
    const best = this.#best;
    const inName = this.#inName;
    best.fill(0, 0, n);
    inName.fill(0, 0, n);
    const end = d.fwdStart[doc + 1]!;
    for (let at = d.fwdStart[doc]!; at < end; at++) {
      const entry = d.fwd[at]!;
      const term = entry >>> 2;
      const field = entry & 3;
      for (let i = 0; i < n; i++) {
        const kind = this.#kind(i, term);
        if (kind !== 0) {
          const c = CREDIT_TABLE[(field << 3) | kind]!;
          if (c > best[i]!) best[i] = c;
          if (field === Field.Name) inName[i] = 1;
        }
      }
    }
    let matched = 0;
    let sum = 0;
    let covers = 1;
    for (let i = 0; i < n; i++) {
      if (best[i]! > 0) {
        matched++;
        sum += best[i]!;
      }
      if (inName[i] === 0) covers = 0;
    }
    const first = d.nameStart[doc]!;
    const length = d.nameStart[doc + 1]! - first;
    // The query covers the name: the name has no more words, and each matches a query word.
    if (length > n) covers = 0;
    for (let p = 0; p < length && covers === 1; p++) {
      let some = 0;
      for (let i = 0; i < n && some === 0; i++) if (this.#kind(i, d.nameSeq[first + p]!) !== 0) some = 1;
      covers = some;
    }
    // The name starts with the query: its words from one of its starts (nameAlt) match the words
    // as typed, in order.
    let starts = this.#startsAt(doc, sequence, 0);
    // It leads: it begins with the small words typed first, then starts with the query at its first word.
    const leads = lead !== 0 && starts === 1 && (d.docLead[doc]! & leadMask) === lead ? 1 : 0;
    for (let k = 0; k < 2 && starts === 0; k++) {
      const at = d.nameAlt[2 * doc + k]!;
      if (at !== NO_START) starts = this.#startsAt(doc, sequence, at);
    }
    // Step 4′: a ranked school whose name holds the query (its words in order, from any word on).
    // A name that starts with it holds it.
    let ranked = 0;
    if (isRanked(d.docProminence[doc]!)) {
      if (starts === 1) ranked = RANKED;
      const words = d.nameStart[doc + 1]! - d.nameStart[doc]!;
      for (let at = 1; at + sequence.length <= words && ranked === 0; at++)
        if (this.#startsAt(doc, sequence, at) === 1) ranked = RANKED;
    }
    return matched * KEY_SCALE + leads * LEAD_SCALE + sum * CREDIT_SCALE + covers * COVERS + ranked + starts * STARTS;
  }

  /** 1 when the document's name words from `at` on match the words of `sequence`, in order. */
  #startsAt(doc: number, sequence: readonly number[], at: number): number {
    const d = this.#d;
    const first = d.nameStart[doc]! + at;
    if (d.nameStart[doc + 1]! - first < sequence.length) return 0;
    for (let p = 0; p < sequence.length; p++) {
      const i = sequence[p]!;
      if (this.#kind(i, d.nameSeq[first + p]!) === 0) return 0;
    }
    return 1;
  }

  /** How query word i matches a term: its mark (#paint). */
  #kind(i: number, term: number): number {
    return this.#marks[i]![term]!;
  }

  /**
   * Paints each kind over the worse ones, so that a term's mark is its best kind: typos, then
   * the prefix's range (one fill, a few KB at most: one read per term graded instead of a mark
   * and a range test), then an open word's whole words, translations and exact terms.
   */
  #paint(marks: Uint8Array, e: Expansion, on: boolean): void {
    const d = this.#d;
    for (const t of e.typoTerms) marks[t] = on ? Kind.Typo : 0;
    for (const node of e.typoNodes) marks.fill(on ? Kind.Typo : 0, d.nodeLo[node]!, d.nodeHi[node]!);
    if (e.prefixHi > e.prefixLo) marks.fill(on ? Kind.Prefix : 0, e.prefixLo, e.prefixHi);
    for (const t of e.opened) marks[t] = on ? Kind.Prefix : 0;
    for (const t of e.translations) marks[t] = on ? Kind.Translation : 0;
    for (const t of e.exact) marks[t] = on ? Kind.Exact : 0;
  }
}
