// The Atlas engine's own logic (counts, soft matching by asking again without the most common
// word, ranking the candidates by the rules, the total) over a stand-in of Atlas Search that
// answers each word clause with the rules' own matching. No Atlas runs here: the queries' shape
// is checked in mongodb.pieces.test.ts, their meaning on Atlas only by the GitHub workflow's
// Atlas job when one is configured (README, "Verified against").
import fc from 'fast-check';
import type { Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';
import { planQuery, type QueryWord } from '../../src/domain/search/query.ts';
import { analyse, bestCredit } from '../../src/domain/search/rank.ts';
import { compareStatic } from '../../src/domain/search/ranking.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { MongoAtlasEngine } from '../../src/stores/mongodb/atlas.engine.ts';
import { toDocument } from '../../src/stores/mongodb/school.store.ts';
import { catalogOf, queryArb, schoolArb } from '../support/search-arbitraries.ts';

/** Atlas as far as the engine relies on it: a word clause matches where the rules find the word; counts and totals are counts. */
function atlasStandIn(catalog: readonly CatalogSchool[], words: () => readonly QueryWord[]) {
  const entries = catalog.map(analyse);
  const asked: Document[][] = [];
  const wordOf = (clause: Document): QueryWord => {
    const text = clause['compound'].should[0].text.query as string;
    return words().find((w) => w.text === text)!;
  };
  const inScope = (state: Document[] | undefined) =>
    entries.filter((e) => !state || e.school.state === state[0]!['equals'].value);
  return {
    asked,
    catalogVersion: async () => '1',
    ready: async () => undefined,
    async aggregate(pipeline: Document[]): Promise<Document[]> {
      asked.push(pipeline);
      const meta = pipeline[0]!['$searchMeta'];
      if (meta) {
        const word = wordOf(meta.compound.must[0]);
        const n = inScope(meta.compound.filter).filter((e) => bestCredit(word, e, { typos: true }) > 0).length;
        return [{ count: { lowerBound: Math.min(n, meta.count.threshold) } }];
      }
      const search = pipeline[0]!['$search'];
      const must: QueryWord[] = search.compound.must.map(wordOf);
      const hits = inScope(search.compound.filter)
        .filter((e) => must.every((w) => bestCredit(w, e, { typos: true }) > 0))
        .sort((a, b) => compareStatic({ ...a.school, sortKey: a.sortKey }, { ...b.school, sortKey: b.sortKey }));
      const limit = pipeline[1]!['$limit'] as number;
      return hits.slice(0, limit).map((e) => ({
        ...toDocument({ ...e.school, aliases: [...e.school.aliases] }),
        meta: { count: { total: hits.length } },
      }));
    },
  };
}

describe('MongoAtlasEngine over a stand-in of Atlas Search', () => {
  test("when catalogs and queries are random (150 runs), then totals, pages and scores are the reference engine's", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(schoolArb, { minLength: 1, maxLength: 40 }),
        fc.array(queryArb, { minLength: 1, maxLength: 6 }),
        async (schools, queries) => {
          const catalog = catalogOf(schools);
          let current: readonly QueryWord[] = [];
          const engine = new MongoAtlasEngine(
            atlasStandIn(catalog, () => current),
            'schools_search',
            { versionTtlMs: 60_000 },
          );
          const reference = new ReferenceEngine(catalog);
          for (const q of queries) {
            const asked = { plan: planQuery(q.words.join(' ')), state: q.state, offset: q.offset, limit: q.limit };
            current = asked.plan.words;
            expect({ query: q.words.join(' '), ...(await engine.search(asked)) }).toEqual({
              query: q.words.join(' '),
              ...(await reference.search(asked)),
            });
          }
        },
      ),
      { numRuns: 150, seed: 20261126 },
    );
  }, 120_000);

  test('when no school has every word, then the engine asks again without the most common one, and counts come from the cache the second time', async () => {
    const catalog = catalogOf([
      { name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: [], prominence: 100 },
      { name: 'Boston University', city: 'Boston', state: 'MA', aliases: [], prominence: 90 },
      { name: 'Yale Law School', city: 'New Haven', state: 'CT', aliases: [], prominence: 90 },
    ]);
    const plan = planQuery('yale university');
    const source = atlasStandIn(catalog, () => plan.words);
    const engine = new MongoAtlasEngine(source, 'schools_search', { versionTtlMs: 60_000 });
    const page = await engine.search({ plan, offset: 0, limit: 10 });
    expect(page.hits.map((h) => h.school.name)).toEqual(['Yale Law School']);
    expect(page.total).toBe(1);
    // Two counts, the question with both words, then without "university" (in two schools).
    expect(source.asked.map((p) => Object.keys(p[0]!)[0])).toEqual([
      '$searchMeta',
      '$searchMeta',
      '$search',
      '$search',
    ]);
    expect(source.asked[3]![0]!['$search'].compound.must).toHaveLength(1);
    await engine.search({ plan, offset: 0, limit: 10 });
    expect(source.asked.slice(4).map((p) => Object.keys(p[0]!)[0])).toEqual(['$search', '$search']);
  });
});
