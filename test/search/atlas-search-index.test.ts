// The Atlas Search index as `school-search indexes` keeps it (no Atlas here: a collection that
// answers as Atlas does). Atlas lists the definition it holds with its defaults spelled out and
// its own key order; the command must see that as the same index, and only a real change as one.
import { describe, expect, test } from 'vitest';
import { MongoClient, MongoNetworkError, type Collection, type Document } from 'mongodb';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import {
  ensureSearchIndex,
  ensureSynonyms,
  searchIndexDefinition,
  SearchIndexMissingError,
} from '../../src/search/mongodb/atlas-search-index.ts';
import type { Db } from 'mongodb';
import { WORD_GROUPS } from '../../src/domain/search/synonyms.ts';
import { canonical, sameSearchIndex } from '../../src/search/mongodb/same-atlas-definition.ts';
import { memoryDb } from '../support/memory-db.ts';
import { freshDatabaseName, mongoServers } from '../support/mongodb.ts';

const servers = await mongoServers();

/** The `words` mapping as an older table left it: one group changed, one gone, one more. */
async function olderTable(db: Db): Promise<void> {
  const groups = WORD_GROUPS.filter((g) => g[0] !== 'fort').map((g) => (g[0] === 'saint' ? ['saint'] : [...g]));
  await db
    .collection<{ _id: string; mappingType: string; synonyms: string[] }>('search_synonyms')
    .insertMany([...groups, ['avenue', 'ave']].map((g) => ({ _id: g[0]!, mappingType: 'equivalent', synonyms: g })));
}

/** Every group the older and the new table share (all but saint, fort and avenue) is in every state written. */
function expectNoGap(states: readonly Document[][]): void {
  expect(states.length).toBeGreaterThan(0);
  const shared = WORD_GROUPS.filter((g) => g[0] !== 'saint' && g[0] !== 'fort').map((g) => g[0]!);
  states.forEach((state, i) => {
    const held = new Set(state.map((d) => d['_id']));
    expect({ write: i, missing: shared.filter((id) => !held.has(id)) }).toEqual({ write: i, missing: [] });
  });
  const last = states.at(-1)!;
  expect(last.map((d) => d['_id']).sort()).toEqual(WORD_GROUPS.map((g) => g[0]).sort());
  expect(last.find((d) => d['_id'] === 'saint')?.['synonyms']).toEqual(['saint', 'st']);
}

const NAME = 'schools_search';
const committed = searchIndexDefinition(NAME).definition;

/** The committed definition as Atlas lists it: keys and lists reordered, every default written out. */
function asAtlasListsIt(): Document {
  const terms = () => [
    {
      foldDiacritics: false,
      maxGrams: 15,
      minGrams: 1,
      tokenization: 'edgeGram',
      analyzer: 'lucene.keyword',
      type: 'autocomplete',
    },
    {
      type: 'string',
      analyzer: 'lucene.keyword',
      searchAnalyzer: 'lucene.keyword',
      indexOptions: 'offsets',
      store: true,
      norms: 'include',
    },
  ];
  return {
    synonyms: [
      { source: { collection: 'search_translations' }, analyzer: 'lucene.keyword', name: 'translations' },
      { source: { collection: 'search_synonyms' }, analyzer: 'lucene.keyword', name: 'words' },
    ],
    searchAnalyzer: 'lucene.standard',
    storedSource: {
      include: [
        'search',
        'sortKey',
        'prominence',
        'aliases',
        'tags',
        'type',
        'highestGrade',
        'lowestGrade',
        'level',
        'longitude',
        'latitude',
        'postalCode',
        'address',
        'imageUrl',
        'state',
        'city',
        'name',
      ],
    },
    analyzer: 'lucene.standard',
    mappings: {
      fields: {
        search: {
          fields: {
            nameKey: { normalizer: 'none', type: 'token' },
            city: terms(),
            aliasKeys: { type: 'token', normalizer: 'none' },
            aliases: terms(),
            name: terms(),
          },
          dynamic: false,
          type: 'document',
        },
        prominence: { type: 'number', representation: 'double', indexIntegers: true, indexDoubles: true },
        tags: { normalizer: 'none', type: 'token' },
        geo: { indexShapes: false, type: 'geo' },
        type: { type: 'token', normalizer: 'none' },
        level: { normalizer: 'none', type: 'token' },
        state: { normalizer: 'none', type: 'token' },
      },
      dynamic: false,
    },
  };
}

/** A schools collection on Atlas, holding at most the one index, counting what is asked of it. */
function atlasCollection(held?: { latestDefinition: Document; queryable: boolean; status: string }) {
  const calls = { create: 0, update: 0 };
  let index = held;
  const collection = {
    listSearchIndexes: (name: string) => ({
      toArray: async () => (index && name === NAME ? [{ name, ...index }] : []),
    }),
    createSearchIndex: async (d: { name: string; definition: Document }) => {
      calls.create++;
      index = { latestDefinition: asAtlasListsIt(), queryable: false, status: 'PENDING' };
      return d.name;
    },
    updateSearchIndex: async (_name: string, _definition: Document) => {
      calls.update++;
    },
  };
  return { collection: collection as unknown as Collection, calls };
}

