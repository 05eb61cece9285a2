// The Atlas engine's own logic (counts, soft matching by asking again without the most common
// word, ranking the candidates by the rules, the total, the scope) over a stand-in of Atlas
// Search (test/support/atlas-search.ts) that evaluates every operator by Atlas's documented
// semantics, never by the rules: `fuzzy` as Lucene's FuzzyQuery (optimal string alignment,
// maxEdits 1 or 2, prefixLength, the best maxExpansions terms), autocomplete's edge grams, `text`
// with several whole terms, `wildcard`, the scope's operators, scores,
// count and stored source. So the engine's queries must *mean* the rules for its totals and pages
// to be the reference engine's. No Atlas runs here: the queries' shape is checked in
// mongodb-pieces.test.ts, their meaning on Atlas only by the GitHub workflow's Atlas job when one
// is configured (README, "Verified against").
import fc from 'fast-check';
import type { Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import type { EngineQuery } from '../../src/domain/search/engine.port.ts';
import { distanceKm } from '../../src/domain/catalog/geo.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { MongoAtlasEngine } from '../../src/search/mongodb/atlas.engine.ts';
import { FUZZY_MAX_EXPANSIONS } from '../../src/search/mongodb/atlas-typos.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import { atlasSearchStandIn } from '../support/atlas-search.ts';
import { catalogOf, queryArb, schoolArb, skewedQueryArb, skewedSchoolArb } from '../support/search-arbitraries.ts';
import { scopedQueryArb, scopedSchoolArb } from '../support/scope-arbitraries.ts';
import { expectReferenceAnswersAboveCap, OAK_RIDGE, OAK_RIDGE_QUERIES } from '../support/above-cap.ts';

async function engineOver(catalog: readonly CatalogSchool[], candidateLimit?: number) {
  const source = await atlasSearchStandIn(
    catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION)),
  );
  const engine = new MongoAtlasEngine(source, 'schools_search', {
    versionTtlMs: 60_000,
    ...(candidateLimit ? { candidateLimit } : {}),
  });
  return { source, search: (query: EngineQuery) => engine.search(query) };
}

// Words whose typos the rules and a looser fuzzy tell apart: four letters (no typo of their own,
// one in a 5-letter term), seven and eight (one of their own, two in a 9- or 10-letter term), a
// transposition of four letters ("yael"), and a word longer than the autocomplete grams (but no
// longer one it starts: a mistyped start of that is the documented difference, tested below).
const NEAR_MISS_WORDS = [
  'yale',
  'yael',
  'union',
  'unon',
  'high',
  'hugh',
  'baptist',
  'baptists',
  'baptistry',
  'bapist',
  'christian',
  'christan',
  'christians',
  'chrstian',
  'stanford',
  'stamford',
  'stanfords',
  'interdenominational',
  'university',
  'college',
];
const nearMissSchoolArb = fc.record({
  name: fc.array(fc.constantFrom(...NEAR_MISS_WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  city: fc.constantFrom('New Haven', 'Union', 'Stamford'),
  state: fc.constantFrom('CT', 'NJ'),
  aliases: fc.array(fc.constantFrom(...NEAR_MISS_WORDS), { maxLength: 1 }),
  prominence: fc.integer({ min: 0, max: 2 }),
});
/** A word of the vocabulary, a start of one, or one with one or two letters changed, dropped, added or swapped. */
const nearMissWordArb = fc.oneof(
  fc.constantFrom(...NEAR_MISS_WORDS, 'yal', 'bapt', 'interdenomination', 'interdenominationa'),
  fc
    .tuple(
      fc.constantFrom(...NEAR_MISS_WORDS),
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('sub', 'del', 'swap', 'ins')), { minLength: 1, maxLength: 2 }),
    )
    .map(([word, edits]) =>
      edits.reduce((w, [at, op]) => {
        const i = at % Math.max(1, w.length - 1);
        if (op === 'sub') return `${w.slice(0, i)}x${w.slice(i + 1)}`;
        if (op === 'del') return w.slice(0, i) + w.slice(i + 1);
        if (op === 'ins') return `${w.slice(0, i)}s${w.slice(i)}`;
        return w.slice(0, i) + (w[i + 1] ?? '') + w[i] + w.slice(i + 2);
      }, word),
    ),
);
const nearMissQueryArb = fc.record({
  words: fc.array(nearMissWordArb, { minLength: 1, maxLength: 3 }),
  stateCode: fc.option(fc.constantFrom('CT', 'NJ'), { nil: undefined }),
  offset: fc.nat(6),
  limit: fc.integer({ min: 1, max: 8 }),
});

