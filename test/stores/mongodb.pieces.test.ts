// The parts of the MongoDB adapter that need no server: how names become indexed tokens, how the
// configuration picks the store and the database, that a URI's password never reaches a log,
// and the Atlas Search stage (no Atlas here: its shape is checked against the committed index).
import { MongoServerError, type Collection, type Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/errors.ts';
import type { CatalogDocument, SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { loadConfig } from '../../src/config.ts';
import { INDEXES } from '../../src/stores/mongodb/indexes.ts';
import {
  atlasCandidatesPipeline,
  atlasCount,
  atlasCountPipeline,
  atlasTotalPipeline,
  fuzzyEdits,
  SYNONYM_MAPPINGS,
} from '../../src/stores/mongodb/atlas.pipeline.ts';
import { atlasNear, atlasScopeFilter, exactMatch } from '../../src/stores/mongodb/scope.ts';
import { deriveSearch, SEARCH_FIELDS_VERSION, tokenOf } from '../../src/stores/mongodb/search.fields.ts';
import { searchIndexDefinition, SYNONYM_SOURCES } from '../../src/stores/mongodb/search-index.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { TRANSLATION_GROUPS, WORD_GROUPS } from '../../src/domain/search/synonyms.ts';
import { databaseOf, withDatabase } from '../../src/stores/mongodb/store.ts';
import { redactUri } from '../../src/stores/open.ts';

describe('search fields', () => {
  const school = (name: string, more: { city?: string; state?: string; aliases?: string[] } = {}) =>
    deriveSearch({
      id: 'x',
      name,
      city: more.city ?? 'Springfield',
      state: more.state ?? 'TX',
      imageUrl: null,
      aliases: more.aliases ?? [],
      prominence: 0,
    });

  test("when a name is indexed, then every start of every term is a token, in the catalog (0) and in the school's state", () => {
    const { tokens } = school('Texas A & M', { city: 'Bryan' });
    const everywhere = tokens
      .filter((t) => t.startsWith('0'))
      .map((t) => t.slice(1))
      .sort();
    expect(everywhere).toEqual(
      ['a', 'am', 'b', 'br', 'bry', 'brya', 'bryan', 'm', 't', 'te', 'tex', 'texa', 'texas'].sort(),
    );
    expect(
      tokens
        .filter((t) => t.startsWith('tx'))
        .map((t) => t.slice(2))
        .sort(),
    ).toEqual(everywhere);
    expect(tokens).toHaveLength(2 * everywhere.length);
    expect(tokenOf('texas', undefined)).toBe('0texas');
    expect(tokenOf('texas', 'TX')).toBe('txtexas');
  });

  test('when a term has synonyms or translations, then they are tokens whole, not their starts', () => {
    const { tokens } = school('St. Mary University');
    expect(tokens).toEqual(expect.arrayContaining(['0saint', '0univ', '0universite', '0universidad', '0st', '0s']));
    expect(tokens).not.toContain('0sai');
    expect(tokens).not.toContain('0univers' + 'id');
  });

  test('when a word starts with a character outside the BMP, then no token ends inside its surrogate pair', () => {
    const { tokens } = school('𝒜bc');
    expect(tokens.every((t) => !/[\uD800-\uDBFF]$/.test(t))).toBe(true);
  });

  test("then the search fields are the rules' reading of the school, at the current version", () => {
    const derived = school("St. Mary's College", { aliases: ['SMC'], city: 'Notre Dame' });
    expect(derived.searchVersion).toBe(SEARCH_FIELDS_VERSION);
    expect(derived.search).toEqual({
      // Single-word synonyms are the query's to ask for (analysis.ts): the tokens carry them.
      name: expect.arrayContaining(['st', 'marys', 'mary', 'college']),
      aliases: ['smc'],
      city: ['notre', 'dame'],
      nameKey: 'college marys saint',
      aliasKeys: ['smc'],
      nameWords: ['st', 'marys', 'college'],
    });
  });
});

describe('the point of a school', () => {
  const base = { id: 'x', name: 'Laval', city: 'Québec', state: 'QC', imageUrl: null, aliases: [], prominence: 0 };

  test('when a school has both coordinates, then its document has them as a GeoJSON point, longitude first; else none', () => {
    expect(deriveSearch({ ...base, latitude: 46.78, longitude: -71.27 }).geo).toEqual({
      type: 'Point',
      coordinates: [-71.27, 46.78],
    });
    expect('geo' in deriveSearch(base)).toBe(false);
    expect('geo' in deriveSearch({ ...base, latitude: 46.78 })).toBe(false);
    expect(SEARCH_FIELDS_VERSION).toBe(3);
  });
});

describe('configuration', () => {
  test('when MONGODB_URI is not set, then the embedded store is used', () => {
    expect(loadConfig({}).store).toMatchObject({ kind: 'sqlite' });
  });

  test('when MONGODB_URI is set, then MongoDB with the in-process engine; MONGODB_SEARCH picks $text or names the Atlas index', () => {
    expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x' }).store).toEqual({
      kind: 'mongodb',
      uri: 'mongodb://db:27017/x',
      allowMissingCollections: false,
      search: { kind: 'memory' },
    });
    expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x', MONGODB_SEARCH: 'text' }).store).toEqual({
      kind: 'mongodb',
      uri: 'mongodb://db:27017/x',
      allowMissingCollections: false,
      search: { kind: 'text' },
    });
    expect(loadConfig({ MONGODB_URI: 'mongodb+srv://c.example.net/x', MONGODB_SEARCH: 'atlas' }).store).toEqual({
      kind: 'mongodb',
      uri: 'mongodb+srv://c.example.net/x',
      allowMissingCollections: false,
      search: { kind: 'atlas', index: 'schools_search' },
    });
    expect(
      loadConfig({ MONGODB_URI: 'mongodb://db:27017/x', MONGODB_ALLOW_MISSING_COLLECTIONS: 'true' }).store,
    ).toMatchObject({ allowMissingCollections: true });
  });

  test.each([
    ['MONGODB_URI', 'postgres://db/x'],
    ['MONGODB_SEARCH', 'lucene'],
    ['MONGODB_SEARCH_INDEX', 'a b'],
  ])('when %s is %s, then start-up stops naming it', (name, value) => {
    expect(() => loadConfig({ MONGODB_URI: 'mongodb://db/x', [name]: value })).toThrow(new RegExp(`${name}: `));
  });

  test('when the URI names a database, then it is used; otherwise school_search', () => {
    expect(databaseOf('mongodb://u:p@a:1,b:2/prod?replicaSet=rs0')).toBe('prod');
    expect(databaseOf('mongodb+srv://c.example.net/')).toBe('school_search');
    expect(databaseOf('mongodb://localhost:27017')).toBe('school_search');
    expect(databaseOf('mongodb://localhost/?w=majority')).toBe('school_search');
  });

  test("when a test needs a database of its own, then only the URI's path changes", () => {
    expect(withDatabase('mongodb://u:p@a:1,b:2/prod?replicaSet=rs0', 'test_1')).toBe(
      'mongodb://u:p@a:1,b:2/test_1?replicaSet=rs0',
    );
    expect(withDatabase('mongodb://127.0.0.1:27017/', 'x')).toBe('mongodb://127.0.0.1:27017/x');
    expect(withDatabase('mongodb://127.0.0.1:27017', 'x')).toBe('mongodb://127.0.0.1:27017/x');
    expect(withDatabase('mongodb+srv://c.example.net/?w=majority', 'x')).toBe(
      'mongodb+srv://c.example.net/x?w=majority',
    );
  });

  test('when a URI is logged, then its user, password and options are not', () => {
    expect(redactUri('mongodb+srv://app:s3cret@c.example.net/prod?tlsCertificateKeyFilePassword=x')).toBe(
      'mongodb+srv://***@c.example.net/prod',
    );
    expect(redactUri('mongodb://localhost:27017/db')).toBe('mongodb://localhost:27017/db');
  });
});

