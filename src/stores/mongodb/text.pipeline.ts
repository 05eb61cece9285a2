// The aggregation pipelines of the $text engine (text.engine.ts). Each looks up one token
// (search.fields.ts) with $text, and all but the cached total stop after a fixed number of
// documents: $text ORs the words it is given, so giving it the whole query made the server fetch
// every school holding any word (a third of the catalog for a median full name).
import type { Document } from 'mongodb';
import { CANDIDATE_FIELDS } from './candidates.ts';

/** How many schools hold the token, counting no further than `cap`. */
export function countPipeline(token: string, cap: number): Document[] {
  return [{ $match: { $text: { $search: token } } }, { $limit: cap }, { $count: 'n' }];
}

/** The first `cap` schools that hold the token, in the text index's order, with what ranking reads. */
export function candidatesPipeline(token: string, cap: number): Document[] {
  return [{ $match: { $text: { $search: token } } }, { $limit: cap }, { $project: CANDIDATE_FIELDS }];
}

/**
 * How many schools hold the token and every other one: the total of a query whose rarest word is
 * in more schools than a look-up reads. It reads every school holding `token`, so the engine
 * caches it per catalog version.
 */
export function totalPipeline(token: string, others: readonly string[]): Document[] {
  return [
    { $match: { $text: { $search: token }, ...(others.length > 0 ? { tokens: { $all: [...others] } } : {}) } },
    { $count: 'n' },
  ];
}
