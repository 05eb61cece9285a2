// The search rules applied to a set of candidate schools: which of them match (soft matching,
// equality) and in what order, with what score. The reference engine hands it the whole catalog;
// the MongoDB $text engine hands it what its one-word look-up found. One implementation, so an
// engine that ranks here cannot drift from the reference.
import { canonicalKey, indexTerms } from './analysis.ts';
import type { CatalogSchool } from '../catalog/catalog.ports.ts';
import type { EnginePage } from './engine.port.ts';
import { compareDistance, distanceOf } from './filters.ts';
import type { GeoPoint } from '../catalog/geo.ts';
import {
  aliasNamedBy,
  beginsWith,
  coversName,
  equalNameKeys,
  leadsWithQuery,
  matchKind,
  namedAsTyped,
  nameStarts,
  nameWords,
  holdsQuery,
  startsWithQuery,
} from './matching.ts';
import { nameSortKey } from '../shared/normalize.ts';
import { leadingSmallWords, withoutWords, type QueryWord, type SearchPlan } from './query.ts';
import {
  compareLiteral,
  compareQuality,
  isRanked,
  compareStatic,
  credit,
  type Field,
  Kind,
  similarityScore,
  type Equality,
  type Quality,
} from './ranking-rules.ts';

/** A school as the rules read it: its terms per field, its equality keys, its name's words. */
export interface Analysed {
  readonly school: CatalogSchool;
  readonly sortKey: string;
  /** Terms per field (analysis.ts, indexTerms): name, alternative names, city. */
  readonly fields: readonly [readonly string[], readonly string[], readonly string[]];
  readonly nameKey: string;
  readonly aliasKeys: readonly string[];
  readonly nameWords: readonly string[];
  /** Where the name may be typed from (matching.ts, nameStarts); computed from the name when absent. */
  readonly nameStarts?: readonly number[];
  /** The name's distinctive parts' equality keys (partKeysOf); computed from the school when absent. */
  readonly partKeys?: readonly string[];
}

/** The other keys a school's name is equal to (matching.ts, equalNameKeys): a ranked school's distinctive parts, any school's name without "School". */
export function partKeysOf(school: CatalogSchool): readonly string[] {
  return equalNameKeys(school.name, school.prominence > 0);
}

export function analyse(school: CatalogSchool): Analysed {
  return {
    school,
    sortKey: nameSortKey(school.name),
    fields: [indexTerms(school.name), school.aliases.flatMap(indexTerms), indexTerms(school.city)],
    nameKey: canonicalKey(school.name),
    aliasKeys: school.aliases.map(canonicalKey),
    nameWords: nameWords(school.name),
    nameStarts: nameStarts(school.name),
    partKeys: partKeysOf(school),
  };
}

export interface RankOptions {
  /** false: a word matches only as itself, a synonym, a translation or a start (no typos). */
  readonly typos: boolean;
  /** Equally good matches are ordered by their distance from here (filters.ts, compareDistance). */
  readonly near?: GeoPoint | undefined;
}

export interface Ranked {
  readonly entry: Analysed;
  readonly quality: Quality;
  /** distance_km from the query's point, when it has one and the school has coordinates. */
  readonly distance?: number | undefined;
  /** The query names the school (equality 2) as its directory spells it (matching.ts, namedAsTyped). */
  readonly literal: boolean;
  /** The query names the school by a name that begins with the query's leading small words (ranking-rules.ts, step 7). */
  readonly leading: boolean;
}

export interface Ranking {
  /** The matches, best first (ranking-rules.ts: compareQuality, then compareStatic). */
  readonly results: readonly Ranked[];
  /** Indexes into plan.words of the words every non-equal match has (soft matching kept them). */
  readonly required: readonly number[];
}

/** The best credit a word earns in a school: 0 when it is not found there. */
export function bestCredit(word: QueryWord, entry: Analysed, options: RankOptions): number {
  let best = 0;
  entry.fields.forEach((terms, field) => {
    for (const term of terms) {
      const kind = matchKind(word, term);
      if (kind === Kind.None || (kind === Kind.Typo && !options.typos)) continue;
      best = Math.max(best, credit(kind, field as Field));
    }
  });
  return best;
}

/** What is left of a plan once the words no school has are dropped, with each word's school count. */
export interface KnownWords {
  readonly plan: SearchPlan;
  /** Indexes into the typed plan's words of the words kept, in order. */
  readonly known: readonly number[];
  /** How many schools in scope have word w of `plan`. */
  readonly found: (w: number) => number;
}

