// The search rules applied to a set of candidate schools: which of them match (soft matching,
// equality) and in what order, with what score. The reference engine hands it the whole catalog;
// the MongoDB $text engine hands it what its one-word look-up found. One implementation, so an
// engine that ranks here cannot drift from the reference.
import { canonicalKey, indexTerms } from './analysis.ts';
import type { CatalogSchool } from './engine.ts';
import { coversName, matchKind, nameWords, startsWithQuery } from './matching.ts';
import { nameSortKey } from './normalize.ts';
import type { QueryWord, SearchPlan } from './query.ts';
import { compareQuality, compareStatic, credit, Field, Kind, type Equality, type Quality } from './ranking.ts';

/** A school as the rules read it: its terms per field, its equality keys, its name's words. */
export interface Analysed {
  readonly school: CatalogSchool;
  readonly sortKey: string;
  /** Terms per field (analysis.ts, indexTerms): name, alternative names, city. */
  readonly fields: readonly [readonly string[], readonly string[], readonly string[]];
  readonly nameKey: string;
  readonly aliasKeys: readonly string[];
  readonly nameWords: readonly string[];
}

export function analyse(school: CatalogSchool): Analysed {
  return {
    school,
    sortKey: nameSortKey(school.name),
    fields: [indexTerms(school.name), school.aliases.flatMap(indexTerms), indexTerms(school.city)],
    nameKey: canonicalKey(school.name),
    aliasKeys: school.aliases.map(canonicalKey),
    nameWords: nameWords(school.name),
  };
}

export interface RankOptions {
  /** false: a word matches only as itself, a synonym, a translation or a start (no typos). */
  readonly typos: boolean;
}

export interface Ranked {
  readonly entry: Analysed;
  readonly quality: Quality;
}

export interface Ranking {
  /** The matches, best first (ranking.ts: compareQuality, then compareStatic). */
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

/**
 * Ranks `entries` for `plan` (its words all known: query.ts, withoutWords). `found(w)`: how many
 * schools in scope have word w, for soft matching: when no entry has every word, the most common
 * word is dropped (on a tie, the later one), one at a time, until some entry has all that remain.
 * The candidates must hold every school that has the rarest word, or the ones that match may be
 * fewer than the catalog's.
 */
export function rankCandidates(plan: SearchPlan, entries: readonly Analysed[], found: (w: number) => number, options: RankOptions): Ranking {
  const credits = entries.map((e) => plan.words.map((w) => bestCredit(w, e, options)));
  let required = plan.words.map((_, w) => w);
  const hasAll = (e: number) => required.every((w) => credits[e]![w]! > 0);
  while (required.length > 0 && !entries.some((_, e) => hasAll(e))) {
    let drop = required[0]!;
    for (const w of required) if (found(w) >= found(drop)) drop = w;
    required = required.filter((w) => w !== drop);
  }

  const results: Ranked[] = [];
  entries.forEach((entry, e) => {
    const equality: Equality = plan.canonical === '' ? 0 : entry.nameKey === plan.canonical ? 2 : entry.aliasKeys.includes(plan.canonical) ? 1 : 0;
    if (equality === 0 && (required.length === 0 || !hasAll(e))) return;
    const got = credits[e]!.filter((c) => c > 0);
    results.push({
      entry,
      quality: {
        equality,
        matched: got.length,
        credit: got.reduce((a, b) => a + b, 0),
        covers: coversName(plan, entry.nameWords, entry.fields[0], options.typos),
        starts: startsWithQuery(plan, entry.nameWords, options.typos),
      },
    });
  });
  results.sort(
    (a, b) =>
      compareQuality(a.quality, b.quality) ||
      compareStatic({ ...a.entry.school, sortKey: a.entry.sortKey }, { ...b.entry.school, sortKey: b.entry.sortKey }),
  );
  return { results, required };
}
