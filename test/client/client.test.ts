// The official client against the real app: what it does with tokens is only observable on the
// wire, so every client here gets a fetch that records each request it sends.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ZodError } from 'zod';
import { SchoolSearchApiError, SchoolSearchClient, type SchoolSearchClientOptions } from '../../src/client/index.ts';
import { startTestApp, TestClock, type TestApp } from '../support/app.ts';

const TTL = 600;
const RENEW_BEFORE = 60;

interface Sent {
  method: string;
  path: string;
  search: string;
  bearer: string | undefined;
  status: number;
}

/** A fetch that records what it sends; `before` may act on the server before a request arrives. */
function recorder(before?: (request: Request, path: string) => Promise<void>) {
  const sent: Sent[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    await before?.(request, url.pathname);
    const response = await fetch(request);
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '');
    sent.push({ method: request.method, path: url.pathname, search: url.search, bearer, status: response.status });
    return response;
  };
  const count = (method: string, path: string) => sent.filter((s) => s.method === method && s.path === path).length;
  return {
    fetch: recordingFetch,
    sent,
    logins: () => count('POST', '/v1/auth'),
    rotations: () => count('POST', '/v1/auth/rotate'),
    to: (path: string) => sent.filter((s) => s.path === path),
  };
}

let app: TestApp;
let users = 0;

beforeAll(async () => {
  app = await startTestApp({ tokenTtlSeconds: TTL });
});

afterAll(async () => {
  await app?.close();
});

async function newUser() {
  const email = `client${++users}-${process.pid}@example.com`;
  const password = 'correct-horse-battery';
  await app.services.auth.createUser(email, password);
  return { email, password };
}

async function credentialClient(extra: Partial<SchoolSearchClientOptions> = {}, wire = recorder()) {
  const user = await newUser();
  const clock = new TestClock();
  const client = new SchoolSearchClient({
    baseUrl: app.baseUrl,
    ...user,
    fetch: wire.fetch,
    clock,
    renewBeforeSeconds: RENEW_BEFORE,
    ...extra,
  } as SchoolSearchClientOptions);
  return { client, wire, clock, user };
}

async function revokeOnServer(token: string) {
  await app.services.auth.revokeCurrent(await app.services.auth.authenticate(token));
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
  expect(apiError.requestId).toEqual(expect.any(String));
  return apiError;
}