describe('MongoAtlasEngine over a stand-in of Atlas Search', () => {
  test.each([
    ['random (150 runs)', schoolArb, queryArb],
    ['random, with levels, types, coordinates, near and radius (150 runs)', scopedSchoolArb, scopedQueryArb],
    [
      'random, of words one or two edits apart, four to twenty-two letters long (150 runs)',
      nearMissSchoolArb,
      nearMissQueryArb,
    ],
  ] as const)(
    "when catalogs and queries are %s, then totals, pages, scores and distances are the reference engine's",
    async (_what, school, query) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(school, { minLength: 1, maxLength: 40 }),
          fc.array(query, { minLength: 1, maxLength: 6 }),
          async (schools, queries) => {
            const catalog = catalogOf(schools);
            const { search } = await engineOver(catalog);
            const reference = new ReferenceEngine(catalog);
            for (const { words, ...rest } of queries) {
              const asked = { ...rest, plan: planQuery(words.join(' ')) };
              const label = JSON.stringify({ words, ...rest });
              expect({ label, ...(await search(asked)) }).toEqual({ label, ...(await reference.search(asked)) });
            }
          },
        ),
        { numRuns: 150, seed: 20261126 },
      );
    },
    120_000,
  );

  test('when no school has every word, then the engine asks again without the most common one, and counts come from the cache the second time', async () => {
    const catalog = catalogOf([
      { name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: [], prominence: 100 },
      { name: 'Boston University', city: 'Boston', state: 'MA', aliases: [], prominence: 90 },
      { name: 'Yale Law School', city: 'New Haven', state: 'CT', aliases: [], prominence: 90 },
    ]);
    const plan = planQuery('yale university');
    const { source, search } = await engineOver(catalog);
    const page = await search({ plan, offset: 0, limit: 10 });
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
    await search({ plan, offset: 0, limit: 10 });
    expect(source.asked.slice(4).map((p) => Object.keys(p[0]!)[0])).toEqual(['$search', '$search']);
  });

  test('when a word translates a spelling of a name\'s word ("universidad" for "Univ", "colegio" for "Coll"), then Atlas finds the school, as the in-process index does', async () => {
    const catalog = catalogOf([
      { name: 'Texas Univ', city: 'Austin', state: 'TX', aliases: [], prominence: 0 },
      { name: 'Marist Coll', city: 'Poughkeepsie', state: 'NY', aliases: [], prominence: 0 },
    ]);
    const { search } = await engineOver(catalog);
    const memory = new MemoryIndex(buildIndex(catalog));
    for (const query of ['universidad texas', 'colegio marist', 'universidad']) {
      const asked = { plan: planQuery(query), offset: 0, limit: 10 };
      const atlas = await search(asked);
      expect({ query, ...atlas }).toEqual({ query, ...memory.search(asked) });
      expect(atlas.total, query).toBe(1);
    }
  });

  test('when a 4-letter word is a transposition of a name\'s word ("yael", "yale"), then Atlas counts no school for it, and "yael university" finds the universities, as the in-process index does', async () => {
    const catalog = catalogOf([
      { name: 'Yale University', city: 'New Haven', state: 'CT', aliases: [], prominence: 100 },
      { name: 'Yale Law School', city: 'New Haven', state: 'CT', aliases: [], prominence: 60 },
      { name: 'Boston University', city: 'Boston', state: 'MA', aliases: [], prominence: 90 },
      { name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: [], prominence: 95 },
    ]);
    const { search } = await engineOver(catalog);
    const memory = new MemoryIndex(buildIndex(catalog));
    const reference = new ReferenceEngine(catalog);
    for (const query of ['yael university', 'yael', 'unon university', 'yale university']) {
      const asked = { plan: planQuery(query), offset: 0, limit: 10 };
      const atlas = await search(asked);
      expect({ query, ...atlas }).toEqual({ query, ...memory.search(asked) });
      expect({ query, ...atlas }).toEqual({ query, ...(await reference.search(asked)) });
    }
    const universities = await search({ plan: planQuery('yael university'), offset: 0, limit: 10 });
    expect(universities.hits.map((h) => h.school.name)).toEqual([
      'Yale University',
      'Harvard University',
      'Boston University',
    ]);
  });

  test('when more terms than maxExpansions are one edit from a word, then Atlas searches the nearest of them only: fewer schools than the rules find, never others (docs/search.md)', async () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const near = new Set<string>();
    for (let i = 0; i <= 6; i++) for (const c of letters) near.add(`marion`.slice(0, i) + c + `marion`.slice(i));
    for (let i = 0; i < 6; i++) for (const c of letters) near.add(`marion`.slice(0, i) + c + `marion`.slice(i + 1));
    near.delete('marion');
    const terms = [...near].filter((t) => !t.startsWith('marion')).slice(0, FUZZY_MAX_EXPANSIONS + 20);
    const catalog = catalogOf(
      terms.map((t) => ({ name: `${t} Academy`, city: 'Springfield', state: 'OH', aliases: [], prominence: 0 })),
    );
    const { search } = await engineOver(catalog);
    // "marion" is not the last word: only the whole-term fuzzy clause finds its typos.
    const asked = { plan: planQuery('marion academy'), offset: 0, limit: 25 };
    const reference = new ReferenceEngine(catalog);
    const expected = await reference.search({ ...asked, limit: catalog.length });
    const atlas = await search({ ...asked, limit: catalog.length });
    expect(expected.total).toBe(FUZZY_MAX_EXPANSIONS + 20);
    expect(atlas.total).toBe(FUZZY_MAX_EXPANSIONS);
    const found = new Set(expected.hits.map((h) => h.school.id));
    expect(atlas.hits.filter((h) => !found.has(h.school.id))).toEqual([]);
    // Lucene keeps the fewest edits, then byte order: the 20 missed are the last in byte order.
    const missed = expected.hits.filter((h) => !atlas.hits.some((a) => a.school.id === h.school.id));
    expect(missed.map((h) => h.school.name.split(' ')[0]).sort()).toEqual([...terms].sort().slice(-20));
  });

  test('when the word being typed is over 15 letters and mistyped, then a longer word it starts is not found on Atlas (beyond the edge grams: docs/search.md), while its whole-word typos and exact starts are', async () => {
    const catalog = catalogOf([
      { name: 'Interdenominationalist Academy', city: 'Union', state: 'NJ', aliases: [], prominence: 0 },
      { name: 'Interdenominational College', city: 'Union', state: 'NJ', aliases: [], prominence: 0 },
    ]);
    const { search } = await engineOver(catalog);
    const reference = new ReferenceEngine(catalog);
    const names = async (page: Promise<{ hits: readonly { school: { name: string } }[] }>) =>
      (await page).hits.map((h) => h.school.name);
    for (const query of ['interdenominational', 'interdenominationa', 'xnterdenominational college']) {
      const asked = { plan: planQuery(query), offset: 0, limit: 10 };
      expect({ query, ...(await search(asked)) }).toEqual({ query, ...(await reference.search(asked)) });
    }
    const mistyped = { plan: planQuery('xnterdenominational'), offset: 0, limit: 10 };
    expect(await names(reference.search(mistyped))).toEqual([
      'Interdenominational College',
      'Interdenominationalist Academy',
    ]);
    expect(await names(search(mistyped))).toEqual(['Interdenominational College']);
  });

  test('when the Atlas Search index is deleted while the API runs, then searches answer unavailable (503), not empty pages, and a word is not remembered as unknown meanwhile', async () => {
    const catalog = catalogOf([
      { name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: [], prominence: 100 },
      { name: 'Boston University', city: 'Boston', state: 'MA', aliases: [], prominence: 90 },
    ]);
    // The default: searches share one readiness check per second.
    const { source, search } = await engineOver(catalog);
    const ask = (query: string) => search({ plan: planQuery(query), offset: 0, limit: 10 });
    expect((await ask('harvard')).total).toBe(1);
    source.setIndexExists(false);
    // Its counts cached: Atlas answers the candidates with nothing.
    await expect(ask('harvard')).rejects.toBeInstanceOf(StoreUnavailableError);
    // Not counted yet: Atlas counts nothing.
    await expect(ask('boston')).rejects.toBeInstanceOf(StoreUnavailableError);
    source.setIndexExists(true);
    expect((await ask('boston')).hits.map((h) => h.school.name)).toEqual(['Boston University']);
    expect((await ask('harvard')).total).toBe(1);
    // A word no school has is still an answer, once the index says it is there.
    expect(await ask('zyxwv')).toEqual({ total: 0, hits: [] });
  });
});

