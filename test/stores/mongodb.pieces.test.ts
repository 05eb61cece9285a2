// The parts of the MongoDB adapter that need no server: how names become indexed grams, how the
// configuration picks the store and the database, that a URI's password never reaches a log,
// and the Atlas Search stage (no Atlas here: its shape is checked against the committed index).
import { MongoServerError, type Collection } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/errors.ts';
import type { CatalogDocument, SchoolDocument } from '../../src/stores/mongodb/documents.ts';
import { MongoSchoolStore } from '../../src/stores/mongodb/school.store.ts';
import { loadConfig } from '../../src/config.ts';
import { queryTerms, searchText } from '../../src/stores/mongodb/texts.ts';
import { edgeGrams } from '../../src/stores/mongodb/grams.ts';
import { INDEXES } from '../../src/stores/mongodb/indexes.ts';
import { atlasCandidates, rankAndPage, selectiveTerm, textCandidates } from '../../src/stores/mongodb/search.pipeline.ts';
import { searchIndexDefinition } from '../../src/stores/mongodb/search-index.ts';
import { databaseOf, withDatabase } from '../../src/stores/mongodb/store.ts';
import { redactUri } from '../../src/stores/open.ts';

describe('edgeGrams', () => {
  test('when a name is indexed, then every prefix of two or more characters and every one-letter word is a gram', () => {
    expect(edgeGrams(searchText('Texas A & M').terms).sort()).toEqual(['a', 'm', 'te', 'tex', 'texa', 'texas'].sort());
  });

  test('when a query term is looked up, then it is a gram exactly when FTS5 would match it as a prefix (or whole one-letter word)', () => {
    const grams = new Set(edgeGrams(searchText("St. Mary's École").terms));
    for (const query of ['st', 'saint', 'mary', 'marys', 's', 'ec', 'ecole']) expect(grams.has(queryTerms(query)[0]!), query).toBe(true);
    // One letter matches a whole word only; a longer prefix of nothing matches nothing.
    for (const query of ['m', 'e', 'marysv', 'ecoles']) expect(grams.has(queryTerms(query)[0]!), query).toBe(false);
  });

  test('when a word starts with a character outside the BMP, then no gram ends inside its surrogate pair', () => {
    const grams = edgeGrams(['𝒜bc']);
    expect(grams).toEqual(['𝒜', '𝒜b', '𝒜bc']);
    for (const g of grams) expect(g.isWellFormed()).toBe(true);
  });
});

