// What the search engines on MongoDB need set up on the server, checked without one: the indexes
// the wing hands the store (and those they replace), readiness (the text index, the search fields'
// version, the Atlas Search index), a pipeline whose index is missing answered as a 503 naming the
// fix, and which pipelines the store is asked to read `local` (Atlas Search's). The store's side
// of the port is stood in for where it would need a server (src/mongodb-shared/catalog.port.ts).
import { MongoServerError, type Collection } from 'mongodb';
import { describe, expect, test } from 'vitest';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { planQuery } from '../../src/domain/search/query.ts';
import type { SchoolCatalog } from '../../src/mongodb-shared/catalog.port.ts';
import { mongoSearchEngine, pipelineReads } from '../../src/search/mongodb/engines.ts';
import type { DerivedSearch, SearchedSchool } from '../../src/search/mongodb/search-fields.ts';
import { replacedIndexes, SEARCH_EXTENSION, SEARCH_INDEXES } from '../../src/search/mongodb/catalog-extension.ts';
import { searchReady } from '../../src/search/mongodb/setup.ts';
import { guarded } from '../../src/mongodb-shared/errors.ts';

describe('indexes of the search wing', () => {
  test('then the text index holds the tokens, without stemming or stop words, and documents of another version are found by an index', () => {
    expect(SEARCH_INDEXES).toEqual([
      {
        name: 'schools_tokens_text',
        key: { tokens: 'text' },
        default_language: 'none',
        language_override: 'textIndexLanguage',
      },
      { name: 'schools_search_version', key: { searchVersion: 1 } },
    ]);
    expect(SEARCH_EXTENSION.indexes).toBe(SEARCH_INDEXES);
  });

  test('when the schools hold a text index of another name, then the store is told to drop it first (a collection holds one), and nothing else', () => {
    expect(
      replacedIndexes([
        { name: '_id_', key: { _id: 1 } },
        // As the server lists a text index: its weights under _fts and _ftsx.
        { name: 'schools_texts_text', key: { _fts: 'text', _ftsx: 1 } },
        { name: 'schools_tokens_text', key: { _fts: 'text', _ftsx: 1 } },
        { name: 'schools_search_version', key: { searchVersion: 1 } },
        { name: 'by_name', key: { name: 1 } },
        { name: 'tokens_text_as_asked', key: { tokens: 'text' } },
      ]),
    ).toEqual(['schools_texts_text', 'tokens_text_as_asked']);
    expect(replacedIndexes([])).toEqual([]);
  });
});

