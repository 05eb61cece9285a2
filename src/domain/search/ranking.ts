// The ranking rules and the similarity score, in one place: every engine orders by compare()
// and reports score(), so that the order and the score mean the same on every engine.
//
// Order of a query's results:
//   1. the query is the school's name (then: one of its alternative names) — "equality";
//   2. more of the query's words found (in the name, an alternative name or the city);
//   3. better matches of those words: each word earns the credit of its best match below
//      (whole word > start of a word > typo; name > alternative name; any name > city);
//   4. prominence (a static rank from the directory: flagships before small namesakes);
//   5. the name (folded), then the school id: a total order, so paging never repeats or skips.
// Steps 4 and 5 are each engine's static order of the catalog (see compareStatic).

export const Field = { Name: 0, Alias: 1, City: 2 } as const;
export type Field = (typeof Field)[keyof typeof Field];

export const Kind = { None: 0, Typo: 1, Prefix: 2, Exact: 3 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Credit of a word's match, by field and kind: the best a word can earn is 10 (whole word of the name). */
const CREDITS: readonly (readonly number[])[] = [
  // None, Typo, Prefix, Exact
  [0, 6, 8, 10], // name
  [0, 5, 7, 9], // alternative name
  [0, 2, 3, 4], // city
];

export const BEST_CREDIT = 10;

export function credit(kind: Kind, field: Field): number {
  return CREDITS[field]![kind]!;
}

/** 2: the query is the school's name; 1: one of its alternative names; 0: neither. */
export type Equality = 0 | 1 | 2;

export interface Quality {
  readonly equality: Equality;
  /** Query words found. */
  readonly matched: number;
  /** Sum of the credits of the words found. */
  readonly credit: number;
}

/** Negative when a ranks before b on match quality alone; 0 when the static order decides. */
export function compareQuality(a: Quality, b: Quality): number {
  return b.equality - a.equality || b.matched - a.matched || b.credit - a.credit;
}

export interface StaticKey {
  readonly prominence: number;
  readonly sortKey: string;
  readonly id: string;
}

/** The catalog's static order: prominence descending, then folded name, then id (code units). */
export function compareStatic(a: StaticKey, b: StaticKey): number {
  return b.prominence - a.prominence || codeUnitCompare(a.sortKey, b.sortKey) || codeUnitCompare(a.id, b.id);
}

function codeUnitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export const ALIAS_EQUALITY_SCORE = 0.97;
/** The best score without equality: a query that is the name always scores above any that is not. */
export const MATCH_CEILING = 0.95;

/**
 * similarity_score in [0, 1], rounded to 4 decimals: 1 when the query is the school's name,
 * 0.97 when it is one of its alternative names, otherwise
 *   0.95 × ((words found − 1) + average credit of the words found / 10) / words in the query,
 * so a school that found more words always scores higher, and among those that found as many,
 * the better matches score higher. It never increases along the order of compareQuality.
 */
export function similarityScore(q: Quality, queryWords: number): number {
  if (q.equality === 2) return 1;
  if (q.equality === 1) return ALIAS_EQUALITY_SCORE;
  if (q.matched === 0 || queryWords === 0) return 0;
  const raw = (MATCH_CEILING * (q.matched - 1 + q.credit / (BEST_CREDIT * q.matched))) / queryWords;
  return Math.round(raw * 10_000) / 10_000;
}
