// The Atlas engine's own logic (counts, soft matching by asking again without the most common
// word, ranking the candidates by the rules, the total, the scope) over a stand-in of Atlas
// Search. The stand-in answers each word clause with the rules' own matching (Atlas's text,
// autocomplete and fuzzy are not reimplemented), and every other operator by Atlas's documented
// semantics, not by the rules: `equals` and `in` on token fields (an array matches by any
// element), `exists`, `geoWithin` with a circle (haversine on Lucene's mean Earth radius, in
// metres, unrounded), `near` scored pivot / (pivot + distance), `compound` summing its clauses'
// scores, the `score` options, and after $search the stages run by mingo over stored source. No
// Atlas runs here: the queries' shape is checked in mongodb.pieces.test.ts, their meaning on
// Atlas only by the GitHub workflow's Atlas job when one is configured (README, "Verified against").
import fc from 'fast-check';
import { Aggregator, Query } from 'mingo';
import type { Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import type { CatalogSchool, EngineQuery } from '../../src/domain/search/engine.ts';
import { distanceKm } from '../../src/domain/search/geo.ts';
import { planQuery, type QueryWord } from '../../src/domain/search/query.ts';
import { analyse, bestCredit, type Analysed } from '../../src/domain/search/rank.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { MongoAtlasEngine } from '../../src/search/mongodb/atlas.engine.ts';
import type { SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import { toDocument } from '../../src/stores/mongodb/school.store.ts';
import { SCHOOL_SEARCH_FIELDS } from '../../src/search/mongodb/search.indexes.ts';
import { searchIndexDefinition } from '../../src/search/mongodb/search-index.ts';
import { catalogOf, queryArb, schoolArb } from '../support/search-arbitraries.ts';
import { scopedQueryArb, scopedSchoolArb } from '../support/scope-arbitraries.ts';

/** Lucene's (Atlas Search's) mean Earth radius, in metres. */
const LUCENE_EARTH_RADIUS_M = 6_371_008.7714;
const STORED: readonly string[] = searchIndexDefinition('schools_search').definition['storedSource'].include;

interface Entry {
  readonly rules: Analysed;
  readonly doc: SchoolDocument;
}

interface Scored {
  readonly match: boolean;
  readonly score: number;
}

/** Metres between a GeoJSON point and another, as Atlas measures them. */
function metres(a: readonly number[], b: readonly number[]): number {
  const rad = Math.PI / 180;
  const [lon1, lat1] = [a[0]! * rad, a[1]! * rad];
  const [lon2, lat2] = [b[0]! * rad, b[1]! * rad];
  const h = Math.sin((lat2 - lat1) / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin((lon2 - lon1) / 2) ** 2;
  return 2 * LUCENE_EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

function valueAt(doc: object, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], doc);
}

const values = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** An Atlas score function expression (add, multiply, constant, path, relevance). */
function scoreFunction(expression: Document, relevance: number, doc: object): number {
  if (expression['score'] === 'relevance') return relevance;
  if ('constant' in expression) return expression['constant'];
  if ('path' in expression) {
    const v = valueAt(doc, expression['path'].value);
    return typeof v === 'number' ? v : expression['path'].undefined;
  }
  if ('add' in expression)
    return expression['add'].reduce((sum: number, e: Document) => sum + scoreFunction(e, relevance, doc), 0);
  if ('multiply' in expression)
    return expression['multiply'].reduce((p: number, e: Document) => p * scoreFunction(e, relevance, doc), 1);
  throw new Error(`score function ${JSON.stringify(expression)}: update the stand-in`);
}

function withScore(options: Document | undefined, scored: Scored, doc: object): Scored {
  if (!scored.match || !options) return scored;
  if ('constant' in options) return { match: true, score: options['constant'].value };
  if ('boost' in options) return { match: true, score: scored.score * options['boost'].value };
  if ('function' in options) return { match: true, score: scoreFunction(options['function'], scored.score, doc) };
  throw new Error(`score ${JSON.stringify(options)}: update the stand-in`);
}

/** Atlas as far as the engine relies on it, over the catalog's documents (toDocument). */
function atlasStandIn(catalog: readonly CatalogSchool[], words: () => readonly QueryWord[]) {
  const entries: Entry[] = catalog.map((s) => ({
    rules: analyse(s),
    doc: toDocument({ ...s, aliases: [...s.aliases] }, SCHOOL_SEARCH_FIELDS),
  }));
  const asked: Document[][] = [];

  /** A word clause (wordClause: a compound of the ways one word matches): the rules find the word. */
  const wordOf = (compound: Document): QueryWord | undefined => {
    const text = compound['should']?.[0]?.text;
    if (text?.path !== 'search.name') return undefined;
    return words().find((w) => w.text === text.query)!;
  };

  function evaluate(operator: Document, e: Entry): Scored {
    const [name, spec] = Object.entries(operator)[0] as [string, Document];
    const doc = e.doc;
    switch (name) {
      case 'compound': {
        const word = wordOf(spec);
        if (word) {
          const credit = bestCredit(word, e.rules, { typos: true });
          return withScore(spec['score'], { match: credit > 0, score: credit }, doc);
        }
        const all = (key: string) => ((spec[key] ?? []) as Document[]).map((o) => evaluate(o, e));
        const [must, filter, mustNot, should] = [all('must'), all('filter'), all('mustNot'), all('should')];
        // With nothing else required, one should clause must match.
        const needed = spec['minimumShouldMatch'] ?? (must.length + filter.length === 0 ? 1 : 0);
        const matched = should.filter((s) => s.match);
        const match =
          must.every((s) => s.match) &&
          filter.every((s) => s.match) &&
          !mustNot.some((s) => s.match) &&
          matched.length >= needed;
        const score = [...must, ...matched].reduce((sum, s) => sum + s.score, 0);
        return withScore(spec['score'], { match, score }, doc);
      }
      case 'equals':
        return withScore(
          spec['score'],
          { match: values(valueAt(doc, spec['path'])).includes(spec['value']), score: 1 },
          doc,
        );
      case 'in':
        return withScore(
          spec['score'],
          { match: values(valueAt(doc, spec['path'])).some((v) => (spec['value'] as unknown[]).includes(v)), score: 1 },
          doc,
        );
      case 'exists':
        return { match: valueAt(doc, spec['path']) !== undefined, score: 1 };
      case 'geoWithin': {
        const at = valueAt(doc, spec['path']) as { coordinates: number[] } | undefined;
        const { center, radius } = spec['circle'];
        return { match: at !== undefined && metres(center.coordinates, at.coordinates) <= radius, score: 1 };
      }
      case 'near': {
        const at = valueAt(doc, spec['path']) as { coordinates: number[] } | undefined;
        if (!at) return { match: false, score: 0 };
        const d = metres(spec['origin'].coordinates, at.coordinates);
        return withScore(spec['score'], { match: true, score: spec['pivot'] / (spec['pivot'] + d) }, doc);
      }
      default:
        throw new Error(`operator ${name}: update the stand-in`);
    }
  }

  /** The operator of a $search or $searchMeta stage (its only key besides the options). */
  const operatorOf = (stage: Document): Document => {
    const { index: _index, count: _count, returnStoredSource: _stored, ...operator } = stage;
    return operator;
  };

  const hitsOf = (stage: Document) =>
    entries
      .map((e) => ({ e, ...evaluate(operatorOf(stage), e) }))
      .filter((h) => h.match)
      // By score; equal scores in the index's order (here: the id).
      .sort((a, b) => b.score - a.score || (a.e.doc._id < b.e.doc._id ? -1 : 1));

  return {
    asked,
    catalogVersion: async () => '1',
    ready: async () => undefined,
    async aggregate(pipeline: Document[]): Promise<Document[]> {
      asked.push(pipeline);
      const [first, ...rest] = pipeline;
      const meta = first!['$searchMeta'];
      if (meta) {
        const n = hitsOf(meta).length;
        return [{ count: { lowerBound: Math.min(n, meta.count.threshold) } }];
      }
      const search = first!['$search'];
      if (!search) throw new Error('every Atlas pipeline starts with $search or $searchMeta: update the stand-in');
      expect(search.returnStoredSource).toBe(true);
      const hits = hitsOf(search);
      const searchMeta = search.count?.type === 'total' ? { count: { total: hits.length } } : {};
      // Stored source: only the fields the index stores.
      let docs: Document[] = hits.map(({ e }) =>
        Object.fromEntries(Object.entries(e.doc).filter(([k]) => k === '_id' || STORED.includes(k))),
      );
      for (const stage of rest) {
        if (stage['$match']) docs = docs.filter((d) => new Query(stage['$match']).test(d));
        else if (stage['$limit'] !== undefined) docs = docs.slice(0, stage['$limit']);
        else if (stage['$count']) docs = [{ [stage['$count']]: docs.length }];
        else if (stage['$project']) {
          const { meta: _meta, ...fields } = stage['$project'];
          docs = new Aggregator([{ $project: { ...fields, meta: { $literal: searchMeta } } }]).run(docs) as Document[];
        } else throw new Error(`stage ${JSON.stringify(stage)}: update the stand-in`);
      }
      return docs;
    },
  };
}

function engineOver(catalog: readonly CatalogSchool[], candidateLimit?: number) {
  let current: readonly QueryWord[] = [];
  const source = atlasStandIn(catalog, () => current);
  const engine = new MongoAtlasEngine(source, 'schools_search', {
    versionTtlMs: 60_000,
    ...(candidateLimit ? { candidateLimit } : {}),
  });
  return {
    source,
    search: (query: EngineQuery) => {
      current = query.plan.words;
      return engine.search(query);
    },
  };
}

describe('MongoAtlasEngine over a stand-in of Atlas Search', () => {
  test.each([
    ['random (150 runs)', schoolArb, queryArb],
    ['random, with levels, types, coordinates, near and radius (150 runs)', scopedSchoolArb, scopedQueryArb],
  ] as const)(
    "when catalogs and queries are %s, then totals, pages, scores and distances are the reference engine's",
    async (_what, school, query) => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(school, { minLength: 1, maxLength: 40 }),
          fc.array(query, { minLength: 1, maxLength: 6 }),
          async (schools, queries) => {
            const catalog = catalogOf(schools);
            const { search } = engineOver(catalog);
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
    const { source, search } = engineOver(catalog);
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
    const { source, search } = engineOver(catalog, 40);
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
      const { source, search } = engineOver(catalog, 40);
      const asked = ask({ near: origin, radiusKm: r, limit });
      const page = await search(asked);
      expect(page, String(r)).toEqual(await reference.search(asked));
      // The count is of the exact circle; past the candidate limit, so is the total.
      expect(source.asked[0]!.at(-1)).toEqual({ $count: 'n' });
      expect(source.asked.at(-1)!.map((s) => Object.keys(s)[0])).toEqual(['$search', '$match', '$count']);
    }
  });
});