describe('configuration', () => {
  test('when MONGODB_URI is not set, then the embedded store is used', () => {
    expect(loadConfig({}).store).toMatchObject({ kind: 'sqlite' });
  });

  test('when MONGODB_URI is set, then MongoDB with the in-process engine; MONGODB_SEARCH picks $text or names the Atlas index', () => {
    expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x' }).store).toEqual({ kind: 'mongodb', uri: 'mongodb://db:27017/x', search: { kind: 'memory' } });
    expect(loadConfig({ MONGODB_URI: 'mongodb://db:27017/x', MONGODB_SEARCH: 'text' }).store).toEqual({ kind: 'mongodb', uri: 'mongodb://db:27017/x', search: { kind: 'text' } });
    expect(loadConfig({ MONGODB_URI: 'mongodb+srv://c.example.net/x', MONGODB_SEARCH: 'atlas' }).store).toEqual({
      kind: 'mongodb',
      uri: 'mongodb+srv://c.example.net/x',
      search: { kind: 'atlas', index: 'schools_search' },
    });
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

  test('when a test needs a database of its own, then only the URI\'s path changes', () => {
    expect(withDatabase('mongodb://u:p@a:1,b:2/prod?replicaSet=rs0', 'test_1')).toBe('mongodb://u:p@a:1,b:2/test_1?replicaSet=rs0');
    expect(withDatabase('mongodb://127.0.0.1:27017/', 'x')).toBe('mongodb://127.0.0.1:27017/x');
    expect(withDatabase('mongodb://127.0.0.1:27017', 'x')).toBe('mongodb://127.0.0.1:27017/x');
    expect(withDatabase('mongodb+srv://c.example.net/?w=majority', 'x')).toBe('mongodb+srv://c.example.net/x?w=majority');
  });

  test('when a URI is logged, then its user, password and options are not', () => {
    expect(redactUri('mongodb+srv://app:s3cret@c.example.net/prod?tlsCertificateKeyFilePassword=x')).toBe('mongodb+srv://***@c.example.net/prod');
    expect(redactUri('mongodb://localhost:27017/db')).toBe('mongodb://localhost:27017/db');
  });
});

describe('indexes', () => {
  test('then the text index holds only the names\' grams, without stemming or stop words, and dead tokens expire a day after they stopped working', () => {
    expect(INDEXES.schools).toEqual([
      { name: 'schools_text', key: { 'texts.grams': 'text' }, default_language: 'none', language_override: 'textIndexLanguage' },
    ]);
    expect(INDEXES.users).toContainEqual({ name: 'users_email_unique', key: { email: 1 }, unique: true });
    expect(INDEXES.tokens).toContainEqual({ name: 'tokens_dead_ttl', key: { deadAt: 1 }, expireAfterSeconds: 86_400 });
  });
});

describe('search pipelines', () => {
  const query = { terms: ['texas', 'a', 'm'], coveredLength: 7, state: 'TX', offset: 25, limit: 5 };

  test('when the search is $text, then $text looks up one plain word, the longest, and one name must hold every term', () => {
    expect(textCandidates(query)).toEqual([
      { $match: { $text: { $search: 'texas' }, texts: { $elemMatch: { grams: { $all: ['texas', 'a', 'm'] } } }, state: 'TX' } },
    ]);
    // The first of equally long terms; a one-term query looks up that term.
    expect(selectiveTerm(['of', 'university', 'california'])).toBe('university');
    expect(selectiveTerm(['st', 'ab'])).toBe('st');
    expect(textCandidates({ ...query, terms: ['x'], state: undefined })).toEqual([
      { $match: { $text: { $search: 'x' }, texts: { $elemMatch: { grams: { $all: ['x'] } } } } },
    ]);
  });

  test('when ranked, then the order is the contract\'s (rank, name, id), paged after counting everything', () => {
    const stages = rankAndPage(query, false);
    expect(stages.at(-1)).toEqual({
      $facet: { total: [{ $count: 'n' }], hits: [{ $sort: { rank: 1, sortKey: 1, _id: 1 } }, { $skip: 25 }, { $limit: 5 }] },
    });
    expect(JSON.stringify(stages)).toContain('{"$literal":["texas","a","m"]}');
  });

  test('when the search is Atlas, then every term must match within one name (autocomplete; whole word for one letter) and the state is a token filter', () => {
    const [stage] = atlasCandidates({ ...query, terms: ['massachusettsinstitute', 'a'] }, { index: 'schools_search' });
    expect(stage).toEqual({
      $search: {
        index: 'schools_search',
        compound: {
          must: [
            {
              embeddedDocument: {
                path: 'texts',
                operator: {
                  compound: {
                    must: [
                      { autocomplete: { path: 'texts.terms', query: 'massachusettsin', fuzzy: { maxEdits: 1, prefixLength: 1 } } },
                      { text: { path: 'texts.terms', query: 'a' } },
                    ],
                  },
                },
              },
            },
          ],
          filter: [{ equals: { path: 'state', value: 'TX' } }],
        },
      },
    });
    const [noState] = atlasCandidates({ ...query, state: undefined }, { index: 'schools_search' });
    expect(Object.keys(noState!['$search'].compound)).toEqual(['must']);
    const fields = searchIndexDefinition('schools_search').definition['mappings'].fields;
    expect(fields.state).toEqual({ type: 'token' });
    // Arrays of documents must be embeddedDocuments for per-name matching (the document type cannot index them).
    expect(fields.texts.type).toBe('embeddedDocuments');
    expect(fields.texts.fields.terms.map((f: { type: string }) => f.type).sort()).toEqual(['autocomplete', 'string']);
    expect(fields.texts.fields.terms.find((f: { type: string }) => f.type === 'autocomplete').maxGrams).toBe(15);
  });
});

describe('search pipelines when their index is missing', () => {
  test('when readiness asks, then the $text engine is ready exactly when the text index exists, and says how to create it', async () => {
    const withIndexes = (names: string[]) =>
      new MongoSchoolStore(
        { listIndexes: () => ({ toArray: async () => names.map((name) => ({ name })) }) } as unknown as Collection<SchoolDocument>,
        {} as Collection<CatalogDocument>,
      );
    const error: unknown = await withIndexes(['_id_']).searchIndexReady({ kind: 'text' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(((error as Error).cause as Error).message).toContain('npx school-search indexes');
    await withIndexes(['_id_', 'schools_text']).searchIndexReady({ kind: 'text' });
  });

  test('when readiness asks, then the Atlas engine is ready exactly when its index exists and is queryable', async () => {
    const withSearchIndexes = (indexes: Array<{ name: string; queryable: boolean; status: string }>) =>
      new MongoSchoolStore(
        { listSearchIndexes: () => ({ toArray: async () => indexes }) } as unknown as Collection<SchoolDocument>,
        {} as Collection<CatalogDocument>,
      );
    const mode = { kind: 'atlas', index: 'schools_search' } as const;
    for (const [indexes, why] of [
      [[], 'does not exist'],
      [[{ name: 'schools_search', queryable: false, status: 'BUILDING' }], 'not queryable yet (status BUILDING)'],
    ] as const) {
      const error: unknown = await withSearchIndexes([...indexes]).searchIndexReady(mode).catch((e: unknown) => e);
      expect(error, why).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message).toContain(why);
    }
    await withSearchIndexes([{ name: 'schools_search', queryable: true, status: 'READY' }]).searchIndexReady(mode);
  });

  /** A schools collection whose aggregations fail as the server would. */
  function failing(code: number, errmsg: string) {
    const schools = { aggregate: () => ({ toArray: async () => Promise.reject(new MongoServerError({ code, errmsg })) }) };
    return new MongoSchoolStore(schools as unknown as Collection<SchoolDocument>, {} as Collection<CatalogDocument>);
  }
  const query = { terms: ['harvard'], coveredLength: 7, offset: 0, limit: 5 };

  test('when the text index is gone or Atlas Search is absent, then the search is unavailable (503) and the cause says what to do', async () => {
    const cases: Array<[number, string, 'text' | 'atlas', string]> = [
      [27, 'text index required for $text query', 'text', 'npx school-search indexes'],
      [31082, '$search not enabled! Enable Search by setting serverParameter mongotHost', 'atlas', 'MONGODB_SEARCH=atlas needs MongoDB Atlas'],
      [6047401, '$search is not supported', 'atlas', 'MONGODB_SEARCH=atlas needs MongoDB Atlas'],
      [40324, "Unrecognized pipeline stage name: '$search'", 'atlas', 'MONGODB_SEARCH=atlas needs MongoDB Atlas'],
    ];
    for (const [code, errmsg, kind, advice] of cases) {
      const mode = kind === 'text' ? { kind } : { kind, index: 'schools_search' };
      const error: unknown = await failing(code, errmsg).searchPipeline(query, mode).catch((e: unknown) => e);
      expect(error, String(code)).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message, String(code)).toContain(advice);
    }
  });

  test('when the server refuses the pipeline for another reason, then that error is not disguised as unavailable', async () => {
    const error: unknown = await failing(2, 'BadValue').searchPipeline(query, { kind: 'text' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
  });
});
