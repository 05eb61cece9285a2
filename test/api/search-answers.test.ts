// A search asked again is answered with the answer kept for it (src/domain/search/kept-answers.ts):
// the engine's answer byte for byte, metered like every search, and never the answer of a catalog
// that changed since. The app runs as deployed, without response validation, so that the kept
// text is sent as it is; the bodies are checked against the contract's schema here instead.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyRequests } from '../../generated/sdk.gen.ts';
import { zSchoolSearchResponse } from '../../generated/zod.gen.ts';
import { SearchService } from '../../src/domain/search/search.service.ts';
import type { SchoolSearchResponse } from '../../generated/types.gen.ts';
import type { SearchRequest } from '../../src/domain/search/engine.port.ts';
import type { ManagedEngine } from '../../src/search/managed.engine.ts';
import { MemorySearchEngine } from '../../src/search/memory/memory.engine.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const SCHOOLS = [
  { schoolname: 'Zephyr Academy', city: 'Boston', stateprovince: 'MA' },
  { schoolname: 'Quillfeather College', city: 'Austin', stateprovince: 'TX' },
  { schoolname: 'Quillfeather Middle School', city: 'Dallas', stateprovince: 'TX' },
] as const;

/** The engine's searches, counted: a kept answer asks it nothing. */
function countSearches(app: TestApp): { readonly count: number } {
  const engine = app.services.engine;
  const search = engine.search.bind(engine);
  const counter = { count: 0 };
  engine.search = (query) => {
    counter.count++;
    return search(query);
  };
  return counter;
}

/** A search as it comes over the wire: the status, the content type and the body's exact text. `more`: other parameters. */
async function searchText(app: TestApp, token: string, query: string, more = '') {
  const response = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=${encodeURIComponent(query)}${more}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    body: zSchoolSearchResponse.parse(JSON.parse(text)) as SchoolSearchResponse,
  };
}

describe('answers given again', () => {
  let app: TestApp;
  let user: Awaited<ReturnType<TestApp['userClient']>>;
  let searches: { readonly count: number };

  beforeAll(async () => {
    app = await startTestApp({ validateResponses: false });
    await app.seed([...SCHOOLS]);
    user = await app.userClient();
    searches = countSearches(app);
  });
  afterAll(() => app?.close());

  test('when a search is asked a second time, then the engine answers it again, and its answer is kept from then on', async () => {
    const before = searches.count;
    await searchText(app, user.token, 'zephyr academy boston');
    await searchText(app, user.token, 'zephyr academy boston');
    expect(searches.count - before).toBe(2);
    await searchText(app, user.token, 'zephyr academy boston');
    expect(searches.count - before).toBe(2);
  });

  test('when the same search is asked again, then the answer is the one kept, with a record of its own, and every one is metered', async () => {
    const before = searches.count;
    const first = await searchText(app, user.token, 'quillfeather');
    await searchText(app, user.token, 'quillfeather');
    const second = await searchText(app, user.token, 'quillfeather');

    expect(searches.count - before).toBe(2);
    expect(second.status).toBe(200);
    expect(second.contentType).toBe(first.contentType);
    expect(second.contentType).toBe('application/json; charset=utf-8');
    expect(first.body.requestresult.total_count).toBe(2);
    // The page is the same text; only the record differs.
    const resultText = (t: string) => t.slice(t.indexOf('"requestresult":'));
    expect(resultText(second.text)).toBe(resultText(first.text));
    expect(second.body.apirequest.tid).not.toBe(first.body.apirequest.tid);
    expect(second.body.apirequest.trequestmade).toBe('search_schools:quillfeather');

    const history = await fetchMyRequests({ client: user.client, query: { limit: 25 } });
    expect(history.data!.requests.map((r) => r.tid)).toEqual(
      expect.arrayContaining([first.body.apirequest.tid, second.body.apirequest.tid]),
    );
  });

  test('when a kept answer is asked for with HEAD, then the headers are those of the GET, without a body', async () => {
    for (const _ of [1, 2]) await searchText(app, user.token, 'quillfeather middle');
    const get = await searchText(app, user.token, 'quillfeather middle');
    const head = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=quillfeather%20middle`, {
      method: 'HEAD',
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.contentType);
    // Its own record: the same length, since only the ids and times differ and they are of fixed width.
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(get.text));
    expect(await head.text()).toBe('');
  });

  test('when a search differs in any parameter, then it is answered by the engine', async () => {
    await searchText(app, user.token, 'zephyr');
    await searchText(app, user.token, 'zephyr');
    const before = searches.count;
    const variants = [
      ['zephyr', '&limit=1'],
      ['zephyr', '&offset=1'],
      ['zephyr', '&stateCode=MA'],
      ['zephyr', '&type=private'],
      ['zephyr', '&level=high'],
      ['zephyr', '&near=42.36,-71.06'],
      ['zephyr', '&near=42.36,-71.06&radius_km=50'],
      ['Zephyr', ''],
    ] as const;
    for (const [query, more] of variants) expect((await searchText(app, user.token, query, more)).status).toBe(200);
    expect(searches.count - before).toBe(variants.length);
  });

  test('when the catalog changes between two searches, then the second is answered from the changed catalog', async () => {
    await searchText(app, user.token, 'quillfeather college');
    const first = await searchText(app, user.token, 'quillfeather college');
    await app.seed([{ schoolname: 'Quillfeather College of Art', city: 'Houston', stateprovince: 'TX' }]);
    const second = await searchText(app, user.token, 'quillfeather college');
    expect(first.body.requestresult.schools.map((s) => s.schoolname)).not.toContain('Quillfeather College of Art');
    expect(second.body.requestresult.schools.map((s) => s.schoolname)).toContain('Quillfeather College of Art');
  });

  test("when a school's fields change with the catalog, then a search not asked before shows them as they are now", async () => {
    const zephyr = (await searchText(app, user.token, 'zephyr')).body.requestresult.schools[0]!;
    expect(zephyr.address).toBeUndefined();
    await app.seed([{ ...SCHOOLS[0], schoolid: zephyr.schoolid, address: '1 Harbor Way', postal_code: '02110' }]);
    const now = (await searchText(app, user.token, 'academy zephyr')).body.requestresult.schools[0]!;
    expect(now).toMatchObject({ schoolid: zephyr.schoolid, address: '1 Harbor Way', postal_code: '02110' });
  });

  test("when the store cannot take a kept answer's record, then the search fails as any search would, and nothing is metered", async () => {
    const other = await app.userClient();
    await searchText(app, other.token, 'zephyr academy');
    await searchText(app, other.token, 'zephyr academy');
    const requests = app.services.store.requests;
    const append = requests.append.bind(requests);
    requests.append = async () => {
      throw new Error('the disk is on fire');
    };
    try {
      const response = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=zephyr%20academy`, {
        headers: { Authorization: `Bearer ${other.token}` },
      });
      expect(response.status).toBe(500);
      expect(((await response.json()) as { type: string }).type).toMatch(/\/internal-error$/);
    } finally {
      requests.append = append;
    }
    expect((await fetchMyRequests({ client: other.client })).data!.total_count).toBe(2);
  });
});

