// The official client with publishable keys, against the real app: making and re-scoping one with
// a password client, then a page's client holding only the key. A page's browser sends `Origin`;
// here the client's fetch does, and records what went on the wire.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  SchoolSearchApiError,
  SchoolSearchClient,
  type SchoolSearchClientOptions,
} from '../../clients/typescript/src/index.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const PAGE = 'https://www.example.org';
let app: TestApp;
let users = 0;
let schoolId: string;

beforeAll(async () => {
  app = await startTestApp();
  const [seeded] = await app.seed([
    {
      schoolname: 'Quillfeather Academy',
      city: 'Boise',
      stateprovince: 'ID',
      address: '1 Quill Road',
      postal_code: '83702',
      latitude: 43.615,
      longitude: -116.2023,
      lowest_grade: '9',
      highest_grade: '12',
      type: 'public',
      sourceKey: 'odef:test:quillfeather',
    },
  ]);
  schoolId = seeded!.id;
});

afterAll(async () => {
  await app?.close();
});

interface Sent {
  method: string;
  path: string;
  key: string | null;
  authorization: string | null;
}

/** A fetch that sends `origin` as a browser would, and records each request's credentials. */
function page(origin: string | undefined) {
  const sent: Sent[] = [];
  const pageFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    if (origin) request.headers.set('Origin', origin);
    const url = new URL(request.url);
    sent.push({
      method: request.method,
      path: url.pathname,
      key: url.searchParams.get('key'),
      authorization: request.headers.get('authorization'),
    });
    return fetch(request);
  };
  return { fetch: pageFetch, sent };
}

async function owner() {
  const email = `publishable${++users}-${process.pid}@example.com`;
  const password = 'correct-horse-battery';
  await app.services.auth.createUser(email, password);
  return new SchoolSearchClient({ baseUrl: app.baseUrl, email, password });
}

async function keyOf(client: SchoolSearchClient, origins = [PAGE]) {
  return client.createPublishableKey({ name: 'sign-up form', origins, visitorSearchesPerMinute: 30 });
}

function pageClient(key: string, origin: string | undefined = PAGE, extra: Partial<SchoolSearchClientOptions> = {}) {
  const wire = page(origin);
  const client = new SchoolSearchClient({
    baseUrl: app.baseUrl,
    publishableKey: key,
    fetch: wire.fetch,
    ...extra,
  } as SchoolSearchClientOptions);
  return { client, wire };
}

