// The $text engine (MONGODB_SEARCH=text) on the mingo stand-in of its server
// (scripts/quality/mingo-search.ts), over documents made by the adapter's own toDocument: the same
// answers as the reference engine without typos on random catalogs, the shape of every pipeline
// (one token given to $text, then a $limit), and the bound on the documents a query examines.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool } from '../../src/domain/search/engine.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { toDocument } from '../../src/stores/mongodb/school.store.ts';
import { CANDIDATE_LIMIT } from '../../src/stores/mongodb/candidates.ts';
import { MongoTextEngine } from '../../src/stores/mongodb/text.engine.ts';
import { mingoSourceOf } from '../../scripts/quality/mingo-search.ts';
import { catalogOf, denseQueryArb, denseSchoolArb, queryArb, schoolArb } from '../support/search-arbitraries.ts';

function engineOver(catalog: readonly CatalogSchool[], candidateLimit = CANDIDATE_LIMIT) {
  const docs = catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }));
  const source = mingoSourceOf(async () => docs);
  return { source, engine: new MongoTextEngine(source, { candidateLimit, versionTtlMs: 60_000 }) };
}

const ask = (words: string, more: { state?: string; offset?: number; limit?: number } = {}) => ({
  plan: planQuery(words),
  state: more.state,
  offset: more.offset ?? 0,
  limit: more.limit ?? 25,
});

describe('MongoTextEngine against the reference engine without typos', () => {
  test.each([
    ['random catalogs and queries (150 runs)', schoolArb, queryArb, 1, 50],
    ['many schools tied on few words, small deep pages (100 runs)', denseSchoolArb, denseQueryArb, 20, 200],
  ] as const)(
    'when %s, then totals, pages and scores are the same',
    async (_what, school, query, min, max) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(school, { minLength: min, maxLength: max }),
          fc.array(query, { minLength: 1, maxLength: 8 }),
          async (schools, queries) => {
            const catalog = catalogOf(schools);
            const { engine } = engineOver(catalog);
            const reference = new ReferenceEngine(catalog, { typos: false });
            for (const q of queries) {
              const asked = { plan: planQuery(q.words.join(' ')), state: q.state, offset: q.offset, limit: q.limit };
              expect({ query: q.words.join(' '), ...(await engine.search(asked)) }).toEqual({
                query: q.words.join(' '),
                ...(await reference.search(asked)),
              });
            }
          },
        ),
        { numRuns: min === 1 ? 150 : 100, seed: 20261125 },
      );
    },
    120_000,
  );
});

describe('MongoTextEngine pipelines', () => {
  const catalog = catalogOf([
    ...Array.from({ length: 150 }, (_, i) => ({
      name: `Academy ${i}`,
      city: 'Springfield',
      state: i % 3 === 0 ? 'TX' : 'MA',
      aliases: [],
      prominence: i % 7,
    })),
    { name: 'Zephyr Academy', city: 'Austin', state: 'TX', aliases: [], prominence: 0 },
  ]);

  test('when a query has several words, then each pipeline gives $text one token, and the rarest word is the one read', async () => {
    const { source, engine } = engineOver(catalog, 50);
    const page = await engine.search(ask('academy zephyr of'));
    expect(page.hits.map((h) => h.school.name)).toEqual(['Zephyr Academy']);
    for (const pipeline of source.pipelines) {
      const search: unknown = pipeline[0]?.['$match']?.['$text']?.['$search'];
      expect(typeof search === 'string' && /^\S+$/.test(search), JSON.stringify(pipeline[0])).toBe(true);
    }
    // Counts of each word, then the candidates: of "zephyr", the rarest.
    const candidates = source.pipelines.filter((p) => p.some((stage) => '$project' in stage));
    expect(candidates.map((p) => p[0]!['$match']['$text']['$search'])).toEqual(['0zephyr']);
  });

  test('when a state is given, then the token is of that state, and only its schools are read', async () => {
    const { source, engine } = engineOver(catalog, 1000);
    const page = await engine.search(ask('academy', { state: 'TX' }));
    expect(page.total).toBe(51);
    expect(source.pipelines.every((p) => String(p[0]!['$match']['$text']['$search']).startsWith('txacademy'))).toBe(
      true,
    );
    expect(Math.max(...source.examined)).toBe(51);
  });

  test('when every word is in more schools than a look-up reads, then no look-up examines more than the limit + 1, and the total is counted once per catalog version', async () => {
    const limit = 50;
    const { source, engine } = engineOver(catalog, limit);
    const first = await engine.search(ask('academy', { limit: 10 }));
    expect(first.total).toBe(151);
    expect(first.hits).toHaveLength(10);
    // The one pipeline without a $limit: the total, which reads every school holding the word.
    const bounded = source.pipelines.map((p, i) => ({
      limited: p[1]?.['$limit'] !== undefined,
      examined: source.examined[i]!,
    }));
    expect(bounded.filter((b) => b.limited).every((b) => b.examined <= limit + 1)).toBe(true);
    expect(bounded.filter((b) => !b.limited)).toEqual([{ limited: false, examined: 151 }]);
    const runs = source.pipelines.length;
    const again = await engine.search(ask('academy', { offset: 10, limit: 10 }));
    expect(again.total).toBe(151);
    // Again: the count and the total come from the cache; only the candidates are read.
    expect(source.pipelines.length - runs).toBe(1);
    expect(source.examined.at(-1)).toBeLessThanOrEqual(limit);
  });

  test('when a word is in more schools than a look-up reads and the rarest is not, then the answer is exact and every look-up is bounded', async () => {
    const { source, engine } = engineOver(catalog, 50);
    const page = await engine.search(ask('academy 14'));
    const reference = await new ReferenceEngine(catalog, { typos: false }).search(ask('academy 14'));
    expect(page).toEqual(reference);
    expect(Math.max(...source.examined)).toBeLessThanOrEqual(51);
  });
});