describe('MongoAtlasEngine with near and a radius, past the candidate limit', () => {
  // 150 schools alike but for their place and prominence: every one a match of "academy" as good as any other.
  const origin = { latitude: 40, longitude: -74 };
  const catalog = catalogOf(
    Array.from({ length: 150 }, (_, i) => ({
      name: `Academy ${i}`,
      city: 'Springfield',
      state: 'NY',
      aliases: [],
      // The most prominent are the farthest: ordered by prominence, Atlas would read the wrong ones.
      prominence: Math.floor(((i * 37) % 150) / 15),
      ...(i % 10 === 9 ? {} : { latitude: 40 + ((i * 37) % 150) * 0.01, longitude: -74 }),
    })),
  );
  const reference = new ReferenceEngine(catalog);
  const ask = (more: Partial<EngineQuery>): EngineQuery => ({
    plan: planQuery('academy'),
    offset: 0,
    limit: 10,
    ...more,
  });

  test("when near is asked, then Atlas's score orders equals by proximity, so the candidates read are the nearest and the page is the reference's", async () => {
    const { source, search } = await engineOver(catalog, 40);
    for (const asked of [ask({ near: origin }), ask({ near: origin, offset: 30 })]) {
      expect(await search(asked)).toEqual(await reference.search(asked));
    }
    const candidates = source.asked.filter((p) => p[0]!['$search']);
    expect(candidates.every((p) => p[0]!['$search'].compound.should.some((c: Document) => 'near' in c))).toBe(true);
    // Without near, prominence orders equals (the reference's order then): also the reference's page.
    expect(await search(ask({}))).toEqual(await reference.search(ask({})));
  });

  test("when a radius is asked, then a school as far as the radius is in and one a metre further is out, in counts and totals too, though both are in Atlas's circle", async () => {
    const radius = distanceKm(origin, { latitude: 41, longitude: -74 });
    for (const [r, limit] of [
      [radius, 10],
      [Math.round((radius - 0.001) * 1000) / 1000, 10],
      [radius, 40],
    ] as const) {
      const { source, search } = await engineOver(catalog, 40);
      const asked = ask({ near: origin, radiusKm: r, limit });
      const page = await search(asked);
      expect(page, String(r)).toEqual(await reference.search(asked));
      // The count is of the exact circle; past the candidate limit, so is the total.
      expect(source.asked[0]!.at(-1)).toEqual({ $count: 'n' });
      expect(source.asked.at(-1)!.map((s) => Object.keys(s)[0])).toEqual(['$search', '$match', '$count']);
    }
  });
});

