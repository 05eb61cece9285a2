// What a school document carries for the MongoDB search engines, derived from its name, aliases,
// city and state by the search rules (src/domain/search/):
//
// - `search`: the rules' reading of the school (terms per field, equality keys, the name's
//   words): what the $text engine ranks by without analysing anything per query, and what the
//   Atlas Search index maps.
// - `tokens`: what the text index holds. A query word is looked up as one token, and the token is
//   there exactly when the word matches some term of the school without a typo: every start of
//   every term (edge grams, from one letter: the word being typed may be a start), and each
//   term's synonyms and translations whole (synonyms.ts). Each token is stored once, behind the
//   school's state (`<state><token>`, the two-letter code in lower case), so a search within a
//   state looks up only that state's schools; a search in the whole catalog gives $text the word
//   behind every state's code (textSearch), and as a school holds only its own state's, $text's OR
//   of those terms is the word's schools, each once. Version 3 stored every token a second time,
//   behind `0`, for the whole catalog: twice the text index's keys for the same answers
//   (docs/stores.md has the figures). Grams are letters and digits, so a token is one word for
//   the text index.
// - `geo`: the school's coordinates as a GeoJSON point (longitude first), when both are known:
//   what the Atlas Search index maps for its `geoWithin` and `near` operators (the $text engine
//   measures from `latitude` and `longitude` themselves: scope.ts).
//
// The store writes these with every school as the fields of a catalog extension
// (catalog-extension.ts: SEARCH_EXTENSION), without reading them; rewriting those of an older
// version is the wing's own (search-fields.migration.ts).
import type { Document } from 'mongodb';
import { synonymsOf, translationsOf } from '../../domain/search/synonyms.ts';
import { analyse } from '../../domain/search/rank-candidates.ts';
import type { CatalogSchool } from '../../domain/catalog/catalog.ports.ts';
import { STATE_CODES } from '../../domain/catalog/states.ts';
import type { SchoolDocument } from '../../mongodb-shared/school-document.ts';

/**
 * Bumped when the derivation changes: documents of an older version are rewritten by
 * `school-search indexes`. 3: `geo` (and the rewrite gives a document without `updatedAt` its time).
 * 4: each token once, behind the school's state (version 3 also stored it behind `0`, for the catalog).
 * 5: a name with its article last has the terms of its reading order too (analysis.ts, readingOrder).
 */
export const SEARCH_FIELDS_VERSION = 5;

/** The prefix of every state's tokens, in the order $text scans their terms (it sorts them). */
const STATE_PREFIXES: readonly string[] = [...STATE_CODES].map((s) => s.toLowerCase()).sort();

export interface SearchFields {
  readonly name: string[];
  readonly aliases: string[];
  readonly city: string[];
  readonly nameKey: string;
  readonly aliasKeys: string[];
  readonly nameWords: string[];
}

/** A GeoJSON point: [longitude, latitude]. */
export interface GeoJsonPoint {
  readonly type: 'Point';
  readonly coordinates: [number, number];
}

/** What a school's document carries for search, beside the store's fields. */
export interface DerivedSearch {
  /** The search rules' reading of the school: what the $text engine ranks by and Atlas Search indexes. */
  readonly search: SearchFields;
  /** What the text index holds: one token per way a query word can match. */
  readonly tokens: string[];
  /** latitude and longitude as a GeoJSON point, for Atlas Search's geo operators; absent without both. */
  readonly geo?: GeoJsonPoint;
  /** The derivation's version of these fields: other versions are rewritten by `school-search indexes`. */
  readonly searchVersion: number;
}

/** A school's document as the engines read it: the store's fields and the search fields. */
export type SearchedSchool = SchoolDocument<DerivedSearch>;

export function deriveSearch(school: CatalogSchool): DerivedSearch {
  const a = analyse(school);
  const search: SearchFields = {
    name: [...a.fields[0]],
    aliases: [...a.fields[1]],
    city: [...a.fields[2]],
    nameKey: a.nameKey,
    aliasKeys: [...a.aliasKeys],
    nameWords: [...a.nameWords],
  };
  const plain = new Set<string>();
  for (const term of [...search.name, ...search.aliases, ...search.city]) {
    let start = '';
    // By code point, so that a start never ends inside a surrogate pair.
    for (const char of term) {
      start += char;
      plain.add(start);
    }
    for (const other of [...synonymsOf(term), ...translationsOf(term)]) plain.add(other);
  }
  const state = school.state.toLowerCase();
  const tokens = [...plain].map((t) => state + t);
  const geo = geoOf(school);
  return { search, tokens, ...(geo ? { geo } : {}), searchVersion: SEARCH_FIELDS_VERSION };
}

/** The school's point, when its latitude and longitude are both known. */
export function geoOf(school: {
  latitude?: number | undefined;
  longitude?: number | undefined;
}): GeoJsonPoint | undefined {
  return school.latitude === undefined || school.longitude === undefined
    ? undefined
    : { type: 'Point', coordinates: [school.longitude, school.latitude] };
}

/** A folded query word as the text index is asked for it: in one state, or in the whole catalog (no state). */
export interface Token {
  readonly word: string;
  readonly state: string | undefined;
}

export function tokenOf(word: string, state: string | undefined): Token {
  return { word, state: state?.toLowerCase() };
}

/**
 * What $text is given to find the token's schools: in a state, its one term; in the whole catalog,
 * the word behind every state's code. $text ORs the terms it is given; a school holds only its own
 * state's, so the OR is the word's schools, each once, read term after term (one index range per
 * state) and, as the server's OR does not block, no further than a $limit after it needs.
 */
export function textSearch(token: Token): string {
  return token.state === undefined ? STATE_PREFIXES.map((s) => s + token.word).join(' ') : token.state + token.word;
}

/**
 * A $match condition: the school holds each of `words` as a token (in `state`, or in the school's
 * own state when no state is given: the condition then builds each token from the document's state).
 */
export function holdsEvery(words: readonly string[], state: string | undefined): Document {
  if (state !== undefined) return { tokens: { $all: words.map((w) => state.toLowerCase() + w) } };
  return {
    $expr: {
      $setIsSubset: [{ $map: { input: [...words], in: { $concat: [{ $toLower: '$state' }, '$$this'] } } }, '$tokens'],
    },
  };
}