/**
 * Leaves out the words no school has (`counts`: per word of `typed`, schools in scope that have
 * it), as if they had not been typed (they still count in the score); undefined when none is left.
 */
export function withKnownWords(typed: SearchPlan, counts: readonly number[]): KnownWords | undefined {
  const known = typed.words.map((_, w) => w).filter((w) => counts[w]! > 0);
  if (known.length === 0) return undefined;
  return { plan: withoutWords(typed, known), known, found: (w) => counts[known[w]!]! };
}

/** The word soft matching drops first among `words`: the most common, the later of equals. */
export function mostCommon(words: readonly number[], found: (w: number) => number): number {
  let drop = words[0]!;
  for (const w of words) if (found(w) >= found(drop)) drop = w;
  return drop;
}

/**
 * Ranks `entries` for `plan` (its words all known: query.ts, withoutWords). `found(w)`: how many
 * schools in scope have word w, for soft matching: when no entry has every word, the most common
 * word is dropped (on a tie, the later one), one at a time, until some entry has all that remain.
 * The candidates must hold every school that has the rarest word, or the ones that match may be
 * fewer than the catalog's.
 */
export function rankCandidates(
  plan: SearchPlan,
  entries: readonly Analysed[],
  found: (w: number) => number,
  options: RankOptions,
): Ranking {
  const credits = entries.map((e) => plan.words.map((w) => bestCredit(w, e, options)));
  let required = plan.words.map((_, w) => w);
  const hasAll = (e: number) => required.every((w) => credits[e]![w]! > 0);
  while (required.length > 0 && !entries.some((_, e) => hasAll(e))) {
    const drop = mostCommon(required, found);
    required = required.filter((w) => w !== drop);
  }

  const results: Ranked[] = [];
  const lead = leadingSmallWords(plan);
  entries.forEach((entry, e) => {
    const equality: Equality =
      plan.canonical === ''
        ? 0
        : entry.nameKey === plan.canonical || (entry.partKeys ?? partKeysOf(entry.school)).includes(plan.canonical)
          ? 2
          : entry.aliasKeys.some((k, i) => k === plan.canonical && aliasNamedBy(lead, entry.school.aliases[i]!))
            ? 1
            : 0;
    if (equality === 0 && (required.length === 0 || !hasAll(e))) return;
    const got = credits[e]!.filter((c) => c > 0);
    results.push({
      entry,
      distance: distanceOf(entry.school, options.near),
      literal: equality === 2 && namedAsTyped(plan.typed, entry.school.name, entry.school.prominence > 0),
      leading: equality === 2 ? beginsWith(lead, entry.school.name) : equality === 1 && lead.length > 0,
      quality: {
        equality,
        matched: got.length,
        credit: got.reduce((a, b) => a + b, 0),
        covers: coversName(plan, entry.nameWords, entry.fields[0], options.typos),
        ranked: isRanked(entry.school.prominence) && holdsQuery(plan, entry.nameWords, options.typos),
        starts: startsWithQuery(
          plan,
          entry.nameWords,
          options.typos,
          entry.nameStarts ?? nameStarts(entry.school.name),
        ),
        leads: leadsWithQuery(plan, lead, entry.school.name, entry.nameWords, options.typos),
      },
    });
  });
  results.sort(
    (a, b) =>
      compareQuality(a.quality, b.quality) ||
      compareDistance(a.distance, b.distance) ||
      compareLiteral(a.literal, b.literal) ||
      compareLiteral(a.leading, b.leading) ||
      compareStatic({ ...a.entry.school, sortKey: a.entry.sortKey }, { ...b.entry.school, sortKey: b.entry.sortKey }),
  );
  return { results, required };
}

/** The page of ranked results; scores count every word typed (`typed`), found or not. */
export function pageOf(
  results: readonly Ranked[],
  total: number,
  plan: SearchPlan,
  typed: SearchPlan,
  offset: number,
  limit: number,
): EnginePage {
  const lead = leadingSmallWords(plan).length;
  return {
    total,
    hits: results.slice(offset, offset + limit).map(({ entry, quality, distance }) => {
      // What a page shows: the school without what only ranking reads.
      const { aliases: _aliases, prominence: _prominence, ...school } = entry.school;
      const score = similarityScore(quality, plan.words.length, typed.words.length, lead);
      return distance === undefined ? { school, score } : { school, score, distanceKm: distance };
    }),
  };
}