describe('MongoAtlasEngine while mongot lags the catalog version (issue 26, finding 1)', () => {
  const academies = [
    { name: 'North Academy', city: 'Springfield', state: 'MA', aliases: [], prominence: 0 },
    { name: 'South Academy', city: 'Springfield', state: 'MA', aliases: [], prominence: 0 },
  ];
  const before = catalogOf(academies);
  const after = catalogOf([
    ...academies,
    { name: 'Zephyr Academy', city: 'Salem', state: 'MA', aliases: [], prominence: 0 },
  ]);

  test('when a word is counted before mongot has indexed the school the last import added, then the school is found within 10 s of mongot having it, not at the next import', async () => {
    const documents = (catalog: readonly CatalogSchool[]) =>
      catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION));
    // The version is read on mongod (2: the import is done); mongot answers from its own index.
    const lagging = await atlasSearchStandIn(documents(before));
    const indexed = await atlasSearchStandIn(documents(after));
    let mongot = lagging;
    let now = 0;
    const engine = new MongoAtlasEngine(
      { catalogVersion: async () => '2', ready: async () => undefined, aggregate: (p) => mongot.aggregate(p) },
      'schools_search',
      { versionTtlMs: 60_000, now: () => now },
    );
    const names = async (query: string) =>
      (await engine.search({ plan: planQuery(query), offset: 0, limit: 10 })).hits.map((h) => h.school.name);
    // Not indexed yet: Atlas Search cannot find it (eventual consistency), and says "zephyr" is in no school.
    expect(await names('zephyr')).toEqual([]);
    mongot = indexed;
    now += 10_000;
    expect(await names('zephyr')).toEqual(['Zephyr Academy']);
    expect(await names('zephyr academy')).toEqual(['Zephyr Academy']);
  });
});

