// The $text engine (MONGODB_SEARCH=text) on the mingo stand-in of its server
// (scripts/quality/mingo-search.ts), over documents made by the adapter's own toDocument: the same
// answers as the reference engine without typos on random catalogs (with levels, types and
// coordinates, and queries with filters, near and a radius), the shape of every pipeline (one
// word given to $text, the scope in the same $match, then a $limit), and the bound on the
// documents a query examines.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Document } from 'mongodb';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { toDocument } from '../../src/mongodb-shared/school-document.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import { CANDIDATE_LIMIT } from '../../src/search/mongodb/candidates.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import { textSearch, tokenOf } from '../../src/search/mongodb/search-fields.ts';
import { mingoSourceOf } from '../../scripts/quality/mingo-search.ts';
import {
  catalogOf,
  denseQueryArb,
  densePlacedSchoolArb,
  denseSchoolArb,
  denseScopedQueryArb,
  queryArb,
  schoolArb,
  skewedQueryArb,
  skewedSchoolArb,
} from '../support/search-arbitraries.ts';
import { scopedQueryArb, scopedSchoolArb } from '../support/scope-arbitraries.ts';
import { expectReferenceAnswersAboveCap, OAK_RIDGE, OAK_RIDGE_QUERIES } from '../support/above-cap.ts';
import type { EngineQuery } from '../../src/domain/search/engine.port.ts';
import type { SearchScope } from '../../src/domain/search/filters.ts';
import { distanceKm, type GeoPoint } from '../../src/domain/catalog/geo.ts';

function engineOver(catalog: readonly CatalogSchool[], candidateLimit = CANDIDATE_LIMIT) {
  const docs = catalog.map((s) => toDocument({ ...s, aliases: [...s.aliases] }, SEARCH_EXTENSION));
  const source = mingoSourceOf(async () => docs);
  return { source, engine: new MongoTextEngine(source, { candidateLimit, versionTtlMs: 60_000 }) };
}

const ask = (words: string, more: SearchScope & { offset?: number; limit?: number } = {}): EngineQuery => ({
  ...more,
  plan: planQuery(words),
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
              const asked = {
                plan: planQuery(q.words.join(' ')),
                stateCode: q.stateCode,
                offset: q.offset,
                limit: q.limit,
              };
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

describe('MongoTextEngine with levels, types, near and a radius, against the reference engine without typos', () => {
  test('when catalogs and scoped queries are random (150 runs), then totals, pages, scores and distances are the same', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(scopedSchoolArb, { minLength: 1, maxLength: 50 }),
        fc.array(scopedQueryArb, { minLength: 1, maxLength: 8 }),
        async (schools, queries) => {
          const catalog = catalogOf(schools);
          const { engine } = engineOver(catalog);
          const reference = new ReferenceEngine(catalog, { typos: false });
          for (const { words, ...scope } of queries) {
            const asked = { ...scope, plan: planQuery(words.join(' ')) };
            const label = JSON.stringify({ words, ...scope });
            expect({ label, ...(await engine.search(asked)) }).toEqual({ label, ...(await reference.search(asked)) });
          }
        },
      ),
      { numRuns: 150, seed: 20261130 },
    );
  }, 120_000);
});

/** Whether a pipeline sorts on the server, in any stage (a $facet's too). */
const sorts = (pipeline: readonly Document[]) => JSON.stringify(pipeline).includes('"$sort"');

