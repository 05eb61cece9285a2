// The mock frontend teams run (`npm run mock`): Prism on the contract must answer every operation
// with a body the generated client accepts, and refuse what the real API refuses.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ZodType } from 'zod';
import * as sdk from '../../generated/sdk.gen.ts';
import * as schemas from '../../generated/zod.gen.ts';
import { SchoolSearchClient } from '../../clients/typescript/src/index.ts';
import { startTestApp } from '../support/app.ts';
import { loadContractOperations, type ContractOperation } from '../support/contract-operations.ts';
import { startPrism, type RunningPrism } from '../support/prism.ts';

const operations = loadContractOperations();
const secured = operations.filter((op) => op.secured);
const paged = operations.filter((op) => op.parameters.some((p) => p['name'] === 'limit' && p['in'] === 'query'));
const TOKEN = `ssk_${'A'.repeat(43)}`;

let staticMock: RunningPrism;
let dynamicMock: RunningPrism;

beforeAll(async () => {
  [staticMock, dynamicMock] = await Promise.all([startPrism(), startPrism(['-d', '--seed', 'school-search'])]);
}, 90_000);

afterAll(async () => {
  await Promise.all([staticMock?.stop(), dynamicMock?.stop()]);
});

function responseSchema(op: ContractOperation): ZodType {
  const name = `z${op.operationId[0]!.toUpperCase()}${op.operationId.slice(1)}Response`;
  const schema = (schemas as Record<string, unknown>)[name];
  if (!schema) throw new Error(`generated/zod.gen.ts has no ${name}`);
  return schema as ZodType;
}

