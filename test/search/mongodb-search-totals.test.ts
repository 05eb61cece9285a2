// The $text engine's totals past the candidate limit, shared by the instances on one store per
// catalog version (src/search/mongodb/search-totals.ts, in the wing's per-version collection, which
// the store hands back as SchoolCatalog.perVersion; issue 26, finding 9): such a total reads every school holding
// the query's rarest word, and each instance counted it again after every import. Several engines
// (each an instance, with its own count cache) run on one store on every wire-protocol server this
// run has (FerretDB v1 here); their $text pipelines are run by mingo over the documents the
// adapter wrote there (FerretDB has no $text), the shared totals are the server's.
import type { Collection } from 'mongodb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { planQuery } from '../../src/domain/search/query.ts';
import { MongoSearchTotals, type SearchTotalDocument } from '../../src/search/mongodb/search-totals.ts';
import { SEARCH_TOTALS } from '../../src/search/mongodb/catalog-extension.ts';
import { MongoTextEngine } from '../../src/search/mongodb/text.engine.ts';
import { FERRETDB_MISSING } from '../../scripts/ferretdb/server.ts';
import { mingoSource, type MingoSource } from '../../scripts/quality/mingo-search.ts';
import { school } from '../support/builders.ts';
import { dropAndClose, mongoServers, openFreshMongoStore, type SearchedMongoStore } from '../support/mongodb.ts';

const servers = await mongoServers();
const none = servers.length === 0;
if (none) console.warn(`MongoDB shared search totals — skipped: ${FERRETDB_MISSING}, and MONGODB_URI is not set`);

/** Look-ups read 10 documents; "academy" is in 30 schools, so its total is counted apart. */
const LIMIT = 10;

describe.skipIf(none).each(none ? [['no server', '', 'ferretdb'] as const] : servers)(
  'shared $text totals on %s',
  (_name, uri, flavor) => {
    let store: SearchedMongoStore;
    beforeAll(async () => {
      store = await openFreshMongoStore(uri, flavor);
      await store.schools.upsertMany(
        Array.from({ length: 30 }, (_, i) => school(`Academy ${i}`, { latitude: 42.1 + i / 1000, longitude: -72.6 })),
      );
    });
    afterAll(() => dropAndClose(store));

    /** An API instance's engine on the store: its own count cache, the store's shared totals. */
    function instance(): { source: MingoSource; engine: MongoTextEngine } {
      const totals = store.catalog.perVersion?.<SearchTotalDocument>();
      const source = {
        ...mingoSource(store),
        totals: totals && new MongoSearchTotals(totals, store.catalog.operationTimeLimitMs),
      };
      return { source, engine: new MongoTextEngine(source, { candidateLimit: LIMIT, versionTtlMs: 0 }) };
    }
    /** The totals a source counted: the pipelines without a $limit after $text. */
    const totalsCounted = (source: MingoSource) =>
      source.pipelines.filter((p) => p[1]?.['$limit'] === undefined).length;
    const ask = { plan: planQuery('academy'), offset: 0, limit: 5 };

    test('when instances need the same total at once, then one counts it and every one answers with it', async () => {
      const instances = [instance(), instance(), instance()];
      const pages = await Promise.all(instances.map(({ engine }) => engine.search(ask)));
      expect(pages.map((p) => p.total)).toEqual([30, 30, 30]);
      expect(instances.map(({ source }) => totalsCounted(source)).reduce((a, b) => a + b)).toBe(1);
      // One more instance, later: it reads the total, it counts nothing.
      const later = instance();
      expect((await later.engine.search(ask)).total).toBe(30);
      expect(totalsCounted(later.source)).toBe(0);
    });

    test("when an import changes the catalog, then the total is counted again for the new version, and the old version's totals are gone", async () => {
      const first = instance();
      expect((await first.engine.search(ask)).total).toBe(30);
      const before = await store.schools.catalogVersion();
      await store.schools.upsertMany([school('Academy 30')]);
      const after = instance();
      expect((await after.engine.search(ask)).total).toBe(31);
      expect(totalsCounted(after.source)).toBe(1);
      const kept = await store.db.collection(SEARCH_TOTALS).find().toArray();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.filter((d) => d['version'] === before)).toEqual([]);
    });

    test('when an import deletes the totals of other versions, then it finds them by an index on the version (issue 43, L5)', async () => {
      const indexes = await store.db.collection(SEARCH_TOTALS).listIndexes().toArray();
      expect(indexes.map((i) => i['key'])).toContainEqual({ version: 1 });
    });

    test('when a total is within a radius, then each instance counts it for itself: no shared document per point (issue 43, L5)', async () => {
      const near = { latitude: 42.1, longitude: -72.6 };
      const before = await store.db.collection(SEARCH_TOTALS).countDocuments();
      const one = instance();
      for (let i = 0; i < 3; i++) {
        const page = await one.engine.search({
          ...ask,
          near: { ...near, longitude: near.longitude + i / 100 },
          radiusKm: 50,
        });
        expect(page.total).toBe(30);
      }
      expect(await store.db.collection(SEARCH_TOTALS).countDocuments()).toBe(before);
      // Counted here, once a point (with the word's counts, which a radius reads the same way).
      expect(totalsCounted(one.source)).toBeGreaterThanOrEqual(3);
    });
  },
);

describe('a total another instance is counting (issue 43, L5)', () => {
  test('when another instance holds the claim for a second, then this one looks for its total a few times, further apart each time, not every 25 ms', async () => {
    const start = Date.now();
    let reads = 0;
    // The other instance's claim, then (after a second) its total.
    const totals = {
      findOne: async () => {
        reads++;
        return Date.now() - start < 1_000
          ? { _id: '1 total academy', version: '1', until: new Date(start + 20_000) }
          : { _id: '1 total academy', version: '1', n: 31 };
      },
    } as unknown as Collection<SearchTotalDocument>;
    const shared = new MongoSearchTotals(totals, 10_000);
    expect(await shared.get('1', 'total academy', async () => -1)).toBe(31);
    // 25, 50, 100, 200, 400, 800 ms: about seven reads in the second (one every 25 ms: forty).
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(10);
  });
});