describe('MongoTextEngine pipelines with a scope', () => {
  // 150 schools alike but for their place and kind: every one a match of "academy" as good as any other.
  const origin = { latitude: 40, longitude: -74 };
  const catalog = catalogOf(
    Array.from({ length: 150 }, (_, i) => ({
      name: `Academy ${i}`,
      city: 'Springfield',
      state: 'NY',
      aliases: [],
      prominence: i % 3,
      level: i % 2 === 0 ? ('high' as const) : ('elementary' as const),
      type: i % 5 === 0 ? ('private' as const) : ('public' as const),
      ...(i % 7 === 0 ? { tags: ['charter' as const] } : {}),
      // Scattered, so that the nearest are not the first the index yields.
      ...(i % 10 === 9 ? {} : { latitude: 40 + ((i * 37) % 150) * 0.01, longitude: -74 }),
    })),
  );
  const reference = new ReferenceEngine(catalog, { typos: false });

  test('when filters are asked, then they are conditions of the one $match that gives $text one token, and counts are per scope', async () => {
    const { source, engine } = engineOver(catalog);
    const asked = ask('academy', { level: ['high'], type: ['private', 'charter'] });
    expect(await engine.search(asked)).toEqual(await reference.search(asked));
    for (const pipeline of source.pipelines) {
      expect(pipeline[0]!['$match']).toMatchObject({
        $text: { $search: textSearch(tokenOf('academy', undefined)) },
        level: { $in: ['high'] },
        $or: [{ type: { $in: ['private'] } }, { tags: 'charter' }],
      });
    }
    // Another scope is counted again: a count holds for its scope only.
    const runs = source.pipelines.length;
    await engine.search(ask('academy', { level: ['elementary'] }));
    expect(source.pipelines.slice(runs).filter((p) => p.some((stage) => '$count' in stage))).toHaveLength(1);
  });

  test("when every word is in more schools than a look-up reads and near is asked, then the nearest are read, and the page is the reference's", async () => {
    const { source, engine } = engineOver(catalog, 40);
    for (const asked of [
      ask('academy', { near: origin, limit: 10 }),
      ask('academy', { near: origin, offset: 30, limit: 10 }),
      ask('academy', { near: origin, type: ['public'], limit: 10 }),
    ]) {
      expect(await engine.search(asked)).toEqual(await reference.search(asked));
    }
    const candidates = source.pipelines.filter((p) => p.some((stage) => '$project' in stage));
    // The nearest, and the nearest ranked ones (a $facet of two sorts: text-pipeline.ts, nearestPipeline).
    expect(candidates.every((p) => sorts(p))).toBe(true);
    // Without near, the order among equals is static: the first 40 the index yields are the candidates.
    const runs = source.pipelines.length;
    await engine.search(ask('academy', { limit: 10 }));
    expect(source.pipelines.slice(runs).some(sorts)).toBe(false);
  });

  test('when near is asked and every match is read, then the order among equals is ranked first, then distance (no sort on the server), and each hit has its distance_km', async () => {
    const { source, engine } = engineOver(catalog, 1000);
    const asked = ask('academy', { near: origin, limit: 25 });
    const page = await engine.search(asked);
    expect(page).toEqual(await reference.search(asked));
    // Ranked schools first (ranking-rules.ts, step 4′): the first hit is the nearest ranked school.
    const ranked = catalog.filter((s) => s.prominence > 0 && s.latitude !== undefined);
    const nearest = ranked.reduce((a, b) =>
      distanceKm(origin, a as GeoPoint) <= distanceKm(origin, b as GeoPoint) ? a : b,
    );
    expect(page.hits[0]!.school.id).toBe(nearest.id);
    expect(page.hits.every((h) => h.distanceKm !== undefined)).toBe(true);
    expect(source.pipelines.some(sorts)).toBe(false);
  });

  test('when a radius is asked, then a school as far as the radius is in, one a metre further is not, in the counts and the total as on the page', async () => {
    const far = catalog.find((s) => s.latitude === 41)!;
    const radius = distanceKm(origin, { latitude: 41, longitude: -74 });
    const { engine } = engineOver(catalog, 20);
    for (const r of [radius, Math.round((radius - 0.001) * 1000) / 1000]) {
      // 91 schools in the circle, 20 candidates: the nearest 20, the total counted.
      for (const limit of [20, 5]) {
        const asked = ask('academy', { near: origin, radiusKm: r, limit });
        const page = await engine.search(asked);
        expect(page, String(r)).toEqual(await reference.search(asked));
      }
    }
    // Two words, both past the limit: the total's condition on the other word sits beside the radius's $expr.
    const both = ask('springfield academy', { near: origin, radiusKm: radius, limit: 5 });
    expect(await engine.search(both)).toEqual(await reference.search(both));
    const inside = await engine.search(ask('academy', { near: origin, radiusKm: radius, limit: 25, offset: 0 }));
    const outside = await engine.search(
      ask('academy', { near: origin, radiusKm: Math.round((radius - 0.001) * 1000) / 1000, limit: 25 }),
    );
    expect(inside.total - outside.total).toBe(catalog.filter((s) => s.latitude === far.latitude).length);
  });
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

  test('when a query has several words, then each pipeline gives $text one word (behind every state code), and the rarest word is the one read', async () => {
    const { source, engine } = engineOver(catalog, 50);
    const page = await engine.search(ask('academy zephyr of'));
    expect(page.hits.map((h) => h.school.name)).toEqual(['Zephyr Academy']);
    for (const pipeline of source.pipelines) {
      const search: unknown = pipeline[0]?.['$match']?.['$text']?.['$search'];
      expect(typeof search, JSON.stringify(pipeline[0])).toBe('string');
      // The terms are one word behind each state's code: never two words ORed.
      const words = new Set(
        String(search)
          .split(' ')
          .map((term) => term.slice(2)),
      );
      expect(words.size, String(search)).toBe(1);
    }
    // Counts of each word, then the candidates: of "zephyr", the rarest.
    const candidates = source.pipelines.filter((p) => p.some((stage) => '$project' in stage));
    expect(candidates.map((p) => p[0]!['$match']['$text']['$search'])).toEqual([
      textSearch(tokenOf('zephyr', undefined)),
    ]);
  });

  test('when no state is given, then every school holding the word is read once, whatever its state, and only those', async () => {
    const { source, engine } = engineOver(catalog, 1000);
    const page = await engine.search(ask('academy', { limit: 25 }));
    expect(page.total).toBe(151);
    // The count (151 of 1,001), the candidates (151): each school once, though $text was given a term per state.
    expect(source.examined).toEqual([151, 151]);
  });

  test('when a state is given, then the token is of that state, and only its schools are read', async () => {
    const { source, engine } = engineOver(catalog, 1000);
    const page = await engine.search(ask('academy', { stateCode: 'TX' }));
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

  test('when every word is in more schools than a look-up reads, then the total counts the schools holding them all, in the catalog as in a state', async () => {
    const { source, engine } = engineOver(catalog, 40);
    const reference = new ReferenceEngine(catalog, { typos: false });
    for (const asked of [
      ask('academy springfield', { limit: 10 }),
      ask('springfield academy', { stateCode: 'TX', limit: 10 }),
      ask('academy springfield', { stateCode: 'MA', offset: 40, limit: 10 }),
    ]) {
      const page = await engine.search(asked);
      expect(page.total, JSON.stringify(asked.stateCode)).toBe((await reference.search(asked)).total);
    }
    // Each total read the other word's tokens of the school's own state (none given) or of the state asked.
    const totals = source.pipelines.filter((p) => p.length === 2).map((p) => p[0]!['$match']['$and']);
    expect(totals).toHaveLength(3);
    expect(totals.slice(1)).toEqual([[{ tokens: { $all: ['txacademy'] } }], [{ tokens: { $all: ['maspringfield'] } }]]);
  });

  test('when a word is in more schools than a look-up reads and the rarest is not, then the answer is exact and every look-up is bounded', async () => {
    const { source, engine } = engineOver(catalog, 50);
    const page = await engine.search(ask('academy 14'));
    const reference = await new ReferenceEngine(catalog, { typos: false }).search(ask('academy 14'));
    expect(page).toEqual(reference);
    expect(Math.max(...source.examined)).toBeLessThanOrEqual(51);
  });
});

describe('MongoTextEngine when every word is in more schools than a look-up reads (issue 26, finding 9)', () => {
  // In index order (the documents' order here): 25 Oak, then 25 Ridge, then 3 Oak Ridge schools.
  // "oak" and "ridge" are each in 28 schools; among the first 20 holders of "oak", none has "ridge".
  const catalog = catalogOf([
    ...Array.from({ length: 25 }, (_, i) => ({
      name: `Oak Academy ${i}`,
      city: 'Salem',
      state: 'OR',
      aliases: [],
      prominence: 0,
    })),
    ...Array.from({ length: 25 }, (_, i) => ({
      name: `Ridge Academy ${i}`,
      city: 'Salem',
      state: 'OR',
      aliases: [],
      prominence: 0,
    })),
    ...Array.from({ length: 3 }, (_, i) => ({
      name: `Oak Ridge School ${i}`,
      city: 'Salem',
      state: 'OR',
      aliases: [],
      prominence: 1,
    })),
  ]);
  const reference = new ReferenceEngine(catalog, { typos: false });

  test("when the first schools the index yields hold no other word but later ones do, then soft matching keeps every word, and the page and total are the reference's", async () => {
    const { engine } = engineOver(catalog, 20);
    for (const asked of [
      ask('oak ridge'),
      ask('ridge oak'),
      ask('oak ridge academy'),
      ask('oak ridge', { near: { latitude: 45, longitude: -123 } }),
    ]) {
      const label = asked.plan.words.map((w) => w.text).join(' ');
      expect({ label, ...(await engine.search(asked)) }).toEqual({ label, ...(await reference.search(asked)) });
    }
  });

  test('when the same queries are asked again in a catalog version, then no look-up examines more than a look-up reads: the few matches of common words are read by id', async () => {
    const { source, engine } = engineOver(catalog, 20);
    const queries = [ask('oak ridge'), ask('oak ridge', { offset: 2, limit: 1 }), ask('academy oak'), ask('academy')];
    const first = [];
    for (const asked of queries) first.push(await engine.search(asked));
    const runs = source.pipelines.length;
    for (const [i, asked] of queries.entries()) expect(await engine.search(asked)).toEqual(first[i]);
    const again = source.pipelines.slice(runs);
    // One read per query, counts and totals cached: by id for "oak ridge" (3 matches), the first
    // 20 holders of the rarest word for "academy oak" and "academy" (25 and 50 matches).
    expect(again).toHaveLength(queries.length);
    expect(again.filter((p) => p[0]!['$match']['_id'])).toHaveLength(2);
    expect(Math.max(...source.examined.slice(runs))).toBeLessThanOrEqual(20);
    expect(first.slice(0, 2)).toEqual([await reference.search(queries[0]!), await reference.search(queries[1]!)]);
  });

  test("when many schools tie on few words, with levels, types, near and radius, and a look-up reads only a few (100 runs), then totals are always the reference's, pages too when the matches fit in a look-up, and otherwise every hit is one of the reference's matches", async () => {
    const limit = 4;
    await fc.assert(
      fc.asyncProperty(
        fc.array(densePlacedSchoolArb, { minLength: 10, maxLength: 60 }),
        fc.array(denseScopedQueryArb, { minLength: 1, maxLength: 6 }),
        async (schools, queries) => {
          const catalog = catalogOf(schools);
          const { engine } = engineOver(catalog, limit);
          const reference = new ReferenceEngine(catalog, { typos: false });
          await expectReferenceAnswersAboveCap((q) => engine.search(q), reference, queries, limit);
        },
      ),
      { numRuns: 100, seed: 20261126 },
    );
  }, 120_000);
});

describe('MongoTextEngine when two words are each in more schools than a look-up reads (issue 43, H1)', () => {
  test('when no school holds both and their capped counts tie, then the word dropped is the one truly most common, as the reference drops it', async () => {
    const { engine } = engineOver(OAK_RIDGE, 20);
    const search = (q: EngineQuery) => engine.search(q);
    await expectReferenceAnswersAboveCap(
      search,
      new ReferenceEngine(OAK_RIDGE, { typos: false }),
      OAK_RIDGE_QUERIES,
      20,
    );
    // The figures the issue names: Ridge schools (and the Zed one), not Oak.
    expect((await search(ask('oak ridge'))).total).toBe(26);
    expect((await search(ask('zed oak ridge'))).hits[0]?.school.name).toBe('Zed Ridge School');
  });
});

describe('MongoTextEngine above the cap, words of unequal frequency (issue 43, H1)', () => {
  test("when catalogs hold common words few schools share and a look-up reads only a few (150 runs), then totals are the reference's, pages too when the matches fit in a look-up, and otherwise every hit is one of its matches", async () => {
    const limit = 4;
    await fc.assert(
      fc.asyncProperty(
        fc.array(skewedSchoolArb, { minLength: 10, maxLength: 50 }),
        fc.array(skewedQueryArb, { minLength: 1, maxLength: 6 }),
        async (schools, queries) => {
          const catalog = catalogOf(schools);
          const { engine } = engineOver(catalog, limit);
          const reference = new ReferenceEngine(catalog, { typos: false });
          await expectReferenceAnswersAboveCap((q) => engine.search(q), reference, queries, limit);
        },
      ),
      { numRuns: 150, seed: 20261204 },
    );
  }, 120_000);
});