describe('MongoAtlasEngine confirming the words no school holds (issue 43, L4)', () => {
  test('when a query holds several words no school has, then one readiness check confirms them all, not one a word', async () => {
    const mongot = await atlasSearchStandIn(
      catalogOf([{ name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: [], prominence: 0 }]).map((s) =>
        toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION),
      ),
    );
    let checks = 0;
    const engine = new MongoAtlasEngine(
      {
        catalogVersion: async () => '1',
        ready: async () => void checks++,
        aggregate: (p) => mongot.aggregate(p),
      },
      'schools_search',
      { versionTtlMs: 60_000, readyTtlMs: 60_000 },
    );
    const search = (query: string) => engine.search({ plan: planQuery(query), offset: 0, limit: 10 });
    expect((await search('qzxv wkjq pfgh zzvb xqrt')).total).toBe(0);
    // The search's own (shared for a minute here), and one for its five words counted 0.
    expect(checks).toBe(2);
    // Another query's new words: counted again, confirmed again, once.
    expect((await search('vvqz jjkw harvard')).hits.map((h) => h.school.name)).toEqual(['Harvard University']);
    expect(checks).toBe(3);
    // The same words again: their counts are kept, nothing to confirm.
    expect((await search('qzxv wkjq pfgh zzvb xqrt')).total).toBe(0);
    expect(checks).toBe(3);
  });
});

describe('MongoAtlasEngine when two words are each in more schools than the count threshold (issue 43, H1)', () => {
  test('when no school holds both and their lower bounds tie, then the word dropped is the one truly most common, as the reference drops it', async () => {
    const { search } = await engineOver(OAK_RIDGE, 20);
    await expectReferenceAnswersAboveCap(
      search,
      new ReferenceEngine(OAK_RIDGE, { typos: true }),
      OAK_RIDGE_QUERIES,
      20,
    );
    expect((await search({ plan: planQuery('oak ridge'), offset: 0, limit: 25 })).total).toBe(26);
    expect((await search({ plan: planQuery('zed oak ridge'), offset: 0, limit: 1 })).hits[0]?.school.name).toBe(
      'Zed Ridge School',
    );
  });
});

describe('MongoAtlasEngine above the threshold, words of unequal frequency (issue 43, H1)', () => {
  test("when catalogs hold common words few schools share and the count threshold is small (100 runs), then totals are the reference's, pages too when the matches fit in the candidates, and otherwise every hit is one of its matches", async () => {
    const limit = 4;
    await fc.assert(
      fc.asyncProperty(
        fc.array(skewedSchoolArb, { minLength: 10, maxLength: 40 }),
        fc.array(skewedQueryArb, { minLength: 1, maxLength: 5 }),
        async (schools, queries) => {
          const catalog = catalogOf(schools);
          const { search } = await engineOver(catalog, limit);
          await expectReferenceAnswersAboveCap(search, new ReferenceEngine(catalog, { typos: true }), queries, limit);
        },
      ),
      { numRuns: 100, seed: 20261204 },
    );
  }, 120_000);
});
