// The aggregation pipelines of the $text engine (text.engine.ts). Each looks up one token
// (search-fields.ts: one term in a state, the word behind every state's code in the catalog) with
// $text (or schools by id, found so before), and all but the cached total, the first read of a
// few matches of common words and the nearest candidates stop after a fixed number of documents:
// $text ORs the words it is given, so giving it the whole query made the server fetch every
// school holding any word (a third of the catalog for a median full name). The scope beyond the
// state (scope.ts: levels, types, a radius) is a condition of the same $match: $text must be in
// the first stage, and $geoNear, which must be first too, cannot join it, so the radius is an
// exact expression over the stored coordinates instead.
import type { Document } from 'mongodb';
import type { GeoPoint } from '../../domain/catalog/geo.ts';
import { CANDIDATE_FIELDS } from './candidates.ts';
import { nearnessExpression } from './scope.ts';
import { holdsEvery, textSearch, type Token } from './search-fields.ts';

/**
 * The first stage: the token's schools that the scope keeps (`scope`: scope.ts, scopeMatch) and,
 * when `others` are given, that hold every one of those words too (tested on what $text yields;
 * a condition of its own, beside the scope's, which may hold an `$expr` too).
 */
function lookUp(token: Token, scope: Document, others: readonly string[] = []): Document {
  return {
    $match: {
      $text: { $search: textSearch(token) },
      ...scope,
      ...(others.length > 0 ? { $and: [holdsEvery(others, token.state)] } : {}),
    },
  };
}

/** How many schools in scope hold the token, counting no further than `cap`. */
export function countPipeline(token: Token, scope: Document, cap: number): Document[] {
  return [lookUp(token, scope), { $limit: cap }, { $count: 'n' }];
}

/** How many schools in scope hold the token, all of them counted (soft matching between capped counts: candidates.ts, exactFound). */
export function exactCountPipeline(token: Token, scope: Document): Document[] {
  return [lookUp(token, scope), { $count: 'n' }];
}

/**
 * The first `cap` schools in scope that hold the token (and every word of `others`), in the text
 * index's order, with what ranking reads. With `others`, the server examines holders of the token
 * until `cap` of them hold the others too: every holder in scope when fewer do.
 */
export function candidatesPipeline(
  token: Token,
  scope: Document,
  cap: number,
  others: readonly string[] = [],
): Document[] {
  return [lookUp(token, scope, others), { $limit: cap }, { $project: CANDIDATE_FIELDS }];
}

/**
 * Of the first `cap` schools in scope that hold the token, those that hold every word of `others`
 * too: no more than `cap` documents examined, however few of them hold the others.
 */
export function sampledPipeline(token: Token, scope: Document, cap: number, others: readonly string[]): Document[] {
  return [
    lookUp(token, scope),
    { $limit: cap },
    ...(others.length > 0 ? [{ $match: holdsEvery(others, token.state) }] : []),
    { $project: CANDIDATE_FIELDS },
  ];
}

/** The schools with these ids (found before by candidatesPipeline), with what ranking reads: by _id, no more examined. */
export function byIdPipeline(ids: readonly string[]): Document[] {
  return [{ $match: { _id: { $in: [...ids] } } }, { $project: CANDIDATE_FIELDS }];
}

/**
 * The `cap` schools in scope holding the token (and `others`) that are nearest to `near` (those
 * without coordinates last, then in the static order), and the `cap` nearest of them that are
 * ranked: the candidates of a query with `near` whose every word is in more schools than a
 * look-up reads. Ranked schools come before the distance among equals when their name holds the
 * query (ranking-rules.ts, step 4′), which the rules tell among the candidates: the nearest ranked
 * ones are read so that a far ranked school the page needs is not cut off by nearer unranked
 * ones. The server reads every school in scope holding the token once to choose them (two
 * top-`cap` sorts of one $facet, in memory).
 */
export function nearestPipeline(
  token: Token,
  scope: Document,
  near: GeoPoint,
  cap: number,
  others: readonly string[] = [],
): Document[] {
  const nearest = [{ $sort: { nearness: 1, prominence: -1, sortKey: 1, _id: 1 } }, { $limit: cap }];
  return [
    lookUp(token, scope, others),
    { $project: { ...CANDIDATE_FIELDS, nearness: nearnessExpression(near) } },
    { $facet: { all: nearest, ranked: [{ $match: { prominence: { $gt: 0 } } }, ...nearest] } },
    { $project: { candidates: { $setUnion: ['$all', '$ranked'] } } },
    { $unwind: '$candidates' },
    { $replaceRoot: { newRoot: '$candidates' } },
  ];
}

/**
 * How many schools in scope hold the token and every other word's: the total of a query whose
 * rarest word is in more schools than a look-up reads, and whether soft matching keeps its words.
 * It reads every school holding `token`, so the engine caches it per catalog version and scope.
 */
export function totalPipeline(token: Token, others: readonly string[], scope: Document): Document[] {
  return [lookUp(token, scope, others), { $count: 'n' }];
}
