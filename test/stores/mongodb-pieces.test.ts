// The parts of the MongoDB adapter that need no server: how names become indexed tokens, how the
// configuration picks the store and the database, that a URI's password never reaches a log,
// and the Atlas Search stage (no Atlas here: its shape is checked against the committed index).
import type { Collection, Document } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { INDEXES } from '../../src/stores/mongodb/indexes.ts';
import type { CatalogDocument } from '../../src/mongodb-shared/school-document.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { SEARCH_EXTENSION } from '../../src/search/mongodb/catalog-extension.ts';
import {
  atlasCandidatesPipeline,
  atlasCount,
  atlasCountPipeline,
  atlasTotalPipeline,
} from '../../src/search/mongodb/atlas-pipeline.ts';
import { FUZZY_MAX_EXPANSIONS, fuzzyEdits } from '../../src/search/mongodb/atlas-typos.ts';
import { atlasNear, atlasScopeFilter, exactMatch } from '../../src/search/mongodb/scope.ts';
import {
  deriveSearch,
  SEARCH_FIELDS_VERSION,
  textSearch,
  tokenOf,
  type DerivedSearch,
  type SearchedSchool,
} from '../../src/search/mongodb/search-fields.ts';
import { STATE_CODES } from '../../src/domain/catalog/states.ts';
import { searchIndexDefinition } from '../../src/search/mongodb/atlas-search-index.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import { databaseOf, withDatabase } from '../../src/stores/mongodb/store.ts';
import { redactUri } from '../../src/composition/store.ts';

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

  test("when a name is indexed, then every start of every term is a token, once, under the school's state", () => {
    const { tokens } = school('Texas A & M', { city: 'Bryan' });
    // 13 starts, each one key of the text index: no second copy for the whole catalog (version 3 had one).
    expect(tokens).toHaveLength(13);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokens.every((t) => t.startsWith('tx'))).toBe(true);
    expect(tokens.map((t) => t.slice(2)).sort()).toEqual(
      ['a', 'am', 'b', 'br', 'bry', 'brya', 'bryan', 'm', 't', 'te', 'tex', 'texa', 'texas'].sort(),
    );
  });

  test('when a word is looked up, then in a state it is one term; in the whole catalog, one per state, and a school holds only its own', () => {
    expect(textSearch(tokenOf('texas', 'TX'))).toBe('txtexas');
    const everywhere = textSearch(tokenOf('texas', undefined)).split(' ');
    expect(everywhere).toHaveLength(STATE_CODES.size);
    expect(new Set(everywhere)).toEqual(new Set([...STATE_CODES].map((s) => `${s.toLowerCase()}texas`)));
    const { tokens } = school('Texas A & M', { city: 'Bryan' });
    expect(everywhere.filter((t) => tokens.includes(t))).toEqual(['txtexas']);
  });

  test('when a term has synonyms or translations, then they are tokens whole, not their starts', () => {
    const { tokens } = school('St. Mary University');
    expect(tokens).toEqual(
      expect.arrayContaining(['txsaint', 'txuniv', 'txuniversite', 'txuniversidad', 'txst', 'txs']),
    );
    expect(tokens).not.toContain('txsai');
    expect(tokens).not.toContain('txunivers' + 'id');
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
    expect(SEARCH_FIELDS_VERSION).toBe(5);
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
  test('then the store keeps one of its own on the schools, the changes by ticket (the search wing hands it its text index), and dead tokens expire a day after they stopped working', () => {
    expect(INDEXES.schools).toEqual([{ name: 'schools_by_change', key: { changedIn: 1 } }]);
    expect(INDEXES.users).toContainEqual({ name: 'users_email_unique', key: { email: 1 }, unique: true });
    expect(INDEXES.tokens).toContainEqual({ name: 'tokens_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: 86_400 });
  });
});

describe('Atlas Search queries', () => {
  const plan = planQuery('st marys colege');
  const [stage] = atlasCandidatesPipeline('schools_search', plan, [0, 1, 2], { stateCode: 'IN' }, 1000);
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

  test("when a word may match, then exact with synonyms, autocomplete, fuzzy by its own length, in name, alternative names and city, scored by the rules' credits", () => {
    const [st, marys, colege] = search.compound.must.map((c: { compound: { should: unknown[] } }) => c.compound.should);
    // The word and its synonyms, as the plan has them: no synonym mapping (issue 43, L2).
    const words = (query: string | string[], path: string, score: number) => ({
      text: { path, query, score: { constant: { value: score } } },
    });
    expect(st).toContainEqual(words(['st', 'saint'], 'search.name', 20));
    expect(st).toContainEqual({
      autocomplete: { path: 'search.name', query: 'st', score: { constant: { value: 16 } } },
    });
    expect(st).toContainEqual(words(['st', 'saint'], 'search.city', 13));
    // "st": 2 letters, no typos; "marys": 5 → 1 edit; the last word, "colege", also as a start with a typo.
    expect(JSON.stringify(st)).not.toMatch(/fuzzy|wildcard/);
    expect(marys).toContainEqual({
      text: {
        path: 'search.aliases',
        query: 'marys',
        fuzzy: { maxEdits: 1, prefixLength: 0, maxExpansions: FUZZY_MAX_EXPANSIONS },
        score: { constant: { value: 10 } },
      },
    });
    expect(colege).toContainEqual({
      autocomplete: {
        path: 'search.name',
        query: 'colege',
        fuzzy: { maxEdits: 1, prefixLength: 0, maxExpansions: FUZZY_MAX_EXPANSIONS },
        score: { constant: { value: 12 } },
      },
    });
    expect(JSON.stringify(marys)).not.toContain('"autocomplete":{"path":"search.name","query":"marys","fuzzy"');
    // The word's own budget: the longer terms that allow more are listed (atlas-typos.ts).
    expect(['yal', 'yale', 'unon', 'harvard', 'masachus', 'massachusetts'].map(fuzzyEdits)).toEqual([0, 0, 0, 1, 1, 2]);
  });

  test('when a 4-letter word may be a typo of a 5-letter term, then the terms one insertion away are wildcard patterns, and no fuzzy asks for more', () => {
    const [stage] = atlasCandidatesPipeline('schools_search', planQuery('unon college'), [0], {}, 10);
    const unon: Document[] = stage!['$search'].compound.must[0].compound.should;
    expect(unon).toContainEqual({
      wildcard: {
        path: 'search.name',
        query: ['?unon', 'u?non', 'un?on', 'uno?n', 'unon?'],
        allowAnalyzedField: true,
        score: { constant: { value: 12 } },
      },
    });
    expect(JSON.stringify(unon)).not.toContain('fuzzy');
  });

  test('when a word is longer than the autocomplete grams, then its start is a wildcard prefix, and no autocomplete (Atlas would truncate it to 15 letters)', () => {
    const [stage] = atlasCandidatesPipeline('schools_search', planQuery('interdenominational'), [0], {}, 10);
    const should: Document[] = stage!['$search'].compound.must[0].compound.should;
    expect(should).toContainEqual({
      wildcard: {
        path: 'search.name',
        query: 'interdenominational*',
        allowAnalyzedField: true,
        score: { constant: { value: 16 } },
      },
    });
    expect(JSON.stringify(should)).not.toContain('autocomplete');
  });

  test('when a query is asked, then no clause names a synonym mapping (the index has none: the shared tiers allow one, issue 43, L2)', () => {
    for (const query of ['st marys', 'universite', 'college of the holy cross']) {
      const pipeline = JSON.stringify(atlasCandidatesPipeline('schools_search', planQuery(query), [0], {}, 10));
      expect(pipeline, query).not.toContain('synonyms');
    }
    expect(searchIndexDefinition('schools_search').definition['synonyms']).toBeUndefined();
  });

  test('when a word has translations, then they are asked as whole terms, a little below the word', () => {
    const [stage] = atlasCandidatesPipeline('schools_search', planQuery('universite'), [0], {}, 10);
    expect(stage!['$search'].compound.must[0].compound.should).toContainEqual({
      text: {
        path: 'search.name',
        query: ['university', 'univ', 'universidad'],
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
    const scope = { stateCode: 'MA', level: ['high' as const], type: ['charter' as const], near, radiusKm: 10 };
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
    // No synonym mappings: the queries carry each word's synonyms and translations (issue 43, L2).
    expect(definition['synonyms']).toBeUndefined();
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
    } as unknown as Collection<SearchedSchool>;
    const catalog = {
      findOne: async () => ({ _id: 'schools', version: asked.length > 1 ? asked.shift() : asked[0] }),
    } as unknown as Collection<CatalogDocument>;
    return { store: new MongoSchoolStore(schools, catalog, SEARCH_EXTENSION), served };
  }

  /** Each chunk as text: the schools' names, or `restart`, or the version; with the batches fetched by then. */
  async function read(store: MongoSchoolStore<DerivedSearch>, served: { fetched: number }) {
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
