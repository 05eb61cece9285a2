// The official client against the real app: what it does with tokens is only observable on the
// wire, so every client here gets a fetch that records each request it sends.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken } from '../../generated/sdk.gen.ts';
import {
  SchoolSearchApiError,
  SchoolSearchClient,
  SchoolSearchValidationError,
  type SchoolSearchClientOptions,
  type Token,
} from '../../clients/typescript/src/index.ts';
import type { Store } from '../../src/domain/store.port.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { ReferenceEngine } from '../../src/search/reference.engine.ts';
import type { ManagedEngine } from '../../src/search/managed.engine.ts';
import { startTestApp, TestClock, type TestApp } from '../support/app.ts';
import { readWholeCatalog } from '../support/catalog-read.ts';

const TTL = 600;
const RENEW_BEFORE = 60;

interface Sent {
  method: string;
  path: string;
  search: string;
  bearer: string | undefined;
  status: number;
  /** For logins and rotations: the JSON body sent (a login's) and answered. */
  body?: Record<string, unknown>;
  answer?: Token;
}

const TOKEN_PATHS = new Set(['/v1/auth', '/v1/auth/rotate']);

/**
 * A fetch that records what it sends; `before` may act on the server before a request arrives;
 * `headers` go with every request (e.g. `X-Forwarded-For`, to a server that trusts loopback).
 */