function send(
  base: string,
  op: ContractOperation,
  init: { url?: string; token?: string | null; body?: unknown; headers?: Record<string, string> } = {},
) {
  const token = init.token === undefined ? (op.secured ? TOKEN : null) : init.token;
  const body = 'body' in init ? init.body : op.body;
  return fetch(base + (init.url ?? op.url), {
    method: op.method,
    headers: {
      ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/** The body as a client sees it: JSON for JSON media types, text otherwise, undefined when empty. */
async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  return /[/+]json\b/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}

function mediaType(response: Response): string | undefined {
  return response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
}

async function expectProblem(response: Response, status: number, type: string) {
  expect(response.status).toBe(status);
  expect(mediaType(response)).toBe('application/problem+json');
  const body = await bodyOf(response);
  expect(schemas.zProblem.safeParse(body).error).toBeUndefined();
  expect(body).toMatchObject({ type, status });
}

test('the operations derived from the contract are exactly those of the generated SDK', () => {
  expect(operations.map((op) => op.operationId).sort()).toEqual(Object.keys(sdk).sort());
});

/** An example as the mock serves it: its image links on the mock's own address (scripts/mock/main.ts). */
function asServed(value: unknown, baseUrl: string): unknown {
  return value === undefined
    ? value
    : JSON.parse(JSON.stringify(value).replaceAll('http://localhost:3000/', `${baseUrl.replace(/\/$/, '')}/`));
}

describe('static mode (npm run mock)', () => {
  test("when a search example is served, then its image links point at the mock's own port, and the image is there", async () => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;
    const body = (await bodyOf(await send(staticMock.baseUrl, op))) as {
      requestresult: { schools: { image_url: string }[] };
    };
    const link = body.requestresult.schools[0]!.image_url;
    expect(link.startsWith(`${staticMock.baseUrl.replace(/\/$/, '')}/images/schools/`)).toBe(true);
    const image = await fetch(link);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  test.each(operations)('$operationId: a valid request gets its 2xx with a contract-valid body', async (op) => {
    const response = await send(staticMock.baseUrl, op);

    expect(response.status).toBe(op.success.status);
    expect(mediaType(response)).toBe(op.success.contentType);
    const body = await bodyOf(response);
    expect(responseSchema(op).safeParse(body).error).toBeUndefined();
    if (op.success.contentType === 'image/svg+xml') expect(body).toMatch(/^<svg[\s>]/);
    if (op.success.examples.length > 0) expect(body).toEqual(asServed(op.success.examples[0]![1], staticMock.baseUrl));
  });

  const allExamples = operations.flatMap((op) =>
    [op.success, ...op.errors].flatMap((r) =>
      r.examples.map(([name, value]) => ({
        op,
        id: op.operationId,
        status: r.status,
        contentType: r.contentType,
        name,
        value,
      })),
    ),
  );

  test.each(allExamples)(
    '$id: the $status example "$name" is served on request and is valid',
    async ({ op, status, contentType, name, value }) => {
      const response = await send(staticMock.baseUrl, op, { headers: { Prefer: `code=${status}, example=${name}` } });

      expect(response.status).toBe(status);
      expect(mediaType(response)).toBe(contentType);
      const body = await bodyOf(response);
      expect(body).toEqual(asServed(value, staticMock.baseUrl));
      const schema = status < 300 ? responseSchema(op) : schemas.zProblem;
      expect(schema.safeParse(body).error).toBeUndefined();
    },
  );

  test.each(secured)('$operationId: without a token, Prism answers the 401 problem', async (op) => {
    const response = await send(staticMock.baseUrl, op, { token: null });

    await expectProblem(response, 401, '/problems/unauthorized');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  test('any bearer value is accepted: Prism checks that credentials are present, not that they are valid', async () => {
    const op = operations.find((o) => o.operationId === 'fetchMyData')!;

    const response = await send(staticMock.baseUrl, op, { token: 'not-a-real-token' });

    expect(response.status).toBe(200);
  });

  test('the official client logs in, searches and pages against the mock, its validators on', async () => {
    const client = new SchoolSearchClient({
      baseUrl: staticMock.baseUrl,
      email: 'demo@example.com',
      password: 'demo-password-123',
    });

    const page = await client.searchSchools({ query: 'harvard' });
    const all = [];
    for await (const school of client.searchAll({ query: 'harvard' })) all.push(school);

    expect(page.requestresult.schools[0]?.schoolname).toBe('Harvard University');
    expect(all).toEqual(page.requestresult.schools);
    expect((await client.fetchMyData()).email).toBe('demo@example.com');
  });

  test("the official client's filtered search and getSchool work against the mock: the found school's record", async () => {
    const client = new SchoolSearchClient({ baseUrl: staticMock.baseUrl, apiKey: TOKEN });

    const page = await client.searchSchools({
      query: 'harvard',
      level: ['postsecondary'],
      type: 'private',
      near: { latitude: 42.3736, longitude: -71.1097 },
      radiusKm: 25,
    });
    const record = await client.getSchool(page.requestresult.schools[0]!.schoolid);

    expect(record).toMatchObject({
      schoolid: page.requestresult.schools[0]!.schoolid,
      schoolname: 'Harvard University',
    });
    expect(record.source_ids).toEqual(['ipeds:166027']);
  });

  test.each(paged)('$operationId: limit=26 is a 400 problem, not a 422', async (op) => {
    const url = new URL(op.url, 'http://x');
    url.searchParams.set('limit', '26');

    const response = await send(staticMock.baseUrl, op, { url: url.pathname + url.search });

    await expectProblem(response, 400, '/problems/validation-error');
  });

  test('createToken without a password is a 400 problem', async () => {
    const op = operations.find((o) => o.operationId === 'createToken')!;

    const response = await send(staticMock.baseUrl, op, { body: { email: 'demo@example.com' } });

    await expectProblem(response, 400, '/problems/validation-error');
  });

  test.each([
    ['a level the contract does not have', 'level=college'],
    ['a type the contract does not have', 'type=catholic'],
    ['a near that is not a point', 'near=cambridge'],
    ['a radius of 0', 'near=42.3736,-71.1097&radius_km=0'],
  ])('fetchSchoolSearch with %s is a 400 problem, as the API answers', async (_, parameters) => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;

    const response = await send(staticMock.baseUrl, op, { url: `/v1/fetchSchoolSearch?query=harvard&${parameters}` });

    await expectProblem(response, 400, '/problems/validation-error');
  });

  test('getSchool with an id that is not a UUID is a 400 problem', async () => {
    const op = operations.find((o) => o.operationId === 'getSchool')!;

    const response = await send(staticMock.baseUrl, op, { url: '/v1/schools/harvard' });

    await expectProblem(response, 400, '/problems/validation-error');
  });

  test('revokeMyToken with a token id that is not a UUID is a 400 problem', async () => {
    const op = operations.find((o) => o.operationId === 'revokeMyToken')!;

    const response = await send(staticMock.baseUrl, op, { url: '/v1/tokens/not-a-uuid' });

    await expectProblem(response, 400, '/problems/validation-error');
  });
});

describe('errors on request (Prefer) and a true default', () => {
  test('an invalid request gets the generic 400, true whatever was wrong: it names no parameter', async () => {
    const op = operations.find((o) => o.operationId === 'createToken')!;

    const response = await send(staticMock.baseUrl, op, { body: { email: 'demo@example.com' } });

    const body = (await bodyOf(response)) as { detail: string; errors?: unknown };
    expect(response.status).toBe(400);
    expect(body.detail).toBe('The request does not match the API contract; `errors` lists what is wrong and where.');
    expect(body.errors).toBeUndefined();
  });

  test('Prefer: code=400, example=limit answers the real 400 for a page too large', async () => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;

    const response = await send(staticMock.baseUrl, op, { headers: { Prefer: 'code=400, example=limit' } });

    const body = (await bodyOf(response)) as { errors: Array<{ location: string; name: string }> };
    expect(response.status).toBe(400);
    expect(body.errors).toEqual([{ location: 'query', name: 'limit', message: 'must be <= 25' }]);
  });

  test('Prefer: example=nearMe answers a search near a point: the nearest of equal matches first, each with distance_km', async () => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;

    const response = await send(staticMock.baseUrl, op, {
      url: '/v1/fetchSchoolSearch?query=lincoln%20elementary&near=42.3736,-71.1097',
      headers: { Prefer: 'example=nearMe' },
    });

    const body = schemas.zFetchSchoolSearchResponse.parse(await bodyOf(response));
    const schools = body.requestresult.schools;
    expect(schools.length).toBeGreaterThan(1);
    expect(new Set(schools.map((s) => s.similarity_score)).size).toBe(1);
    const distances = schools.map((s) => s.distance_km!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  test('Prefer: code=404 on getSchool answers the unknown-school problem', async () => {
    const op = operations.find((o) => o.operationId === 'getSchool')!;

    const response = await send(staticMock.baseUrl, op, { headers: { Prefer: 'code=404' } });

    const copy = response.clone();
    await expectProblem(response, 404, '/problems/not-found');
    expect(((await bodyOf(copy)) as { detail: string }).detail).toBe('There is no such school.');
  });

  test('Prefer: code=400, example=radiusKm answers the real 400 for radius_km without near', async () => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;

    const response = await send(staticMock.baseUrl, op, { headers: { Prefer: 'code=400, example=radiusKm' } });

    const body = (await bodyOf(response)) as { errors: Array<{ location: string; name: string }> };
    expect(response.status).toBe(400);
    expect(body.errors).toEqual([
      { location: 'query', name: 'radius_km', message: 'needs near (a point to measure from)' },
    ]);
  });

  test('Prefer: code=429 answers the rate-limited problem with Retry-After', async () => {
    const op = operations.find((o) => o.operationId === 'fetchSchoolSearch')!;

    const response = await send(staticMock.baseUrl, op, { headers: { Prefer: 'code=429' } });

    await expectProblem(response, 429, '/problems/rate-limited');
  });
});

describe('CORS: the same as the real API', () => {
  const ORIGIN = 'https://frontend.example';
  const CORS_HEADERS = [
    'access-control-allow-origin',
    'access-control-allow-methods',
    'access-control-allow-headers',
    'access-control-expose-headers',
    'access-control-allow-credentials',
    'access-control-max-age',
  ];
  const cors = (response: Response) =>
    Object.fromEntries(CORS_HEADERS.map((name) => [name, response.headers.get(name)]));

  test("a preflight and a cross-origin search get the API's CORS headers from the mock", async () => {
    const api = await startTestApp();
    try {
      const preflight = (base: string) =>
        fetch(`${base}/v1/fetchSchoolSearch?query=harvard`, {
          method: 'OPTIONS',
          headers: {
            Origin: ORIGIN,
            'Access-Control-Request-Method': 'GET',
            'Access-Control-Request-Headers': 'authorization',
          },
        });
      const search = (base: string, token: string) =>
        fetch(`${base}/v1/fetchSchoolSearch?query=harvard`, {
          headers: { Origin: ORIGIN, Authorization: `Bearer ${token}` },
        });
      const user = await api.userClient();

      const [mockPreflight, apiPreflight] = [await preflight(staticMock.baseUrl), await preflight(api.baseUrl)];
      const [mockSearch, apiSearch] = [await search(staticMock.baseUrl, TOKEN), await search(api.baseUrl, user.token)];

      expect(mockPreflight.status).toBe(apiPreflight.status);
      expect(cors(mockPreflight)).toEqual(cors(apiPreflight));
      expect(cors(mockSearch)).toEqual(cors(apiSearch));
      expect(cors(mockSearch)['access-control-expose-headers']).toContain('X-Request-Id');
      expect(cors(mockSearch)['access-control-allow-credentials']).toBeNull();
    } finally {
      await api.close();
    }
  });
});

describe('dynamic mode (npm run mock -- -d)', () => {
  // Generated bodies follow the contract's JSON Schema, but json-schema-faker's UUIDs ignore the
  // version/variant bits that zod 4's z.uuid() insists on (and its `uri`s are not always WHATWG
  // URLs), so the generated client's validator rejects some of them. Those two formats are the
  // only issues tolerated here; every other constraint must hold.
  const FAKER_FORMATS = new Set(['uuid', 'url']);

  test.each(operations)('$operationId: a valid request gets its 2xx with a schema-shaped body', async (op) => {
    const response = await send(dynamicMock.baseUrl, op);

    expect(response.status).toBe(op.success.status);
    expect(mediaType(response)).toBe(op.success.contentType);
    const body = await bodyOf(response);
    const issues = responseSchema(op).safeParse(body).error?.issues ?? [];
    const unexpected = issues.filter((issue) => !(issue.code === 'invalid_format' && FAKER_FORMATS.has(issue.format)));
    expect(unexpected).toEqual([]);
  });
});