describe('token handling with credentials', () => {
  test('when created, then nothing is sent until the first call, which logs in', async () => {
    const { client, wire } = await credentialClient();
    expect(wire.sent).toHaveLength(0);

    await client.fetchMyData();

    expect(wire.sent.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /v1/auth', 'GET /v1/fetchMyData']);
  });

  test('when called repeatedly, then one login and the same token serve every call', async () => {
    const { client, wire } = await credentialClient();

    await client.fetchMyData();
    await client.searchSchools({ query: 'anything' });
    await client.fetchMyRequests({ limit: 5 });
    expect((await client.fetchMyUsage({ days: 2 })).days).toHaveLength(2);
    const account = await client.fetchMyData();

    expect(wire.logins()).toBe(1);
    expect(account.active_tokens).toBe(1);
    const tokens = new Set(wire.sent.filter((s) => s.path !== '/v1/auth').map((s) => s.bearer));
    expect(tokens.size).toBe(1);
  });

  test('when the whole history is walked, then allMyRequests yields every record once, newest first, page by page by cursor', async () => {
    const { client, wire } = await credentialClient();
    const tids: string[] = [];
    for (let i = 0; i < 27; i++) tids.push((await client.searchSchools({ query: `walk ${i}` })).apirequest.tid);
    const walked: string[] = [];
    for await (const record of client.allMyRequests()) walked.push(record.tid);
    expect(walked).toEqual(tids.reverse());
    const pages = wire.to('/v1/fetchMyRequests');
    expect(pages).toHaveLength(2);
    expect(pages[1]?.search).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
  });

  test('when searching, then the token goes in the Authorization header, never in the URL', async () => {
    const { client, wire } = await credentialClient();

    await client.searchSchools({ query: 'anything', stateCode: 'MA', offset: 0, limit: 10 });

    const [search] = wire.to('/v1/fetchSchoolSearch');
    expect(search?.bearer).toMatch(/^ssk_/);
    expect(search?.search).not.toContain('tokenID');
  });

  test('when concurrent first calls arrive, then exactly one login serves them all', async () => {
    const { client, wire } = await credentialClient();

    await Promise.all([
      client.fetchMyData(),
      client.fetchMyData(),
      client.searchSchools({ query: 'a' }),
      client.fetchMyRequests(),
      client.listTokens(),
    ]);

    expect(wire.logins()).toBe(1);
    expect(new Set(wire.sent.filter((s) => s.path !== '/v1/auth').map((s) => s.bearer)).size).toBe(1);
  });

  test('when the renewal margin is reached, then the token is rotated once and the old one is revoked', async () => {
    const { client, wire, clock } = await credentialClient();
    await client.fetchMyData();
    const first = wire.to('/v1/fetchMyData')[0]!.bearer!;

    // Just before the margin: still the same token.
    clock.advance(TTL - RENEW_BEFORE - 10);
    app.clock.advance(TTL - RENEW_BEFORE - 10);
    await client.fetchMyData();
    expect(wire.rotations()).toBe(0);

    clock.advance(20);
    app.clock.advance(20);
    await Promise.all([client.fetchMyData(), client.fetchMyData(), client.listTokens()]);

    expect(wire.rotations()).toBe(1);
    expect(wire.logins()).toBe(1);
    const rotation = wire.to('/v1/auth/rotate')[0]!;
    expect(rotation.bearer).toBe(first);
    const latest = wire.sent.at(-1)!.bearer!;
    expect(latest).not.toBe(first);
    await expect(app.services.auth.authenticate(first)).rejects.toThrow();
    const { tokens } = await client.listTokens();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.current).toBe(true);
  });

  test('when the token has expired on the client clock, then the client logs in instead of rotating', async () => {
    const { client, wire, clock } = await credentialClient();
    await client.fetchMyData();

    clock.advance(TTL + 1);
    app.clock.advance(TTL + 1);
    await client.fetchMyData();

    expect(wire.logins()).toBe(2);
    expect(wire.rotations()).toBe(0);
    expect(wire.sent.filter((s) => s.status === 401)).toHaveLength(0);
  });

  test('when the server refuses the cached token, then the client logs in once and the call succeeds', async () => {
    const { client, wire } = await credentialClient();
    await client.fetchMyData();
    const first = wire.to('/v1/fetchMyData')[0]!.bearer!;
    await revokeOnServer(first);

    const account = await client.fetchMyData();

    expect(account.active_tokens).toBe(1);
    expect(wire.logins()).toBe(2);
    expect(wire.to('/v1/fetchMyData').map((s) => s.status)).toEqual([200, 401, 200]);
  });

  test('when the retried call is refused too, then that 401 is surfaced and not retried again', async () => {
    const wire = recorder(async (request, path) => {
      const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
      if (path === '/v1/fetchMyData' && token) await revokeOnServer(token);
    });
    const { client } = await credentialClient({}, wire);

    await expectApiError(client.fetchMyData(), 401, '/problems/unauthorized');

    expect(wire.logins()).toBe(2);
    expect(wire.to('/v1/fetchMyData').map((s) => s.status)).toEqual([401, 401]);
  });

  test('when the password is wrong, then the call fails with the invalid-credentials problem and no retry', async () => {
    const { client, wire } = await credentialClient({ password: 'not-the-password' });

    const error = await expectApiError(client.fetchMyData(), 401, '/problems/invalid-credentials');

    expect(error.title).toBe('Invalid credentials');
    expect(error.detail).toEqual(expect.any(String));
    expect(wire.logins()).toBe(1);
    expect(wire.to('/v1/fetchMyData')).toHaveLength(0);
  });

  test('when logging out, then the token is revoked and the next call logs in again', async () => {
    const { client, wire } = await credentialClient();
    await client.fetchMyData();
    const first = wire.to('/v1/fetchMyData')[0]!.bearer!;

    await client.logout();
    await expect(app.services.auth.authenticate(first)).rejects.toThrow();
    await client.fetchMyData();

    expect(wire.logins()).toBe(2);
    expect(wire.sent.filter((s) => s.status === 401)).toHaveLength(0);
  });

  test('when revoking a token by id, then it disappears from the list; an unknown id is a 404 problem', async () => {
    const { client, user } = await credentialClient();
    const other = await app.services.auth.login(user.email, user.password);
    expect((await client.listTokens()).tokens).toHaveLength(2);

    await client.revokeToken(other.tokenId);

    const { tokens } = await client.listTokens();
    expect(tokens.map((t) => t.token_id)).not.toContain(other.tokenId);
    expect(tokens).toHaveLength(1);
    await expectApiError(client.revokeToken('00000000-0000-4000-8000-000000000000'), 404, '/problems/not-found');
  });

  test('when a request breaks the contract, then the SDK validator rejects it before anything is sent', async () => {
    const { client, wire } = await credentialClient();

    await expect(client.searchSchools({ query: 'a', limit: 26 })).rejects.toBeInstanceOf(ZodError);

    expect(wire.to('/v1/fetchSchoolSearch')).toHaveLength(0);
  });
});