function recorder(before?: (request: Request, path: string) => Promise<void>, headers: Record<string, string> = {}) {
  const sent: Sent[] = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    for (const [name, value] of Object.entries(headers)) request.headers.set(name, value);
    const url = new URL(request.url);
    await before?.(request, url.pathname);
    const tokenCall = request.method === 'POST' && TOKEN_PATHS.has(url.pathname);
    const text = tokenCall ? await request.clone().text() : '';
    const response = await fetch(request);
    const bearer = request.headers.get('authorization')?.replace(/^Bearer /, '');
    sent.push({
      method: request.method,
      path: url.pathname,
      search: url.search,
      bearer,
      status: response.status,
      ...(text ? { body: JSON.parse(text) as Record<string, unknown> } : {}),
      ...(tokenCall && response.ok ? { answer: (await response.clone().json()) as Token } : {}),
    });
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

async function newUser(on: TestApp = app) {
  const email = `client${++users}-${process.pid}@example.com`;
  const password = 'correct-horse-battery';
  await on.services.auth.createUser(email, password);
  return { email, password };
}

async function credentialClient(extra: Partial<SchoolSearchClientOptions> = {}, wire = recorder(), on: TestApp = app) {
  const user = await newUser(on);
  const clock = new TestClock();
  const client = new SchoolSearchClient({
    baseUrl: on.baseUrl,
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
  test("when the e-mail is one the server accepts but zod's email check does not, then the client logs in", async () => {
    const email = `o'ne{}|%${++users}@example.com`;
    await app.services.auth.createUser(email, 'correct-horse-battery');
    const client = new SchoolSearchClient({ baseUrl: app.baseUrl, email, password: 'correct-horse-battery' });
    expect((await client.fetchMyData()).email).toBe(email);
  });

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

  test('when a search is retried with its idempotency key, then the key goes in its header, not the URL, and the retry carries the first record (metered once)', async () => {
    const { client, wire } = await credentialClient();
    const key = `retry-${++users}`;
    const first = await client.searchSchools({ query: 'anything', idempotencyKey: key });
    const again = await client.searchSchools({ query: 'anything', idempotencyKey: key });
    expect(again.apirequest).toEqual(first.apirequest);
    expect((await client.fetchMyData()).usage.request_count).toBe(1);
    expect(wire.to('/v1/fetchSchoolSearch').map((s) => s.search)).toEqual(['?query=anything', '?query=anything']);
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

  test("when a request breaks the contract, then the client refuses it in the server's words before anything is sent", async () => {
    const { client, wire } = await credentialClient();

    await expect(client.searchSchools({ query: 'a', limit: 26 })).rejects.toBeInstanceOf(SchoolSearchValidationError);

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

describe('the absolute session lifetime', () => {
  const SESSION = 900;
  let short: TestApp;
  beforeAll(async () => {
    short = await startTestApp({ tokenTtlSeconds: TTL, sessionMaxSeconds: SESSION });
  });
  afterAll(async () => {
    await short?.close();
  });

  test('when the token expires with its session, then the client renews it by logging in, not by rotating', async () => {
    const { client, wire, clock } = await credentialClient({}, recorder(), short);
    const advance = (seconds: number) => {
      clock.advance(seconds);
      short.clock.advance(seconds);
    };
    await client.fetchMyData();
    const [login] = wire.to('/v1/auth');
    expect(Date.parse(login!.answer!.session_expires_at) - Date.parse(login!.answer!.expires_at)).toBe(
      (SESSION - TTL) * 1000,
    );

    // In the renewal margin of the first token: a rotation, whose token ends with the session.
    advance(TTL - RENEW_BEFORE / 2);
    await client.fetchMyData();
    expect([wire.logins(), wire.rotations()]).toEqual([1, 1]);
    const rotated = wire.to('/v1/auth/rotate')[0]!.answer!;
    expect(rotated.expires_at).toBe(rotated.session_expires_at);
    expect(rotated.session_expires_at).toBe(login!.answer!.session_expires_at);

    // In the renewal margin of that token: a rotation would come back no later, so a login.
    advance(SESSION - TTL);
    await Promise.all([client.fetchMyData(), client.listTokens()]);

    expect([wire.logins(), wire.rotations()]).toEqual([2, 1]);
    const relogin = wire.to('/v1/auth')[1]!.answer!;
    expect(Date.parse(relogin.session_expires_at)).toBeGreaterThan(Date.parse(rotated.session_expires_at));
    expect(wire.sent.filter((s) => s.status === 401)).toHaveLength(0);
    expect(wire.sent.at(-1)!.bearer).toBe(relogin.token);
  });

  test("when the session's end has passed on the server, then the refused rotation is followed by a login", async () => {
    const { client, wire, clock } = await credentialClient({}, recorder(), short);
    await client.fetchMyData();
    clock.advance(TTL - RENEW_BEFORE / 2);
    short.clock.advance(SESSION + 1); // the clocks disagree: the server's session is over

    expect((await client.fetchMyData()).active_tokens).toBe(1);

    expect(wire.to('/v1/auth/rotate').map((s) => s.status)).toEqual([401]);
    expect(wire.logins()).toBe(2);
  });
});

describe('the device proof', () => {
  const CEILING = 3;
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({
      rateLimits: {
        ...RATE_LIMITS_OFF,
        loginPerClient: 100,
        loginFailuresPerEmailAndClient: 2,
        loginFailuresPerEmail: CEILING,
      },
      trustProxy: 'loopback',
    });
  });
  afterAll(async () => {
    await limited?.close();
  });

  /** A client of `user` whose requests come from `ip` (the app trusts X-Forwarded-For from loopback). */
  function clientAt(
    ip: string,
    user: { email: string; password: string },
    extra: Partial<SchoolSearchClientOptions> = {},
  ) {
    const wire = recorder(undefined, { 'X-Forwarded-For': ip });
    const client = new SchoolSearchClient({
      baseUrl: limited.baseUrl,
      ...user,
      fetch: wire.fetch,
      ...extra,
    } as SchoolSearchClientOptions);
    return { client, wire };
  }

  test("when strangers' failed logins hold the account at the all-clients ceiling, then a new client is locked out but the one holding the proof logs in again", async () => {
    const user = await newUser(limited);
    const proofs: string[] = [];
    const holder = clientAt('198.51.100.9', user, { onDeviceProof: (proof) => proofs.push(proof) });
    await holder.client.fetchMyData();
    const firstProof = holder.client.deviceProof;

    for (let i = 0; i < CEILING; i++) {
      const guess = await createToken({
        client: limited.client({ 'X-Forwarded-For': `203.0.113.${i}` }),
        body: { email: user.email, password: `wrong-guess-${i}` },
      });
      expect(guess.response!.status).toBe(401);
    }
    const newcomer = clientAt('198.51.100.10', user);
    await expectApiError(newcomer.client.fetchMyData(), 429, '/problems/rate-limited');

    await holder.client.logout();
    expect((await holder.client.fetchMyData()).email).toBe(user.email);

    // What went over the wire: an empty proof with the first login, its answer's with the next.
    const [first, relogin] = holder.wire.to('/v1/auth').filter((s) => s.method === 'POST');
    expect(first!.body).toMatchObject({ email: user.email, device_proof: '' });
    expect(firstProof).toMatch(/^v1\.\d+\.[\w-]{43}$/);
    expect(first!.answer!.device_proof).toBe(firstProof);
    expect(relogin!.body!['device_proof']).toBe(firstProof);
    expect(proofs).toEqual([firstProof, relogin!.answer!.device_proof]);
    expect(holder.client.deviceProof).toBe(proofs[1]);

    // A proof kept by the caller and given to a new client (a program restarted) works the same.
    const restarted = clientAt('192.0.2.44', user, { deviceProof: holder.client.deviceProof! });
    expect((await restarted.client.fetchMyData()).email).toBe(user.email);
    expect(restarted.wire.to('/v1/auth')[0]!.body!['device_proof']).toBe(proofs[1]);
  });

  test('when the given device proof is not one a server could have issued, then the constructor refuses it', () => {
    expect(
      () =>
        new SchoolSearchClient({
          baseUrl: limited.baseUrl,
          email: 'a@example.com',
          password: 'x',
          deviceProof: 'x'.repeat(101),
        }),
    ).toThrow(TypeError);
  });
});

describe('changePassword', () => {
  test('when the password is changed, then API keys keep working, other sessions end, and the client goes on with the new password', async () => {
    const { client, wire, user } = await credentialClient();
    const key = await client.createApiKey({ name: 'program' });
    const other = await app.services.auth.login(user.email, user.password);
    const program = new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: key.token });

    await client.changePassword({ currentPassword: user.password, newPassword: 'a-new-horse-battery' });

    // The client's own token was carried over: no new login.
    expect((await client.fetchMyData()).email).toBe(user.email);
    expect(wire.logins()).toBe(1);
    await expect(app.services.auth.authenticate(other.value)).rejects.toThrow();
    expect((await program.fetchMyData()).email).toBe(user.email);
    // What the client confirms a key with, and logs in with, is the new password now.
    const second = await client.createApiKey({ name: 'second program' });
    await revokeOnServer(wire.sent.at(-1)!.bearer!);
    expect((await client.fetchMyData()).email).toBe(user.email);
    expect(wire.to('/v1/auth').map((s) => s.status)).toEqual([200, 200]);
    expect(wire.to('/v1/auth')[1]!.body!['password']).toBe('a-new-horse-battery');

    // With revokeApiKeys, every key goes; the client's session stays.
    await client.changePassword({
      currentPassword: 'a-new-horse-battery',
      newPassword: 'a-third-horse-battery',
      revokeApiKeys: true,
    });
    await expectApiError(program.fetchMyData(), 401, '/problems/unauthorized');
    await expectApiError(
      new SchoolSearchClient({ baseUrl: app.baseUrl, apiKey: second.token }).fetchMyData(),
      401,
      '/problems/unauthorized',
    );
    expect((await client.listTokens()).tokens.map((t) => t.kind)).toEqual(['session']);
    expect(wire.logins()).toBe(2);
  });

  test('when the current password is wrong, then a 403 wrong-password, and the client keeps its password', async () => {
    const { client, wire, user } = await credentialClient();

    await expectApiError(
      client.changePassword({ currentPassword: 'not-the-password', newPassword: 'a-new-horse-battery' }),
      403,
      '/problems/wrong-password',
    );

    await revokeOnServer(wire.sent.at(-1)!.bearer!);
    expect((await client.fetchMyData()).email).toBe(user.email);
    expect(wire.to('/v1/auth').map((s) => s.status)).toEqual([200, 200]);
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

/**
 * The reference engine over the app's catalog, reloaded when a test seeds: it follows every rule
 * of the contract (level, type, near, radius_km), whichever engine the app runs by default.
 */
function referenceEngine(store: Store): ManagedEngine {
  let engine = new ReferenceEngine([]);
  const load = async () => {
    engine = new ReferenceEngine((await readWholeCatalog(store.schools)).schools);
    return true;
  };
  return { search: (q) => engine.search(q), start: async () => void (await load()), refresh: load, close: () => {} };
}

describe('searchSchools and searchAll: level, type, near and radiusKm', () => {
  const CAMBRIDGE = { latitude: 42.3736, longitude: -71.1097 };
  let filtered: TestApp;
  let ids: Map<string, string>;

  beforeAll(async () => {
    filtered = await startTestApp({ engine: referenceEngine });
    // Equally good matches for "wrenfield": level, type and distance tell them apart.
    const seeded = await filtered.seed([
      {
        schoolname: 'Wrenfield School Boston',
        city: 'Boston',
        stateprovince: 'MA',
        level: 'elementary',
        type: 'public',
        latitude: 42.3601,
        longitude: -71.0589,
      },
      {
        schoolname: 'Wrenfield School Cambridge',
        city: 'Cambridge',
        stateprovince: 'MA',
        level: 'middle',
        type: 'public',
        tags: ['charter'],
        latitude: 42.3736,
        longitude: -71.1097,
      },
      {
        schoolname: 'Wrenfield School Worcester',
        city: 'Worcester',
        stateprovince: 'MA',
        level: 'high',
        type: 'private',
        latitude: 42.2626,
        longitude: -71.8023,
      },
      {
        schoolname: 'Wrenfield School Springfield',
        city: 'Springfield',
        stateprovince: 'MA',
        level: 'high',
        type: 'public',
        latitude: 42.1015,
        longitude: -72.5898,
      },
      { schoolname: 'Wrenfield School Nowhere', city: 'Lowell', stateprovince: 'MA', level: 'high', type: 'public' },
      ...Array.from({ length: 30 }, (_, i) => ({
        schoolname: `Wrenfield Academy ${String(i + 1).padStart(2, '0')}`,
        city: 'Cambridge',
        stateprovince: 'MA',
        level: i % 2 === 0 ? 'high' : 'elementary',
        type: 'public',
        latitude: 42.3736 + i / 1000,
        longitude: -71.1097,
      })),
    ]);
    ids = new Map(seeded.map((s) => [s.name, s.id]));
  });

  afterAll(async () => {
    await filtered?.close();
  });

  const names = (page: { requestresult: { schools: Array<{ schoolname: string }> } }) =>
    page.requestresult.schools.map((s) => s.schoolname);
  const params = (search: string) => [...new URLSearchParams(search)];

  test('when level and type are single values, then each goes as one parameter and only those schools come back', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const page = await client.searchSchools({ query: 'wrenfield school', level: 'high', type: 'public' });

    expect(names(page).sort()).toEqual(['Wrenfield School Nowhere', 'Wrenfield School Springfield']);
    expect(params(wire.to('/v1/fetchSchoolSearch')[0]!.search)).toEqual(
      expect.arrayContaining([
        ['level', 'high'],
        ['type', 'public'],
      ]),
    );
  });

  test('when level and type are lists, then each is a repeated parameter and any of the values will do', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const page = await client.searchSchools({
      query: 'wrenfield school',
      level: ['elementary', 'middle'],
      type: ['charter', 'private'],
    });

    expect(names(page)).toEqual(['Wrenfield School Cambridge']);
    const sent = params(wire.to('/v1/fetchSchoolSearch')[0]!.search);
    expect(sent.filter(([name]) => name === 'level')).toEqual([
      ['level', 'elementary'],
      ['level', 'middle'],
    ]);
    expect(sent.filter(([name]) => name === 'type')).toEqual([
      ['type', 'charter'],
      ['type', 'private'],
    ]);
  });

  test('when near is a point, then it goes as <lat>,<lon> and equal matches come nearest first, each with distance_km', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const page = await client.searchSchools({ query: 'wrenfield school', near: CAMBRIDGE });

    expect(names(page)).toEqual([
      'Wrenfield School Cambridge',
      'Wrenfield School Boston',
      'Wrenfield School Worcester',
      'Wrenfield School Springfield',
      'Wrenfield School Nowhere',
    ]);
    const [cambridge, boston] = page.requestresult.schools;
    expect(cambridge?.distance_km).toBe(0);
    expect(boston?.distance_km).toBeCloseTo(4.5, 0);
    expect(page.requestresult.schools.at(-1)).not.toHaveProperty('distance_km');
    expect(new URLSearchParams(wire.to('/v1/fetchSchoolSearch')[0]!.search).get('near')).toBe('42.3736,-71.1097');
  });

  test('when near is the contract text, then it is sent as given; tiny and negative zero degrees are plain decimals', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const asText = await client.searchSchools({ query: 'wrenfield school', near: ' 42.3736 , -71.1097 ', limit: 1 });
    await client.searchSchools({ query: 'wrenfield school', near: { latitude: 1e-7, longitude: -0 }, limit: 1 });

    expect(names(asText)).toEqual(['Wrenfield School Cambridge']);
    const sent = wire.to('/v1/fetchSchoolSearch').map((s) => new URLSearchParams(s.search).get('near'));
    expect(sent).toEqual([' 42.3736 , -71.1097 ', '0.0000001,0']);
  });

  test('when radiusKm is given with near, then only the schools within it are found and counted', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const page = await client.searchSchools({ query: 'wrenfield school', near: CAMBRIDGE, radiusKm: 60 });

    expect(names(page)).toEqual([
      'Wrenfield School Cambridge',
      'Wrenfield School Boston',
      'Wrenfield School Worcester',
    ]);
    expect(page.requestresult.total_count).toBe(3);
    expect(new URLSearchParams(wire.to('/v1/fetchSchoolSearch')[0]!.search).get('radius_km')).toBe('60');
  });

  test('when radiusKm comes without near, then the API refuses it with a 400 naming radius_km', async () => {
    const { client } = await credentialClient({}, recorder(), filtered);

    const error = await expectApiError(
      client.searchSchools({ query: 'wrenfield', radiusKm: 10 }),
      400,
      '/problems/validation-error',
    );

    expect(error.errors.map((e) => [e.location, e.name])).toEqual([['query', 'radius_km']]);
  });

  test('when near is off the globe, then the API refuses it with a 400 naming near', async () => {
    const { client } = await credentialClient({}, recorder(), filtered);

    const error = await expectApiError(
      client.searchSchools({ query: 'wrenfield', near: { latitude: 91, longitude: 0 } }),
      400,
      '/problems/validation-error',
    );

    expect(error.errors.map((e) => [e.location, e.name])).toEqual([['query', 'near']]);
  });

  test.each([
    ['a level the contract does not have', { level: 'college' as never }],
    ['an empty list of types', { type: [] }],
    ['a near that is not a point', { near: 'cambridge' }],
    ['a point that is not a number', { near: { latitude: Number.NaN, longitude: 0 } }],
    ['a radius of 0', { near: { latitude: 0, longitude: 0 }, radiusKm: 0 }],
  ])('when given %s, then the validator refuses it before anything is sent', async (_, extra) => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    await expect(client.searchSchools({ query: 'wrenfield', ...extra })).rejects.toBeInstanceOf(
      SchoolSearchValidationError,
    );

    expect(wire.to('/v1/fetchSchoolSearch')).toHaveLength(0);
  });

  test('when searchAll is given filters and a point, then every page carries them and it yields only those schools', async () => {
    const { client, wire } = await credentialClient({}, recorder(), filtered);

    const found = [];
    for await (const school of client.searchAll({
      query: 'wrenfield',
      stateCode: 'MA',
      level: ['high', 'elementary'],
      type: 'public',
      near: CAMBRIDGE,
      radiusKm: 100,
    }))
      found.push(school.schoolname);

    // The 30 academies and Boston; not Cambridge (middle), Worcester (private), Springfield (too
    // far) nor the school without coordinates.
    expect(found.sort()).toEqual(
      [...[...ids.keys()].filter((n) => n.startsWith('Wrenfield Academy')), 'Wrenfield School Boston'].sort(),
    );
    const pages = wire.to('/v1/fetchSchoolSearch').map((s) => new URLSearchParams(s.search));
    expect(pages.map((p) => p.get('offset'))).toEqual(['0', '25']);
    for (const page of pages) {
      expect([page.get('stateCode'), page.getAll('level'), page.get('type')]).toEqual([
        'MA',
        ['high', 'elementary'],
        'public',
      ]);
      expect([page.get('near'), page.get('radius_km')]).toEqual(['42.3736,-71.1097', '100']);
    }
  });
});

describe('getSchool', () => {
  test("when given a search result's schoolid, then the school's whole record comes back, unmetered", async () => {
    await app.seed([
      {
        schoolname: 'Thistlewood Collegiate Institute',
        city: 'Halifax',
        stateprovince: 'NS',
        aliases: ['TCI'],
        address: '1 Thistle Road',
        postal_code: 'B3H 1A1',
        latitude: 44.6488,
        longitude: -63.5752,
        lowest_grade: '9',
        highest_grade: '12',
        type: 'public',
        sourceKey: 'odef:test:thistlewood',
      },
    ]);
    const { client, wire } = await credentialClient();
    const [found] = (await client.searchSchools({ query: 'thistlewood' })).requestresult.schools;
    const metered = (await client.fetchMyData()).usage.request_count;

    const record = await client.getSchool(found!.schoolid);

    expect(record).toMatchObject({
      schoolid: found!.schoolid,
      schoolname: 'Thistlewood Collegiate Institute',
      stateprovince: 'NS',
      city: 'Halifax',
      image_url: found!.image_url,
      address: '1 Thistle Road',
      postal_code: 'B3H 1A1',
      latitude: 44.6488,
      longitude: -63.5752,
      level: 'high',
      lowest_grade: '9',
      highest_grade: '12',
      type: 'public',
      aliases: ['TCI'],
      source_ids: ['odef:test:thistlewood'],
    });
    expect(Date.parse(record.updated_at)).not.toBeNaN();
    expect(record).not.toHaveProperty('similarity_score');
    expect((await client.fetchMyData()).usage.request_count).toBe(metered);
    expect(wire.to(`/v1/schools/${found!.schoolid}`).map((s) => [s.method, s.status])).toEqual([['GET', 200]]);
  });

  test('when the id is unknown, then a 404 not-found problem is thrown', async () => {
    const { client } = await credentialClient();

    const error = await expectApiError(
      client.getSchool('00000000-0000-4000-8000-000000000000'),
      404,
      '/problems/not-found',
    );

    expect(error.detail).toBe('There is no such school.');
  });

  test('when the id is not a UUID, then the validator refuses it before anything is sent', async () => {
    const { client, wire } = await credentialClient();

    await expect(client.getSchool('harvard')).rejects.toBeInstanceOf(SchoolSearchValidationError);

    expect(wire.sent.filter((s) => s.path.startsWith('/v1/schools/'))).toHaveLength(0);
  });

  test('when the token was revoked elsewhere, then getSchool logs in again once and succeeds', async () => {
    const [seeded] = await app.seed([{ schoolname: 'Larkspur Hollow School', city: 'Bend', stateprovince: 'OR' }]);
    const { client, wire } = await credentialClient();
    await client.fetchMyData();
    await revokeOnServer(wire.to('/v1/fetchMyData')[0]!.bearer!);

    expect((await client.getSchool(seeded!.id)).schoolname).toBe('Larkspur Hollow School');

    expect(wire.logins()).toBe(2);
    expect(wire.to(`/v1/schools/${seeded!.id}`).map((s) => s.status)).toEqual([401, 200]);
  });
});
