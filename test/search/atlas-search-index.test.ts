// The Atlas Search index as `school-search indexes` keeps it (no Atlas here: a collection that
// answers as Atlas does). Atlas lists the definition it holds with its defaults spelled out and
// its own key order; the command must see that as the same index, and only a real change as one.
import { describe, expect, test } from 'vitest';
import { MongoNetworkError, type Collection, type Document } from 'mongodb';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import {
  ensureSearchIndex,
  searchIndexDefinition,
  SearchIndexMissingError,
} from '../../src/search/mongodb/atlas-search-index.ts';
import { canonical, sameSearchIndex } from '../../src/search/mongodb/same-atlas-definition.ts';

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
      // An index an earlier version made, with its two synonym mappings: updated to none (issue 43, L2).
      (d) =>
        (d['synonyms'] = [
          { source: { collection: 'search_synonyms' }, analyzer: 'lucene.keyword', name: 'words' },
          { source: { collection: 'search_translations' }, analyzer: 'lucene.keyword', name: 'translations' },
        ]),
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
});