describe("an engine without editions (as MongoDB's)", () => {
  let app: TestApp;
  let calls = 0;

  beforeAll(async () => {
    app = await startTestApp({
      validateResponses: false,
      engine: (store) => {
        const inner = new MemorySearchEngine(store.schools, { refreshMs: 0 });
        const engine: ManagedEngine = {
          search: (query) => {
            calls++;
            return inner.search(query);
          },
          ready: () => inner.ready(),
          start: () => inner.start(),
          refresh: () => inner.refresh(),
          close: () => inner.close(),
        };
        return engine;
      },
    });
    await app.seed([...SCHOOLS]);
  });
  afterAll(() => app?.close());

  test('when the same search is asked three times, then the engine answers each', async () => {
    const { token } = await app.userClient();
    const before = calls;
    const first = await searchText(app, token, 'zephyr');
    await searchText(app, token, 'zephyr');
    const second = await searchText(app, token, 'zephyr');
    expect(calls - before).toBe(3);
    expect(second.body.requestresult).toEqual(first.body.requestresult);
  });
});

describe('the answers kept', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ validateResponses: false });
    await app.seed([...SCHOOLS]);
  });
  afterAll(() => app?.close());

  const input = (query: string): SearchRequest => ({ query, offset: 0, limit: 25 });

  test('when more answers alike come than the budget holds, then the earliest asked go and the bytes stay within it', async () => {
    const { userId } = await app.userClient();
    const principal = {
      userId,
      tokenId: 'unused',
      kind: 'session' as const,
      passwordVersion: 0,
      authenticatedAt: new Date(),
    };
    const searches = countSearches(app);
    const search = new SearchService({
      engine: app.services.engine,
      requests: app.services.store.requests,
      clock: app.clock,
      answerBytes: 16 * 1024,
    });
    // An answer of about 300 bytes, as the HTTP layer's JSON of a page would be.
    const render = (outcome: { total: number }) => `${outcome.total}`.padEnd(300, ' ');
    const words = Array.from({ length: 60 }, (_, i) => `quillfeather ${i}`);
    for (const word of words) for (const _ of [1, 2]) await search.answer(principal, input(word), render);
    expect(search.keptBytes).toBeGreaterThan(0);
    expect(search.keptBytes).toBeLessThanOrEqual(16 * 1024);

    const before = searches.count;
    await search.answer(principal, input(words.at(-1)!), render);
    expect(searches.count - before).toBe(0);
    await search.answer(principal, input(words[0]!), render);
    expect(searches.count - before).toBe(1);
  });
});