describe('search pipelines when their index is missing', () => {
  test('when readiness asks, then the $text engine is ready exactly when the text index exists, and says how to create it', async () => {
    let outdated: unknown = null;
    const withIndexes = (names: string[]) =>
      ({
        listIndexes: () => ({ toArray: async () => names.map((name) => ({ name })) }),
        findOne: async () => outdated,
      }) as unknown as Collection<SearchedSchool>;
    const error: unknown = await searchReady(withIndexes(['_id_']), { kind: 'text' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(((error as Error).cause as Error).message).toContain('npx school-search indexes');
    await searchReady(withIndexes(['_id_', 'schools_tokens_text']), { kind: 'text' });
    // Documents of an earlier version have no tokens to find them by: not ready until rewritten.
    outdated = { _id: 'old' };
    const stale: unknown = await searchReady(withIndexes(['_id_', 'schools_tokens_text']), { kind: 'text' }).catch(
      (e: unknown) => e,
    );
    expect(stale).toBeInstanceOf(StoreUnavailableError);
    expect(((stale as Error).cause as Error).message).toContain('rewrite them with `npx school-search indexes`');
  });

  test('when readiness asks, then the Atlas engine is ready exactly when its index exists and is queryable', async () => {
    const withSearchIndexes = (indexes: Array<{ name: string; queryable: boolean; status: string }>) =>
      ({
        listSearchIndexes: () => ({ toArray: async () => indexes }),
        findOne: async () => null,
      }) as unknown as Collection<SearchedSchool>;
    const mode = { kind: 'atlas', index: 'schools_search' } as const;
    for (const [indexes, why] of [
      [[], 'does not exist'],
      [[{ name: 'schools_search', queryable: false, status: 'BUILDING' }], 'not queryable yet (status BUILDING)'],
    ] as const) {
      const error: unknown = await searchReady(withSearchIndexes([...indexes]), mode).catch((e: unknown) => e);
      expect(error, why).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message).toContain(why);
    }
    await searchReady(withSearchIndexes([{ name: 'schools_search', queryable: true, status: 'READY' }]), mode);
  });

  /**
   * The store's side of the port over a server whose aggregations fail as MongoDB's would (the
   * store hands on any error that is not "unavailable" as the driver threw it), its indexes ready.
   */
  function failing(code: number, errmsg: string): SchoolCatalog<DerivedSearch> {
    return {
      aggregate: () => guarded(async () => Promise.reject(new MongoServerError({ code, errmsg }))),
      catalogVersion: async () => '1',
      operationTimeLimitMs: 10_000,
      schools: {
        listIndexes: () => ({ toArray: async () => [{ name: 'schools_tokens_text' }] }),
        listSearchIndexes: (name: string) => ({ toArray: async () => [{ name, queryable: true, status: 'READY' }] }),
        findOne: async () => null,
      } as unknown as Collection<SearchedSchool>,
    };
  }
  const search = (catalog: SchoolCatalog<DerivedSearch>, kind: 'text' | 'atlas') =>
    mongoSearchEngine(catalog, kind === 'text' ? { kind } : { kind, index: 'schools_search' }).search({
      plan: planQuery('harvard'),
      offset: 0,
      limit: 10,
    });

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
      const error: unknown = await search(failing(code, errmsg), kind).catch((e: unknown) => e);
      expect(error, String(code)).toBeInstanceOf(StoreUnavailableError);
      expect(((error as Error).cause as Error).message, String(code)).toContain(advice);
    }
  });

  test('when the server refuses a $text pipeline for another reason, then that error is not disguised as unavailable', async () => {
    const error: unknown = await search(failing(2, 'BadValue'), 'text').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MongoServerError);
  });

  test("when Atlas Search refuses a query for another reason (the shared tiers' clause limit), then the search is unavailable (503), not a 500, and the cause holds the server's error (issue 43, L2)", async () => {
    const error: unknown = await search(
      failing(
        8,
        'PlanExecutor error during aggregation :: caused by :: Remote error from mongot :: maxClauseCount is set to 1024',
      ),
      'atlas',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    const cause = (error as Error).cause as Error;
    expect(cause.message).toContain('Atlas Search refused the query');
    expect((cause.cause as Error).message).toContain('maxClauseCount');
  });
});

describe('how the engines read the catalog', () => {
  test('when the engines run their pipelines, then Atlas Search stages are asked of the store as `local` reads and every other pipeline as the catalog is read for serving', async () => {
    const asked: Array<[string, string | undefined]> = [];
    const catalog: SchoolCatalog<DerivedSearch> = {
      aggregate: async (pipeline, reads) => {
        asked.push([Object.keys(pipeline[0]!)[0]!, reads]);
        return [];
      },
      catalogVersion: async () => '1',
      operationTimeLimitMs: 10_000,
      schools: {
        listIndexes: () => ({ toArray: async () => [{ name: 'schools_tokens_text' }] }),
        listSearchIndexes: (name: string) => ({ toArray: async () => [{ name, queryable: true, status: 'READY' }] }),
        findOne: async () => null,
      } as unknown as Collection<SearchedSchool>,
    };
    const query = { plan: planQuery('harvard yale'), offset: 0, limit: 10 };
    await mongoSearchEngine(catalog, { kind: 'atlas', index: 'schools_search' }).search(query);
    await mongoSearchEngine(catalog, { kind: 'text' }).search(query);
    const stages = new Set(asked.map(([stage]) => stage));
    expect(stages).toEqual(new Set(['$searchMeta', '$match']));
    for (const [stage, reads] of asked)
      expect([stage, reads]).toEqual([stage, stage === '$match' ? 'catalog' : 'local']);
    expect(pipelineReads([{ $search: {} }, { $limit: 1 }])).toBe('local');
    expect(pipelineReads([{ $searchMeta: {} }])).toBe('local');
    expect(pipelineReads([{ $match: { $text: { $search: 'txharvard' } } }])).toBe('catalog');
  });
});
