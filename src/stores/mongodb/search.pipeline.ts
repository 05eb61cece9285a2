// The aggregation pipelines of the school search. Two ways to find candidates (community
// MongoDB's $text, or Atlas Search), one way to score, order and page them: the contract's.
//
// Why the order is not textScore: the contract defines similarity_score (the share of the
// matched name's letters the query covers) and a total order (score, then name, then id) that
// every store must give. textScore has no IDF, depends on how many grams a name has, and would
// order the same catalog differently here than on the embedded store. So $text (whose index
// makes the look-up fast) selects, and the score is computed from each name's stored length.
import type { Document } from 'mongodb';

/** What the pipelines are asked: the query's words (texts.ts), the state, the page. */
export interface PipelineQuery {
  /** Distinct folded words; every one must match a word of one and the same name (a prefix; one letter: whole). */
  readonly terms: readonly string[];
  /** Letters and digits the terms cover: the score's numerator. */
  readonly coveredLength: number;
  readonly state?: string | undefined;
  readonly offset: number;
  readonly limit: number;
}

/** How a hit that Atlas Search found only by a typo is scored: as a name twice as long. */
export const FUZZY_PENALTY = 2;

/**
 * Community MongoDB: $text looks up one term, the most selective, and $elemMatch keeps the
 * schools whose one name holds every term. $text ORs the words it is given, so handing it every
 * term fetched every school holding any of them: a third of the catalog for a median full name.
 */
export function textCandidates(query: PipelineQuery): Document[] {
  const match: Document = {
    // Terms are letters and digits only (the domain's words): no quotes or '-' reach $text.
    $text: { $search: selectiveTerm(query.terms) },
    texts: { $elemMatch: { grams: { $all: [...query.terms] } } },
  };
  if (query.state !== undefined) match['state'] = query.state;
  return [{ $match: match }];
}

/**
 * The term that matches the fewest schools, as far as the query alone tells: the longest (the
 * first of equals). Terms are looked up as edge grams, so a longer term never matches more
 * schools than its own prefixes, and a long word is rare in names where a short one ("of",
 * "st") is everywhere.
 */
export function selectiveTerm(terms: readonly string[]): string {
  return terms.reduce((best, term) => (term.length > best.length ? term : best), terms[0] ?? '');
}

export interface AtlasOptions {
  readonly index: string;
}

/**
 * Atlas Search: every term must match the start of a word of one and the same name
 * (embeddedDocument over the names, autocomplete), with one typo forgiven in terms of four
 * letters or more; a one-letter term must be a whole word. The state is a filter (no effect on
 * relevance). Index: schools.search-index.json (`texts` as embeddedDocuments).
 */
export function atlasCandidates(query: PipelineQuery, options: AtlasOptions): Document[] {
  const must = query.terms.map((term) =>
    term.length === 1
      ? { text: { path: 'texts.terms', query: term } }
      : {
          autocomplete: {
            path: 'texts.terms',
            // Grams are indexed up to 15 characters (Atlas's maximum); the exact check below
            // still compares the whole term.
            query: [...term].slice(0, 15).join(''),
            ...(term.length >= 4 ? { fuzzy: { maxEdits: 1, prefixLength: 1 } } : {}),
          },
        },
  );
  const oneName = { embeddedDocument: { path: 'texts', operator: { compound: { must } } } };
  const filter = query.state === undefined ? {} : { filter: [{ equals: { path: 'state', value: query.state } }] };
  return [{ $search: { index: options.index, compound: { must: [oneName], ...filter } } }];
}

/**
 * Scores, orders and pages candidates as the embedded store does: matchedLength is the length of
 * the shortest name whose grams hold every term; rank = max(matchedLength, coveredLength), so
 * names shorter than the query all score 1 and the name decides. `total` counts every candidate.
 * `fuzzy`: candidates may hold no such name (Atlas typo matches); they rank as a name
 * FUZZY_PENALTY times as long as theirs.
 */
export function rankAndPage(query: PipelineQuery, fuzzy: boolean): Document[] {
  const terms = { $literal: [...query.terms] };
  const exactLength = {
    $min: {
      $map: {
        input: { $filter: { input: '$texts', as: 't', cond: { $setIsSubset: [terms, '$$t.grams'] } } },
        as: 't',
        in: '$$t.length',
      },
    },
  };
  const matchedLength = fuzzy
    ? { $ifNull: [exactLength, { $multiply: [FUZZY_PENALTY, { $arrayElemAt: ['$texts.length', 0] }] }] }
    : exactLength;
  return [
    { $project: { name: 1, city: 1, state: 1, imageUrl: 1, sortKey: 1, matchedLength } },
    { $set: { rank: { $max: ['$matchedLength', query.coveredLength] } } },
    {
      $facet: {
        total: [{ $count: 'n' }],
        hits: [{ $sort: { rank: 1, sortKey: 1, _id: 1 } }, { $skip: query.offset }, { $limit: query.limit }],
      },
    },
  ];
}