describe('token (API key) mode', () => {
  test('when given a token, then it is used as is and a 401 after revocation reaches the caller', async () => {
    const { token, email } = await app.userClient();
    const wire = recorder();
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, token, fetch: wire.fetch });

    expect((await client.fetchMyData()).email).toBe(email);
    await revokeOnServer(token);
    await expectApiError(client.fetchMyData(), 401, '/problems/unauthorized');

    expect(wire.logins()).toBe(0);
    expect(wire.to('/v1/fetchMyData').map((s) => s.status)).toEqual([200, 401]);
  });

  test('when given apiKey, then it is the same as token', async () => {
    const { token, email } = await app.userClient();
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: token });

    expect((await client.fetchMyData()).email).toBe(email);
  });

  test('when logged out, then the next call fails locally: there is nothing left to authenticate with', async () => {
    const { token } = await app.userClient();
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, token });

    await client.logout();

    await expect(app.services.auth.authenticate(token)).rejects.toThrow();
    await expect(client.fetchMyData()).rejects.toThrow(/no token left/);
  });

  test('when a key made with createApiKey is given as apiKey, then it searches as its user; rotateApiKey makes the old one 401', async () => {
    const { client: owner } = await credentialClient();
    const key = await owner.createApiKey({ name: 'client test', expiresInDays: 7 });
    expect(Date.parse(key.expires_at) - Date.parse(key.created_at)).toBe(7 * 86_400_000);
    const program = new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: key.token });
    expect((await program.fetchMyData()).userId).toBe((await owner.fetchMyData()).userId);
    expect((await owner.listTokens()).tokens.find((t) => t.token_id === key.token_id)).toMatchObject({
      kind: 'key',
      name: 'client test',
    });

    const next = await owner.rotateApiKey(key.token_id);
    expect(next.name).toBe('client test');
    await expectApiError(program.fetchMyData(), 401, '/problems/unauthorized');
    await expectApiError(owner.rotateApiKey(key.token_id), 404, '/problems/not-found');
    const renewed = new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: next.token });
    expect((await renewed.searchSchools({ query: 'x' })).requestresult.total_count).toBe(0);
  });

  test('when neither credentials nor a token are given, then the constructor refuses', () => {
    expect(() => new SchoolSearchClient({ baseUrl: app.baseUrl } as SchoolSearchClientOptions)).toThrow(TypeError);
  });
});

describe('searchAll', () => {
  test('when 30 schools match, then it yields each exactly once over two metered pages', async () => {
    const seeded = await app.seed([
      ...Array.from({ length: 30 }, (_, i) => ({
        schoolname: `Quillfeather Academy ${String(i + 1).padStart(2, '0')}`,
        city: 'Springfield',
        stateprovince: i < 20 ? 'MA' : 'NY',
      })),
      { schoolname: 'Unrelated College', city: 'Springfield', stateprovince: 'MA' },
    ]);
    const expected = seeded.filter((s) => s.name.startsWith('Quillfeather')).map((s) => s.id);
    const { client, wire } = await credentialClient();

    const ids: string[] = [];
    for await (const school of client.searchAll({ query: 'quillfeather' })) ids.push(school.schoolid);

    expect(ids).toHaveLength(30);
    expect(new Set(ids)).toEqual(new Set(expected));
    expect(wire.to('/v1/fetchSchoolSearch')).toHaveLength(2);

    const inNewYork: string[] = [];
    for await (const school of client.searchAll({ query: 'quillfeather', stateCode: 'NY' }))
      inNewYork.push(school.stateprovince);
    expect(inNewYork).toEqual(Array(10).fill('NY'));
  });

  test('when nothing matches, then it yields nothing after one request', async () => {
    const { client, wire } = await credentialClient();

    const found = [];
    for await (const school of client.searchAll({ query: 'zzqxnomatch' })) found.push(school);

    expect(found).toEqual([]);
    expect(wire.to('/v1/fetchSchoolSearch')).toHaveLength(1);
  });
});
