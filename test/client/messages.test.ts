// A request the official client refuses before sending must say what the server would: for each
// input, the server is asked with a raw fetch and the client with the same input, and the
// client's items (location, name, message) equal the server's 400 problem's `errors`.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { SchoolSearchClient, SchoolSearchValidationError } from '../../clients/typescript/src/index.ts';
import type { ProblemItem } from '../../generated/types.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const PASSWORD = 'correct-horse-battery';
let app: TestApp;
let token: string;
let client: SchoolSearchClient;
let sent = 0;

beforeAll(async () => {
  app = await startTestApp();
  const user = await app.userClient(`messages-${process.pid}@example.com`, PASSWORD);
  token = user.token;
  client = new SchoolSearchClient({
    baseUrl: app.baseUrl,
    email: user.email,
    password: PASSWORD,
    fetch: (input, init) => {
      const request = new Request(input, init);
      if (!new URL(request.url).pathname.startsWith('/v1/auth')) sent++;
      return fetch(request);
    },
  });
});

afterAll(async () => {
  await app?.close();
});

type Call = (c: SchoolSearchClient) => Promise<unknown>;

/** What the server answers to `method path` (with `body`): its problem's items. */
async function server(method: string, path: string, body?: unknown): Promise<ProblemItem[]> {
  const response = await fetch(`${app.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status).toBe(400);
  const problem = (await response.json()) as { type: string; errors: ProblemItem[] };
  expect(problem.type).toBe('/problems/validation-error');
  return problem.errors;
}

async function refused(call: Call): Promise<ProblemItem[]> {
  const before = sent;
  const error = await call(client).then(
    () => expect.unreachable('the client sent it'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SchoolSearchValidationError);
  expect(sent).toBe(before);
  const validation = error as SchoolSearchValidationError;
  expect(validation.type).toBe('/problems/validation-error');
  expect(validation.message).not.toMatch(/pattern|\\[sdS]|\[\^/);
  return validation.errors;
}

const byField = (items: ProblemItem[]) =>
  [...items].sort((a, b) => `${a.name} ${a.message}`.localeCompare(`${b.name} ${b.message}`));

const search = (query: string) => `/v1/fetchSchoolSearch?${query}`;
const long = 'a'.repeat(201);
const key = (body: Record<string, unknown>) => ({ name: 'form', origins: ['https://www.example.org'], ...body });

describe('client-side refusals in the server’s words', () => {
  test.each<[string, Call, string, string, unknown?]>([
    [
      'an unknown state code',
      (c) => c.searchSchools({ query: 'a', stateCode: 'XX' as never }),
      'GET',
      search('query=a&stateCode=XX'),
    ],
    [
      'an unknown lower-case state code',
      (c) => c.searchSchools({ query: 'a', stateCode: 'zz' as never }),
      'GET',
      search('query=a&stateCode=zz'),
    ],
    [
      'a three-letter state code',
      (c) => c.searchSchools({ query: 'a', stateCode: 'MAS' as never }),
      'GET',
      search('query=a&stateCode=MAS'),
    ],
    ['a limit above 25', (c) => c.searchSchools({ query: 'a', limit: 26 }), 'GET', search('query=a&limit=26')],
    ['a limit of 0', (c) => c.searchSchools({ query: 'a', limit: 0 }), 'GET', search('query=a&limit=0')],
    ['a fractional limit', (c) => c.searchSchools({ query: 'a', limit: 1.5 }), 'GET', search('query=a&limit=1.5')],
    ['a negative offset', (c) => c.searchSchools({ query: 'a', offset: -1 }), 'GET', search('query=a&offset=-1')],
    [
      'an offset past the guard',
      (c) => c.searchSchools({ query: 'a', offset: 10001 }),
      'GET',
      search('query=a&offset=10001'),
    ],
    ['an empty query', (c) => c.searchSchools({ query: '' }), 'GET', search('query=')],
    ['a blank query', (c) => c.searchSchools({ query: '   ' }), 'GET', search('query=%20%20%20')],
    ['a query of 201 characters', (c) => c.searchSchools({ query: long }), 'GET', search(`query=${long}`)],
    [
      'an unknown level',
      (c) => c.searchSchools({ query: 'a', level: 'college' as never }),
      'GET',
      search('query=a&level=college'),
    ],
    [
      'an unknown type',
      (c) => c.searchSchools({ query: 'a', type: 'magnet' as never }),
      'GET',
      search('query=a&type=magnet'),
    ],
    [
      'a near that is not a point',
      (c) => c.searchSchools({ query: 'a', near: 'cambridge' }),
      'GET',
      search('query=a&near=cambridge'),
    ],
    [
      'a radius of 0',
      (c) => c.searchSchools({ query: 'a', near: '1,2', radiusKm: 0 }),
      'GET',
      search('query=a&near=1,2&radius_km=0'),
    ],
    ['a school id that is not a UUID', (c) => c.getSchool('harvard'), 'GET', '/v1/schools/harvard'],
    ['usage over 0 days', (c) => c.fetchMyUsage({ days: 0 }), 'GET', '/v1/fetchMyUsage?days=0'],
    [
      'a key filter that is not a UUID',
      (c) => c.fetchMyRequests({ keyId: 'abc' }),
      'GET',
      '/v1/fetchMyRequests?key_id=abc',
    ],
    [
      'an origin with a path',
      (c) => c.createPublishableKey({ name: 'form', origins: ['https://www.example.org/'] }),
      'POST',
      '/v1/publishable-keys',
      key({ origins: ['https://www.example.org/'], current_password: PASSWORD }),
    ],
    [
      'an origin of another scheme',
      (c) => c.createPublishableKey({ name: 'form', origins: ['ftp://files.example.org'] }),
      'POST',
      '/v1/publishable-keys',
      key({ origins: ['ftp://files.example.org'], current_password: PASSWORD }),
    ],
    [
      'a bare * for an origin, an empty name and a lifetime too long',
      (c) => c.createPublishableKey({ name: '', origins: ['*'], expiresInDays: 4000 }),
      'POST',
      '/v1/publishable-keys',
      key({ name: '', origins: ['*'], expires_in_days: 4000, current_password: PASSWORD }),
    ],
    [
      'no origins and a budget of 0',
      (c) => c.createPublishableKey({ name: 'form', origins: [], searchesPerMinute: 0 }),
      'POST',
      '/v1/publishable-keys',
      key({ origins: [], searches_per_minute: 0, current_password: PASSWORD }),
    ],
    [
      'a blank new name',
      (c) => c.updateApiKey('3c9a1f2e-7b4d-4e6a-9f8b-1a2b3c4d5e6f', { name: ' ' }),
      'PATCH',
      '/v1/keys/3c9a1f2e-7b4d-4e6a-9f8b-1a2b3c4d5e6f',
      { name: ' ' },
    ],
  ])('when given %s, then the client refuses it with the server’s items', async (_, call, method, path, body) => {
    const fromServer = await server(method, path, body);

    const fromClient = await refused(call);

    expect(byField(fromClient)).toEqual(byField(fromServer));
  });
});
