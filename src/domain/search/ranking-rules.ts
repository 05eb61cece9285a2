// The ranking rules and the similarity score, in one place: every engine orders by compare()
// and reports score(), so that the order and the score mean the same on every engine.
//
// Order of a query's results:
//   1. the query is the school's name (then: one of its alternative names) — "equality";
//   2. more of the query's words found (in the name, an alternative name or the city); the small
//      words the query begins with ("the", "de la": query.ts, leadingSmallWords), never required,
//      count as found in a name that begins with them and then starts with the query (step 5)
//      from its first word: "the laur" → The Laurel School before Laurel Elementary, and before
//      Arm River School for "the arm" → The Armand Hammer United World College ("leads");
//   3. better matches of those words: each word earns the credit of its best match below
//      (whole word > start of a word > typo; name > alternative name; any name > city);
//   4. the query spells out the whole name, every word of it, with starts of words or typos
//      ("the universit of the south" → The University of the South before the University of
//      South Carolina);
//   4′. a ranked school (prominence above 0: a college the directory ranks) whose name holds
//      the query's words as typed, in order, one after another (matching.ts, holdsQuery),
//      before a namesake that is not, when the text matches them equally (steps 2–4): "naval
//      academy" → the United States Naval Academy before Naval Academy Primary School,
//      "baruch" → Baruch College before Baruch College Campus High School. Prominence weighs
//      against the name merely starting with the query (step 5), never against a better match,
//      a query that spells out the whole name ("university high" → University High School
//      first) or words typed in another order ("main st" → Main Street School before Ohio State
//      University-Main Campus);
//   5. the name starts with the query: its first words are the query's words, in order (the
//      user is typing the name from its beginning: "linc" → Lincoln University before Abraham
//      Lincoln High School);
//   6. with a `near` point only: the distance from it, nearest first, schools without
//      coordinates last (filters.ts, compareDistance): text relevance always comes first;
//   7. among the schools the query names (step 1), those named exactly as typed, word for word
//      (matching.ts, namedAsTyped): the directory's own spelling before an equivalent one; then
//      those whose name begins with the small words the query begins with ("the acad" → The
//      Academy before Academy School). A query with leading small words names no school by an
//      alternative name that does not begin with them (matching.ts, aliasNamedBy: "the uni" is
//      not the UNI of Northern Iowa);
//   8. prominence (a static rank from the directory: flagships before small namesakes);
//   9. the name (folded), then the school id: a total order, so paging never repeats or skips.
// Steps 8 and 9 are each engine's static order of the catalog (see compareStatic). Step 7 comes
// after the distance: near a point, the nearest of the schools a query names is the one meant,
// whichever way its directory spelled it.

export const Field = { Name: 0, Alias: 1, City: 2 } as const;
export type Field = (typeof Field)[keyof typeof Field];

export const Kind = { None: 0, Typo: 1, Prefix: 2, Translation: 3, Exact: 4 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/**
 * Credit of a word's match, by field and kind: the best a word can earn is 20 (a whole word of
 * the name, as typed or as one of its synonyms). A translation is a whole word too, a little
 * below ("université" → the Universités before the Universities).
 */
const CREDITS: readonly (readonly number[])[] = [
  // None, Typo, Prefix, Translation, Exact
  [0, 12, 16, 19, 20], // name
  [0, 10, 14, 17, 18], // alternative name
  [0, 4, 6, 7, 13], // city
];

export const BEST_CREDIT = 20;

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
  /** The query spells out the whole name (matching.ts, coversName). */
  readonly covers: boolean;
  /** The school is ranked (isRanked) and its name holds the query (matching.ts, holdsQuery): step 4′. */
  readonly ranked: boolean;
  /** The name's first words are the query's words, in order (matching.ts, startsWithQuery). */
  readonly starts: boolean;
  /** The name begins with the query's leading small words, then starts with the query (matching.ts, leadsWithQuery): step 2. */
  readonly leads: boolean;
}

/**
 * Negative when a ranks before b on match quality alone; 0 when the static order decides. Among
 * schools the query names alike (the same equality), the static order decides at once: the query
 * is what each is called, and prominence says which one is meant.
 */
export function compareQuality(a: Quality, b: Quality): number {
  if (a.equality !== b.equality) return b.equality - a.equality;
  if (a.equality > 0) return 0;
  return (
    b.matched - a.matched ||
    Number(b.leads) - Number(a.leads) ||
    b.credit - a.credit ||
    Number(b.covers) - Number(a.covers) ||
    Number(b.ranked) - Number(a.ranked) ||
    Number(b.starts) - Number(a.starts)
  );
}

/** Whether a school is ranked (step 4′): the directory gives it a prominence. */
export function isRanked(prominence: number): boolean {
  return prominence > 0;
}

/** Step 7: negative when only a is named as typed (matching.ts, namedAsTyped). */
export function compareLiteral(a: boolean, b: boolean): number {
  return Number(b) - Number(a);
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
 * similarity_score in [0, 1], rounded to 4 decimals: 1 when the query is the school's name, 0.97
 * when it is one of its alternative names, otherwise
 *   0.95 × ((words found − 1) + average credit of the words found / 20) / words in the query,
 * so a school that found more words always scores higher, and among those that found as many,
 * the better matches score higher. Words no school has (query.ts, withoutWords) take no part in
 * the order but still count: `known` of the query's `all` words are the others, and the scores
 * of equality are scaled by known / all. The `lead` small words the query begins with
 * (query.ts, leadingSmallWords) count among the words typed, and as found, each with the best
 * credit, in a name that leads with them (step 2). It never increases along the order of
 * compareQuality.
 */
export function similarityScore(q: Quality, known: number, all: number = known, lead = 0): number {
  if (all === 0) return 0;
  let raw: number;
  if (q.equality === 2) raw = known / all;
  else if (q.equality === 1) raw = (ALIAS_EQUALITY_SCORE * known) / all;
  else if (q.matched === 0) raw = 0;
  else {
    const found = q.leads ? lead : 0;
    const matched = q.matched + found;
    const credit = q.credit + BEST_CREDIT * found;
    raw = (MATCH_CEILING * (matched - 1 + credit / (BEST_CREDIT * matched))) / (all + lead);
  }
  return Math.round(raw * 10_000) / 10_000;
}