async function expectApiError(promise: Promise<unknown>, status: number, type: string): Promise<SchoolSearchApiError> {
  const error = await promise.then(
    () => expect.unreachable('the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SchoolSearchApiError);
  const apiError = error as SchoolSearchApiError;
  expect(apiError.status).toBe(status);
  expect(apiError.type).toBe(type);
  return apiError;
}

describe('publishable keys', () => {
  test('when created, then the answer is an spk_ key with its origins and budgets, and the list shows its type', async () => {
    const api = await owner();

    const key = await keyOf(api, [PAGE, 'https://*.example.org']);

    expect(key.token).toMatch(/^spk_/);
    expect(key.key_type).toBe('publishable');
    expect(key.publishable).toMatchObject({
      origins: [PAGE, 'https://*.example.org'],
      visitor_searches_per_minute: 30,
    });
    const listed = (await api.listTokens()).tokens.find((t) => t.token_id === key.token_id);
    expect(listed).toMatchObject({ kind: 'key', key_type: 'publishable', name: 'sign-up form' });
    expect(listed?.publishable?.origins).toEqual([PAGE, 'https://*.example.org']);
  });

  test('when a page searches with it, then the key goes as the key parameter with no Authorization header', async () => {
    const { token } = await keyOf(await owner());
    const { client, wire } = pageClient(token);

    const found = await client.searchSchools({ query: 'quillfeather' });
    const record = await client.getSchool(schoolId);

    expect(found.requestresult.schools.map((s) => s.schoolname)).toEqual(['Quillfeather Academy']);
    expect(record.schoolname).toBe('Quillfeather Academy');
    expect(wire.sent).toEqual([
      { method: 'GET', path: '/v1/fetchSchoolSearch', key: token, authorization: null },
      { method: 'GET', path: `/v1/schools/${schoolId}`, key: token, authorization: null },
    ]);
  });

  test('when publishableKeyIn is header, then the key goes as a bearer token and not in the URL', async () => {
    const { token } = await keyOf(await owner());
    const { client, wire } = pageClient(token, PAGE, { publishableKeyIn: 'header' });

    await client.searchSchools({ query: 'quillfeather' });

    expect(wire.sent).toEqual([
      { method: 'GET', path: '/v1/fetchSchoolSearch', key: null, authorization: `Bearer ${token}` },
    ]);
  });

  test.each([
    ['fetchMyData', (c: SchoolSearchClient) => c.fetchMyData()],
    ['listTokens', (c: SchoolSearchClient) => c.listTokens()],
    ['fetchMyUsage', (c: SchoolSearchClient) => c.fetchMyUsage()],
  ])(
    'when a publishable-key client calls %s, then it is the server’s 403 publishable-key-not-allowed',
    async (_, call) => {
      const { token } = await keyOf(await owner());
      const { client } = pageClient(token);

      const error = await expectApiError(call(client), 403, '/problems/publishable-key-not-allowed');

      expect(error.requestId).toEqual(expect.any(String));
    },
  );

  test('when the page is not one of its origins, then a 403 origin-not-allowed', async () => {
    const { token } = await keyOf(await owner());
    const { client } = pageClient(token, 'https://elsewhere.example.com');

    await expectApiError(client.searchSchools({ query: 'quillfeather' }), 403, '/problems/origin-not-allowed');
  });

  test('when re-scoped by updateApiKey, then the new name and origins hold and the old page is refused', async () => {
    const api = await owner();
    const key = await keyOf(api);

    const updated = await api.updateApiKey(key.token_id, {
      name: 'apply form',
      origins: ['https://apply.example.org'],
      searchesPerMinute: 100,
    });

    expect(updated).toMatchObject({ name: 'apply form', key_type: 'publishable' });
    expect(updated.publishable).toMatchObject({ origins: ['https://apply.example.org'], searches_per_minute: 100 });
    await expectApiError(
      pageClient(key.token).client.searchSchools({ query: 'q' }),
      403,
      '/problems/origin-not-allowed',
    );
    await pageClient(key.token, 'https://apply.example.org').client.searchSchools({ query: 'q' });
  });

  test('when a secret key is given origins, then a 400 naming origins, and the key is unchanged', async () => {
    const api = await owner();
    const secret = await api.createApiKey({ name: 'nightly sync' });

    const error = await expectApiError(
      api.updateApiKey(secret.token_id, { name: 'renamed', origins: [PAGE] }),
      400,
      '/problems/validation-error',
    );

    expect(error.errors.map((e) => e.name)).toEqual(['/origins']);
    const listed = (await api.listTokens()).tokens.find((t) => t.token_id === secret.token_id);
    expect(listed).toMatchObject({ name: 'nightly sync', key_type: 'secret' });
    expect(listed?.publishable).toBeUndefined();
  });

  test('when the owner reads history and usage by key, then only that key’s searches, split by key and by origin', async () => {
    const api = await owner();
    const key = await keyOf(api);
    await pageClient(key.token).client.searchSchools({ query: 'quillfeather' });
    await pageClient(key.token).client.searchSchools({ query: 'academy' });
    await api.searchSchools({ query: 'quillfeather' });

    const history = await api.fetchMyRequests({ keyId: key.token_id });
    const usage = await api.fetchMyUsage({ days: 1 });
    const ofKey = await api.fetchMyUsage({ days: 1, keyId: key.token_id });

    expect(history.total_count).toBe(2);
    expect(history.requests.map((r) => [r.key_id, r.origin])).toEqual([
      [key.token_id, PAGE],
      [key.token_id, PAGE],
    ]);
    expect(usage.by_key).toEqual(
      expect.arrayContaining([
        { key_id: key.token_id, request_count: 2, total_cost: expect.any(Number) },
        { key_id: null, request_count: 1, total_cost: expect.any(Number) },
      ]),
    );
    expect(usage.by_origin).toEqual(
      expect.arrayContaining([{ origin: PAGE, request_count: 2, total_cost: expect.any(Number) }]),
    );
    expect(ofKey.days.reduce((sum, day) => sum + day.request_count, 0)).toBe(2);
    const all = [];
    for await (const record of api.allMyRequests({ keyId: key.token_id })) all.push(record.key_id);
    expect(all).toEqual([key.token_id, key.token_id]);
  });

  test('when the key is not a publishable one, then the constructor refuses it', () => {
    expect(() => new SchoolSearchClient({ baseUrl: app.baseUrl, publishableKey: 'ssk_secret' })).toThrow(TypeError);
    expect(
      () =>
        new SchoolSearchClient({
          baseUrl: app.baseUrl,
          publishableKey: 'spk_x',
          apiKey: 'ssk_y',
        } as unknown as SchoolSearchClientOptions),
    ).toThrow(TypeError);
  });
});
