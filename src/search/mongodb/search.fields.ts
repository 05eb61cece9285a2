// What a school document carries for the MongoDB search engines, derived from its name, aliases,
// city and state by the search rules (src/domain/search/):
//
// - `search`: the rules' reading of the school (terms per field, equality keys, the name's
//   words): what the $text engine ranks by without analysing anything per query, and what the
//   Atlas Search index maps.
// - `tokens`: what the text index holds. A query word is looked up as one token, and the token is
//   there exactly when the word matches some term of the school without a typo: every start of
//   every term (edge grams, from one letter: the word being typed may be a start), and each
//   term's synonyms and translations whole (synonyms.ts). Each token comes twice: `0<token>` for
//   the whole catalog and `<state><token>` (two letters) for the school's state, so a search within
//   a state looks up only that state's schools. Grams are letters and digits, so a token is one
//   word for the text index, and the first character tells the scopes apart (a digit, or the
//   two-letter code).
// - `geo`: the school's coordinates as a GeoJSON point (longitude first), when both are known:
//   what the Atlas Search index maps for its `geoWithin` and `near` operators (the $text engine
//   measures from `latitude` and `longitude` themselves: scope.ts).
import { synonymsOf, translationsOf } from '../../domain/search/synonyms.ts';
import { analyse } from '../../domain/search/rank.ts';
import type { CatalogSchool } from '../../domain/search/engine.ts';

/**
 * Bumped when the derivation changes: documents of an older version are rewritten by
 * `school-search indexes`. 3: `geo` (and the rewrite gives a document without `updatedAt` its time).
 */
export const SEARCH_FIELDS_VERSION = 3;

const EVERYWHERE = '0';

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

export interface DerivedSearch {
  readonly search: SearchFields;
  readonly tokens: string[];
  /** Absent when the school's coordinates are not both known. */
  readonly geo?: GeoJsonPoint;
  readonly searchVersion: number;
}

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
  const tokens = [...plain].flatMap((t) => [EVERYWHERE + t, state + t]);
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

/** The one token a folded query word is looked up by, in the whole catalog or in one state. */
export function tokenOf(word: string, state: string | undefined): string {
  return (state === undefined ? EVERYWHERE : state.toLowerCase()) + word;
}
