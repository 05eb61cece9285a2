// The $text engine on a MongoDB server (MONGODB_URI; the GitHub workflow's MongoDB 8 job): the
// same answers as the reference engine without typos, the documents and keys each of its
// pipelines examines, as the server's own explain reports them, and the keys of the text index
// (validate). No server here has $text (FerretDB v1 has none): the engine's logic runs on the
// mingo stand-in in test/search/text-engine.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Document } from 'mongodb';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import { mongoSearchEngine } from '../../src/search/mongodb/engines.ts';
import { tokenOf } from '../../src/search/mongodb/search-fields.ts';
import { TEXT_INDEX } from '../../src/search/mongodb/catalog-extension.ts';
import type { SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { STATE_CODES } from '../../src/domain/catalog/states.ts';
import { candidatesPipeline, countPipeline } from '../../src/search/mongodb/text-pipeline.ts';
import {
  dropAndClose,
  flavorOf,
  mongoUriFromEnv,
  openFreshMongoStore,
  type SearchedMongoStore,
} from '../support/mongodb.ts';

const uri = mongoUriFromEnv();
const flavor = uri ? await flavorOf(uri) : undefined;
const unavailable =
  flavor === 'mongodb'
    ? undefined
    : 'MONGODB_URI names no MongoDB server (FerretDB v1 has no $text); the GitHub workflow runs this on MongoDB 8';
if (unavailable) console.warn(`$text engine on MongoDB — skipped: ${unavailable}`);

const LIMIT = 40;
const CATALOG: CatalogSchool[] = [
  ...Array.from({ length: 3 * LIMIT }, (_, i) => ({
    name: `Lakeside Academy ${i}`,
    city: 'Springfield',
    state: i % 2 ? 'MA' : 'TX',
    aliases: [],
    prominence: i % 5,
    level: i % 3 === 0 ? ('high' as const) : ('elementary' as const),
    type: i % 4 === 0 ? ('private' as const) : ('public' as const),
    ...(i % 5 === 0 ? { tags: ['charter' as const] } : {}),
    ...(i % 6 === 5 ? {} : { latitude: 42 + (i % 40) * 0.01, longitude: -71.1 }),
  })),
  { name: 'Harvard University', city: 'Cambridge', state: 'MA', aliases: ['Harvard College'], prominence: 100 },
  { name: "St. Mary's College", city: 'Notre Dame', state: 'IN', aliases: [], prominence: 40 },
  { name: 'Saint Mary College', city: 'Leavenworth', state: 'KS', aliases: [], prominence: 20 },
  { name: 'Université Laval', city: 'Québec', state: 'QC', aliases: [], prominence: 60 },
  { name: 'Houston Community College', city: 'Houston', state: 'TX', aliases: [], prominence: 30 },
].map((s, i) => ({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, imageUrl: null, ...s }));

/** Every `field` (totalDocsExamined, totalKeysExamined) in an explain, added up (one per shard or per pipeline part). */
function examined(explain: Document, field: string): number {
  let total = 0;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === field && typeof value === 'number') total += value;
        else visit(value);
      }
    }
  };
  visit(explain);
  return total;
}

const docsExamined = (explain: Document) => examined(explain, 'totalDocsExamined');

describe.skipIf(unavailable !== undefined)(
  `$text engine on MongoDB${unavailable ? ` — skipped: ${unavailable}` : ''}`,
  () => {
    let store: SearchedMongoStore;
    beforeAll(async () => {
      store = await openFreshMongoStore(uri!, 'mongodb');
      await store.schools.upsertMany(CATALOG.map((s) => ({ ...s, aliases: [...s.aliases] })));
    });
    afterAll(() => dropAndClose(store));

    test.each([
      'harvard',
      'st marys',
      'saint mary college',
      'universite laval',
      'laval university',
      'houston cc',
      'lakeside academy 7',
      'lak',
      'academy',
      'zzz harvard',
    ])('when "%s" is searched, then the answer is the reference engine\'s without typos', async (query) => {
      const engine = mongoSearchEngine(
        store.catalog,
        { kind: 'text' },
        { candidateLimit: 10 * LIMIT, versionTtlMs: 0 },
      );
      const reference = new ReferenceEngine(CATALOG, { typos: false });
      for (const state of [undefined, 'MA']) {
        const asked = { plan: planQuery(query), state, offset: 0, limit: 25 };
        expect(await engine.search(asked)).toEqual(await reference.search(asked));
      }
    });

    test("when levels, types, near and a radius are asked, then the answer is the reference engine's without typos ($or, $expr and $sort beside $text on the server)", async () => {
      const near = { latitude: 42.1, longitude: -71.1 };
      const engine = mongoSearchEngine(store.catalog, { kind: 'text' }, { candidateLimit: LIMIT, versionTtlMs: 0 });
      const reference = new ReferenceEngine(CATALOG, { typos: false });
      for (const query of ['lakeside academy', 'academy', 'lak', 'harvard']) {
        for (const scope of [
          { level: ['high' as const] },
          // Each scope keeps at most LIMIT schools of a word, or asks for near: the answer is exact.
          { stateCode: 'TX', type: ['private' as const, 'charter' as const] },
          { near, limit: 10 },
          { near, radiusKm: 11.119, limit: 10 },
          { near, radiusKm: 11.118, level: ['elementary' as const], limit: 10 },
          { stateCode: 'MA', near, radiusKm: 30, type: ['public' as const], limit: 10 },
        ]) {
          const asked = { plan: planQuery(query), offset: 0, limit: 25, ...scope };
          expect(await engine.search(asked), `${query} ${JSON.stringify(scope)}`).toEqual(
            await reference.search(asked),
          );
        }
      }
    });

    test('when a word is in more schools than a look-up reads, then the count and the candidates examine no more than the limit (+1), as explain reports', async () => {
      const schools = store.db.collection('schools');
      for (const token of [tokenOf('academy', undefined), tokenOf('lakeside', 'TX')]) {
        const label = JSON.stringify(token);
        const count = await schools.aggregate(countPipeline(token, {}, LIMIT + 1)).explain('executionStats');
        const candidates = await schools.aggregate(candidatesPipeline(token, {}, LIMIT)).explain('executionStats');
        expect(docsExamined(count), label).toBeLessThanOrEqual(LIMIT + 1);
        expect(docsExamined(candidates), label).toBeLessThanOrEqual(LIMIT);
        expect(docsExamined(candidates), label).toBeGreaterThan(0);
        // In a state one index range; in the catalog one per state, each ended by at most one key past it.
        const ranges = token.state === undefined ? STATE_CODES.size : 1;
        expect(examined(count, 'totalKeysExamined'), label).toBeLessThanOrEqual(LIMIT + 1 + ranges);
      }
    });

    test('then the text index holds one key per token of a school, each start of its terms once (version 3 held two)', async () => {
      const docs = await store.db.collection<SearchedSchool>('schools').find().toArray();
      const starts = docs.reduce((n, d) => n + new Set(d.tokens.map((t) => t.slice(2))).size, 0);
      const validated = await store.db.command({ validate: 'schools' });
      expect(validated['keysPerIndex']?.[TEXT_INDEX]).toBe(starts);
    });
  },
);