describe('indexes', () => {
  test('then the text index holds the tokens, without stemming or stop words, and dead tokens expire a day after they stopped working', () => {
    expect(INDEXES.schools).toEqual([
      {
        name: 'schools_tokens_text',
        key: { tokens: 'text' },
        default_language: 'none',
        language_override: 'textIndexLanguage',
      },
      { name: 'schools_search_version', key: { searchVersion: 1 } },
    ]);
    expect(INDEXES.users).toContainEqual({ name: 'users_email_unique', key: { email: 1 }, unique: true });
    expect(INDEXES.tokens).toContainEqual({ name: 'tokens_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: 86_400 });
  });
});

describe('Atlas Search queries', () => {
  const plan = planQuery('st marys colege');
  const [stage] = atlasCandidatesPipeline('schools_search', plan, [0, 1, 2], { state: 'IN' }, 1000);
  const search = stage!['$search'];
  const operators = JSON.stringify(search);

  test('when a query is asked, then each word is a clause of its own, every one required, with the state a filter', () => {
    expect(search.index).toBe('schools_search');
    expect(search.compound.must).toHaveLength(3);
    expect(search.compound.filter).toEqual([{ equals: { path: 'state', value: 'IN' } }]);
    const [noState] = atlasCandidatesPipeline('schools_search', plan, [0], {}, 10);
    expect(noState!['$search'].compound.filter).toBeUndefined();
    expect(noState!['$search'].compound.must).toHaveLength(1);
  });

  test("when a word may match, then exact with synonyms, autocomplete, fuzzy by its length, in name, alternative names and city, scored by the rules' credits", () => {
    const [st, marys, colege] = search.compound.must.map((c: { compound: { should: unknown[] } }) => c.compound.should);
    expect(st).toContainEqual({
      text: { path: 'search.name', query: 'st', synonyms: SYNONYM_MAPPINGS.words, score: { constant: { value: 20 } } },
    });
    expect(st).toContainEqual({
      autocomplete: { path: 'search.name', query: 'st', score: { constant: { value: 16 } } },
    });
    expect(st).toContainEqual({
      text: { path: 'search.city', query: 'st', synonyms: SYNONYM_MAPPINGS.words, score: { constant: { value: 13 } } },
    });
    // "st": 2 letters, no typos; "marys": 5 → 1 edit; the last word, "colege", also as a start with a typo.
    expect(JSON.stringify(st)).not.toContain('fuzzy');
    expect(marys).toContainEqual({
      text: {
        path: 'search.aliases',
        query: 'marys',
        fuzzy: { maxEdits: 1, prefixLength: 0 },
        score: { constant: { value: 10 } },
      },
    });
    expect(colege).toContainEqual({
      autocomplete: {
        path: 'search.name',
        query: 'colege',
        fuzzy: { maxEdits: 1, prefixLength: 0 },
        score: { constant: { value: 12 } },
      },
    });
    expect(JSON.stringify(marys)).not.toContain('"autocomplete":{"path":"search.name","query":"marys","fuzzy"');
    expect([
      fuzzyEdits('yale'),
      fuzzyEdits('unon'),
      fuzzyEdits('harvard'),
      fuzzyEdits('masachus'),
      fuzzyEdits('massachusetts'),
    ]).toEqual([1, 1, 1, 2, 2]);
    expect(fuzzyEdits('yal')).toBe(0);
  });

  test('when a word has translations, then they match through the translations mapping, a little below the word', () => {
    const [stage] = atlasCandidatesPipeline('schools_search', planQuery('universite'), [0], {}, 10);
    expect(stage!['$search'].compound.must[0].compound.should).toContainEqual({
      text: {
        path: 'search.name',
        query: 'universite',
        synonyms: SYNONYM_MAPPINGS.translations,
        score: { constant: { value: 19 } },
      },
    });
  });

  test("when a page is asked, then the total is Atlas's count, the fields come from stored source, prominence is a boost and equality a constant", () => {
    expect(search.count).toEqual({ type: 'total' });
    expect(search.returnStoredSource).toBe(true);
    expect(search.compound.should).toEqual([
      { equals: { path: 'search.nameKey', value: 'colege marys saint', score: { constant: { value: 10_000 } } } },
      { equals: { path: 'search.aliasKeys', value: 'colege marys saint', score: { constant: { value: 5_000 } } } },
    ]);
    expect(operators).toContain('{"path":{"value":"prominence","undefined":0}}');
    const [, limit, project] = atlasCandidatesPipeline('schools_search', plan, [0], {}, 1000);
    expect(limit).toEqual({ $limit: 1000 });
    expect(project!['$project'].meta).toBe('$$SEARCH_META');
    // No stage after $search reads the collection: no $lookup, no second match.
    expect(JSON.stringify([limit, project])).not.toMatch(/\$lookup|\$match|\$facet/);
    const stored: string[] = searchIndexDefinition('schools_search').definition['storedSource'].include;
    expect(
      Object.keys(project!['$project'])
        .filter((k) => k !== 'meta' && k !== '_id')
        .every((k) => stored.includes(k)),
    ).toBe(true);
  });

  test('when the search has levels, types, near and a radius, then they are filters of every question, proximity replaces prominence, and the radius is checked exactly on stored source', () => {
    const near = { latitude: 42.36, longitude: -71.06 };
    const scope = { state: 'MA', levels: ['high' as const], types: ['charter' as const], near, radiusKm: 10 };
    const pipeline = atlasCandidatesPipeline('schools_search', plan, [0, 1], scope, 1000);
    const compound = pipeline[0]!['$search'].compound;
    expect(compound.filter).toEqual(atlasScopeFilter(scope));
    expect(compound.filter.map((f: Document) => Object.keys(f)[0])).toEqual(['equals', 'in', 'equals', 'geoWithin']);
    expect(compound.should).toContainEqual(atlasNear(scope));
    expect(compound.score).toBeUndefined();
    // After $search: the exact radius (on latitude and longitude, stored), then the page's fields.
    expect(pipeline.map((stage) => Object.keys(stage)[0])).toEqual(['$search', '$match', '$limit', '$project']);
    expect(pipeline[1]).toEqual(exactMatch(scope));
    const stored: string[] = searchIndexDefinition('schools_search').definition['storedSource'].include;
    expect(stored).toEqual(expect.arrayContaining(['latitude', 'longitude']));
    // A word's count: Atlas's lower bound without a radius, the exact circle's with one.
    const counted = atlasCountPipeline('schools_search', plan.words[0]!, scope, 1001);
    expect(counted.map((stage) => Object.keys(stage)[0])).toEqual(['$search', '$match', '$limit', '$count']);
    expect(counted[0]!['$search'].compound.filter).toEqual(atlasScopeFilter(scope));
    expect(counted[2]).toEqual({ $limit: 1001 });
    const { radiusKm: _r, ...noRadius } = scope;
    const [meta] = atlasCountPipeline('schools_search', plan.words[0]!, noRadius, 1001);
    expect(meta!['$searchMeta'].compound.filter).toEqual(atlasScopeFilter(noRadius));
    expect(atlasCount({ n: 7 })).toBe(7);
    expect(atlasCount({ count: { lowerBound: 9 } })).toBe(9);
    const total = atlasTotalPipeline('schools_search', plan, [0], scope);
    expect(total.map((stage) => Object.keys(stage)[0])).toEqual(['$search', '$match', '$count']);
  });

  test('when a word is counted, then Atlas counts no further than the threshold', () => {
    const [meta] = atlasCountPipeline('schools_search', plan.words[0]!, {}, 1001);
    expect(meta!['$searchMeta'].count).toEqual({ type: 'lowerBound', threshold: 1001 });
  });

  test('then the index maps what the queries read, and its synonym mappings are the reviewed table', () => {
    const definition = searchIndexDefinition('schools_search').definition;
    const fields = definition['mappings'].fields;
    expect(fields.state).toEqual({ type: 'token' });
    // The scope's filters (scope.ts): tokens, and the point for geoWithin and near.
    for (const field of ['level', 'type', 'tags']) expect(fields[field], field).toEqual({ type: 'token' });
    expect(fields.geo).toEqual({ type: 'geo' });
    expect(fields.prominence).toEqual({ type: 'number' });
    for (const field of ['name', 'aliases', 'city']) {
      expect(fields.search.fields[field].map((f: { type: string }) => f.type).sort(), field).toEqual([
        'autocomplete',
        'string',
      ]);
    }
    expect(fields.search.fields.nameKey).toEqual({ type: 'token' });
    expect(definition['synonyms']).toEqual([
      { name: 'words', analyzer: 'lucene.keyword', source: { collection: 'search_synonyms' } },
      { name: 'translations', analyzer: 'lucene.keyword', source: { collection: 'search_translations' } },
    ]);
    expect(SYNONYM_SOURCES).toEqual({ search_synonyms: WORD_GROUPS, search_translations: TRANSLATION_GROUPS });
  });
});

describe('search pipelines when their index is missing', () => {
  test('when readiness asks, then the $text engine is ready exactly when the text index exists, and says how to create it', async () => {
    let outdated: unknown = null;
    const withIndexes = (names: string[]) =>
      new MongoSchoolStore(
        {
          listIndexes: () => ({ toArray: async () => names.map((name) => ({ name })) }),
          findOne: async () => outdated,
        } as unknown as Collection<SchoolDocument>,
        {} as Collection<CatalogDocument>,
      );
    const error: unknown = await withIndexes(['_id_'])
      .searchIndexReady({ kind: 'text' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(((error as Error).cause as Error).message).toContain('npx school-search indexes');
    await withIndexes(['_id_', 'schools_tokens_text']).searchIndexReady({ kind: 'text' });
    // Documents of an earlier version have no tokens to find them by: not ready until rewritten.
    outdated = { _id: 'old' };
    const stale: unknown = await withIndexes(['_id_', 'schools_tokens_text'])
      .searchIndexReady({ kind: 'text' })
      .catch((e: unknown) => e);
    expect(stale).toBeInstanceOf(StoreUnavailableError);
    expect(((stale as Error).cause as Error).message).toContain('rewrite them with `npx school-search indexes`');
  });

  test('when readiness asks, then the Atlas engine is ready exactly when its index exists and is queryable', async () => {
    const withSearchIndexes = (indexes: Array<{ name: string; queryable: boolean; status: string }>) =>
      new MongoSchoolStore(
        {
          listSearchIndexes: () => ({ toArray: async () => indexes }),
          findOne: async () => null,
        } as unknown as Collection<SchoolDocument>,
        {} as Collection<CatalogDocument>,
      );
    const mode = { kind: 'atlas', index: 'schools_search' } as const;
    for (const [indexes, why] of [
      [[], 'does not exist'],
      [[{ name: 'schools_search', queryable: false, status: 'BUILDING' }], 'not queryable yet (status BUILDING)'],
    ] as const) {
      const error: unknown = await withSearchIndexes([...indexes])
        .searchIndexReady(mode)
        .catch((e: unknown) => e);
      expect(error, why).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message).toContain(why);
    }
    await withSearchIndexes([{ name: 'schools_search', queryable: true, status: 'READY' }]).searchIndexReady(mode);
  });

  /** A schools collection whose aggregations fail as the server would. */
  function failing(code: number, errmsg: string) {
    const schools = {
      aggregate: () => ({ toArray: async () => Promise.reject(new MongoServerError({ code, errmsg })) }),
    };
    return new MongoSchoolStore(schools as unknown as Collection<SchoolDocument>, {} as Collection<CatalogDocument>);
  }
  const pipeline = [{ $match: { $text: { $search: '0harvard' } } }];

  test('when the text index is gone or Atlas Search is absent, then the search is unavailable (503) and the cause says what to do', async () => {
    const cases: Array<[number, string, 'text' | 'atlas', string]> = [
      [27, 'text index required for $text query', 'text', 'npx school-search indexes'],
      [
        31082,
        '$search not enabled! Enable Search by setting serverParameter mongotHost',
        'atlas',
        'MONGODB_SEARCH=atlas needs MongoDB Atlas',
      ],
      [6047401, '$search is not supported', 'atlas', 'MONGODB_SEARCH=atlas needs MongoDB Atlas'],
      [40324, "Unrecognized pipeline stage name: '$search'", 'atlas', 'MONGODB_SEARCH=atlas needs MongoDB Atlas'],
    ];
    for (const [code, errmsg, kind, advice] of cases) {
      const error: unknown = await failing(code, errmsg)
        .aggregate(kind === 'text' ? pipeline : [{ $search: {} }])
        .catch((e: unknown) => e);
      expect(error, String(code)).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message, String(code)).toContain(advice);
    }
  });

  test('when the server refuses the pipeline for another reason, then that error is not disguised as unavailable', async () => {
    const error: unknown = await failing(2, 'BadValue')
      .aggregate(pipeline)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
  });
});

describe('the catalog read for the in-process index', () => {
  /**
   * A store over collections standing in for the server: find() is a cursor over `batches` (the
   * server's batches), counting those fetched; the version document answers `versions` in turn
   * (the last one again when they run out).
   */
  function storeOver(batches: readonly (readonly string[])[], versions: readonly number[]) {
    const served = { fetched: 0, closed: 0 };
    const asked = [...versions];
    const document = (name: string) => ({
      _id: name,
      name,
      city: 'Springfield',
      state: 'IL',
      imageUrl: null,
      aliases: [],
      prominence: 0,
    });
    const schools = {
      find: () => {
        let next = 0;
        let buffer: ReturnType<typeof document>[] = [];
        return {
          async hasNext() {
            if (buffer.length === 0 && next < batches.length) {
              buffer = batches[next++]!.map(document);
              served.fetched++;
            }
            return buffer.length > 0;
          },
          readBufferedDocuments() {
            const taken = buffer;
            buffer = [];
            return taken;
          },
          async close() {
            served.closed++;
          },
        };
      },
    } as unknown as Collection<SchoolDocument>;
    const catalog = {
      findOne: async () => ({ _id: 'schools', version: asked.length > 1 ? asked.shift() : asked[0] }),
    } as unknown as Collection<CatalogDocument>;
    return { store: new MongoSchoolStore(schools, catalog), served };
  }

  /** Each chunk as text: the schools' names, or `restart`, or the version; with the batches fetched by then. */
  async function read(store: MongoSchoolStore, served: { fetched: number }) {
    const seen: string[] = [];
    for await (const chunk of store.readCatalog())
      seen.push(
        chunk.kind === 'schools'
          ? `${chunk.schools.map((s) => s.name).join(',')} (fetched ${served.fetched})`
          : chunk.kind === 'restart'
            ? 'restart'
            : `version ${chunk.version}`,
      );
    return seen;
  }

  test("when the catalog is read, then each of the server's batches is handed over before the next is fetched", async () => {
    const { store, served } = storeOver([['a', 'b'], ['c', 'd'], ['e']], [4]);
    expect(await read(store, served)).toEqual(['a,b (fetched 1)', 'c,d (fetched 2)', 'e (fetched 3)', 'version 4']);
    expect(served.closed).toBe(1);
  });

  test('when an import moved the version while the catalog was read, then the read restarts; after five attempts it ends with a version no poll will match', async () => {
    const once = storeOver([['a'], ['b']], [1, 2, 2]);
    expect(await read(once.store, once.served)).toEqual([
      'a (fetched 1)',
      'b (fetched 2)',
      'restart',
      'a (fetched 3)',
      'b (fetched 4)',
      'version 2',
    ]);
    const moving = storeOver([['a']], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const chunks = await read(moving.store, moving.served);
    expect(chunks.filter((c) => c === 'restart')).toHaveLength(4);
    expect(chunks.at(-1)).toBe('version 10?');
    expect(moving.served.closed).toBe(5);
  });

  test('when the consumer stops early, then the cursor is closed', async () => {
    const { store, served } = storeOver([['a'], ['b'], ['c']], [1]);
    for await (const chunk of store.readCatalog()) if (chunk.kind === 'schools') break;
    expect(served).toEqual({ fetched: 1, closed: 1 });
  });
});
