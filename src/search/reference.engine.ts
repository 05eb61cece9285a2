// The search semantics evaluated literally: every school, every term, every word, then a full
// sort. Slow (it reads the whole catalog for every query) and obviously right; the property
// tests hold the fast engines to it, and the quality benchmark can run it.
import { canonicalKey, indexTerms } from '../domain/search/analysis.ts';
import type { CatalogSchool, EngineHit, EnginePage, EngineQuery, SearchEngine } from '../domain/search/engine.ts';
import { coversName, matchKind, nameWords, startsWithQuery } from '../domain/search/matching.ts';
import { nameSortKey } from '../domain/search/normalize.ts';
import { withoutWords, type QueryWord } from '../domain/search/query.ts';
import { compareQuality, compareStatic, credit, Field, Kind, similarityScore, type Equality, type Quality } from '../domain/search/ranking.ts';

interface Entry {
  readonly school: CatalogSchool;
  readonly sortKey: string;
  /** Terms per field: name, alternative names, city. */
  readonly fields: readonly [readonly string[], readonly string[], readonly string[]];
  readonly nameKey: string;
  readonly aliasKeys: readonly string[];
  readonly nameWords: readonly string[];
}

export class ReferenceEngine implements SearchEngine {
  readonly #entries: readonly Entry[];

  constructor(catalog: readonly CatalogSchool[]) {
    this.#entries = catalog.map((school) => ({
      school,
      sortKey: nameSortKey(school.name),
      fields: [indexTerms(school.name), school.aliases.flatMap(indexTerms), indexTerms(school.city)],
      nameKey: canonicalKey(school.name),
      aliasKeys: school.aliases.map(canonicalKey),
      nameWords: nameWords(school.name),
    }));
  }

  async search(query: EngineQuery): Promise<EnginePage> {
    const entries = this.#entries.filter((e) => query.state === undefined || e.school.state === query.state);
    const has = (word: QueryWord) => entries.some((e) => bestCredit(word, e) > 0);
    // Words no school has are left out as if not typed (they still count in the score).
    const typed = query.plan;
    const plan = withoutWords(typed, typed.words.map((_, w) => w).filter((w) => has(typed.words[w]!)));
    // credits[e][w]: the best credit word w earns in entry e (0: not found).
    const credits = entries.map((e) => plan.words.map((w) => bestCredit(w, e)));
    const found = (w: number) => entries.filter((_, e) => credits[e]![w]! > 0).length;

    // Soft matching: when no school has every word, drop the most common one at a time (on a
    // tie, the later one), until some school has all that remain.
    let required = plan.words.map((_, w) => w);
    const hasAll = (e: number) => required.every((w) => credits[e]![w]! > 0);
    while (required.length > 0 && !entries.some((_, e) => hasAll(e))) {
      let drop = required[0]!;
      for (const w of required) if (found(w) >= found(drop)) drop = w;
      required = required.filter((w) => w !== drop);
    }

    const results: { entry: Entry; quality: Quality }[] = [];
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
          covers: coversName(plan, entry.nameWords, entry.fields[0]),
          starts: startsWithQuery(plan, entry.nameWords),
        },
      });
    });
    results.sort(
      (a, b) =>
        compareQuality(a.quality, b.quality) ||
        compareStatic({ ...a.entry.school, sortKey: a.entry.sortKey }, { ...b.entry.school, sortKey: b.entry.sortKey }),
    );
    const hits: EngineHit[] = results.slice(query.offset, query.offset + query.limit).map(({ entry, quality }) => ({
      school: { id: entry.school.id, name: entry.school.name, city: entry.school.city, state: entry.school.state, imageUrl: entry.school.imageUrl },
      score: similarityScore(quality, plan.words.length, typed.words.length),
    }));
    return { total: results.length, hits };
  }
}

function bestCredit(word: QueryWord, entry: Entry): number {
  let best = 0;
  entry.fields.forEach((terms, field) => {
    for (const term of terms) {
      const kind = matchKind(word, term);
      if (kind !== Kind.None) best = Math.max(best, credit(kind, field as Field));
    }
  });
  return best;
}