describe('Atlas Search index definition', () => {
  test('when Atlas lists the committed definition with its defaults and its own key order, then it is the same index', () => {
    expect(sameSearchIndex(asAtlasListsIt(), committed)).toBe(true);
    expect(canonical(asAtlasListsIt())).toEqual(canonical(committed));
  });

  test('when an option that is not a default differs, then it is another index', () => {
    const changes: Array<(d: Document) => void> = [
      (d) => (d['mappings'].fields.search.fields.name[0].maxGrams = 10),
      (d) => (d['mappings'].fields.search.fields.city[0].foldDiacritics = true),
      (d) => (d['mappings'].fields.search.fields.aliases[1].analyzer = 'lucene.standard'),
      (d) => (d['mappings'].fields.state.normalizer = 'lowercase'),
      (d) => (d['mappings'].fields.prominence.representation = 'int64'),
      (d) => (d['mappings'].fields.geo.indexShapes = true),
      (d) => delete d['mappings'].fields.level,
      (d) => (d['mappings'].dynamic = true),
      (d) => (d['storedSource'] = { include: ['name'] }),
      (d) => delete d['mappings'].fields.state,
      (d) => d['mappings'].fields.search.fields.name.pop(),
      (d) => (d['synonyms'][0].source.collection = 'other'),
      (d) => d['synonyms'].pop(),
    ];
    for (const change of changes) {
      const d = asAtlasListsIt();
      change(d);
      expect(sameSearchIndex(d, committed), JSON.stringify(d)).toBe(false);
    }
  });

  test('when `school-search indexes` runs twice, then the index is created once and never updated', async () => {
    const { collection, calls } = atlasCollection();
    await ensureSearchIndex(collection, NAME, 'create');
    await ensureSearchIndex(collection, NAME, 'create');
    expect(calls).toEqual({ create: 1, update: 0 });
  });

  test('when the index holds another definition, then the command updates it once', async () => {
    const other = asAtlasListsIt();
    other['mappings'].fields.search.fields.name[0].maxGrams = 10;
    const { collection, calls } = atlasCollection({ latestDefinition: other, queryable: true, status: 'READY' });
    await ensureSearchIndex(collection, NAME, 'create');
    expect(calls).toEqual({ create: 0, update: 1 });
  });

  test('when listing the search indexes fails for a moment (network), then that is unavailability, not "no Atlas Search"', async () => {
    const flaky = {
      listSearchIndexes: () => ({ toArray: async () => Promise.reject(new MongoNetworkError('connection reset')) }),
    } as unknown as Collection;
    const error: unknown = await ensureSearchIndex(flaky, NAME, 'verify').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).not.toBeInstanceOf(SearchIndexMissingError);
  });

  test('when the API starts while the index is missing or building, then it says which, with what to do', async () => {
    await expect(ensureSearchIndex(atlasCollection().collection, NAME, 'verify')).rejects.toThrow(
      SearchIndexMissingError,
    );
    await expect(ensureSearchIndex(atlasCollection().collection, NAME, 'verify')).rejects.toThrow(
      'npx school-search indexes',
    );
    const building = atlasCollection({
      latestDefinition: asAtlasListsIt(),
      queryable: false,
      status: 'BUILDING',
    }).collection;
    await expect(ensureSearchIndex(building, NAME, 'verify')).rejects.toThrow('not queryable yet (status BUILDING)');
    await ensureSearchIndex(
      atlasCollection({ latestDefinition: asAtlasListsIt(), queryable: true, status: 'READY' }).collection,
      NAME,
      'verify',
    );
  });

  test('when the synonym mappings are loaded twice, then the second run rewrites nothing; a changed table is written again', async () => {
    const { db, docs } = memoryDb();
    expect(await ensureSynonyms(db)).toEqual(['search_synonyms', 'search_translations']);
    expect(docs('search_synonyms')).toContainEqual({
      _id: 'saint',
      mappingType: 'equivalent',
      synonyms: ['saint', 'st'],
    });
    expect(docs('search_synonyms')).toHaveLength(WORD_GROUPS.length);
    // A translation holds its words' spellings, as the rules read it ("univ" translates "universidad").
    expect(docs('search_translations')).toContainEqual({
      _id: 'university',
      mappingType: 'equivalent',
      synonyms: ['university', 'univ', 'universite', 'universidad'],
    });
    expect(await ensureSynonyms(db)).toEqual([]);
    await db.collection<{ _id: string }>('search_synonyms').deleteMany({ _id: 'saint' });
    expect(await ensureSynonyms(db)).toEqual(['search_synonyms']);
    expect(docs('search_synonyms')).toContainEqual({
      _id: 'saint',
      mappingType: 'equivalent',
      synonyms: ['saint', 'st'],
    });
  });

  test('when the synonym table changed, then the mappings are rewritten without a gap: after every write, each group both tables have is there', async () => {
    const { db, snapshots } = memoryDb();
    await olderTable(db);
    snapshots.clear();
    await ensureSynonyms(db);
    expectNoGap(snapshots.get('search_synonyms') ?? []);
  });
});

describe.skipIf(servers.length === 0).each(servers)('Atlas synonym mappings on %s', (_name, uri) => {
  test('when the synonym table changed, then the mappings are rewritten without a gap: after every write, each group both tables have is there', async () => {
    const client = await MongoClient.connect(uri);
    const db = client.db(freshDatabaseName());
    try {
      await olderTable(db);
      // What a reader of the collection (Atlas) can see after each write the loader makes.
      const states: Document[][] = [];
      const observed = {
        collection: (name: string) => {
          const real = db.collection(name);
          return new Proxy(real, {
            get(target, key, receiver) {
              const value = Reflect.get(target, key, receiver);
              if (
                typeof value !== 'function' ||
                !['bulkWrite', 'deleteMany', 'insertMany', 'replaceOne'].includes(String(key))
              )
                return typeof value === 'function' ? value.bind(target) : value;
              return async (...args: unknown[]) => {
                const result = await value.apply(target, args);
                if (name === 'search_synonyms') states.push(await real.find({}).toArray());
                return result;
              };
            },
          });
        },
      } as unknown as Db;
      await ensureSynonyms(observed);
      expectNoGap(states);
    } finally {
      await db.dropDatabase();
      await client.close();
    }
  });
});
