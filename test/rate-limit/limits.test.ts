// Rate limiting (OWASP API4, and API2's brute force): per user on search; on login per client,
// and failed attempts per e-mail and client and per e-mail from all clients; 429 problem+json with Retry-After and the IETF RateLimit
// headers (draft 8). Each test starts its own app, so quotas never leak between tests.
import { afterEach, describe, expect, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import {
  changePassword,
  createApiKey,
  createToken,
  fetchMyData,
  fetchMyRequests,
  fetchSchoolSearch,
  listMyTokens,
  rotateApiKey,
  rotateToken,
} from '../../generated/sdk.gen.ts';
import { RATE_LIMITS_OFF, type RateLimits } from '../../src/http/middleware/rate-limit.ts';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

const HARVARD = { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' };
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(limits: Partial<RateLimits>, options: TestAppOptions = {}): Promise<TestApp> {
  app = await startTestApp({ ...options, rateLimits: { ...RATE_LIMITS_OFF, ...limits } });
  await app.seed([HARVARD]);
  return app;
}

function retryAfter(response: Response | undefined): number {
  const value = response?.headers.get('retry-after') ?? '';
  expect(value).toMatch(/^\d+$/);
  return Number(value);
}

describe('search: per user', () => {
  test('when a token has used its quota, then 429 rate-limited with Retry-After, and the search is not metered', async () => {
    const a = await start({ searchPerUser: 3, windowSeconds: 60 });
    const user = await a.userClient();
    for (let i = 0; i < 3; i++) {
      const ok = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
      expect(ok.response!.status).toBe(200);
      expect(ok.response!.headers.get('ratelimit')).toMatch(new RegExp(`^"search-per-user"; r=${2 - i}; t=\\d+$`));
      expect(ok.response!.headers.get('ratelimit-policy')).toMatch(
        /^"search-per-user"; q=3; w=60; pk=:[A-Za-z0-9+/=]+:$/,
      );
    }
    const refused = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    const problem = expectProblem(refused, 429, 'rate-limited');
    expect(problem.detail).toContain('search-per-user');
    const seconds = retryAfter(refused.response);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(refused.response!.headers.get('ratelimit')).toMatch(/^"search-per-user"; r=0; t=\d+$/);
    // Refused before the handler: three records, not four.
    expect((await fetchMyRequests({ client: user.client })).data!.total_count).toBe(3);
  });

  test('when a user is throttled, then another user is not', async () => {
    const a = await start({ searchPerUser: 1 });
    const first = await a.userClient();
    const second = await a.userClient();
    expect((await fetchSchoolSearch({ client: first.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    expectProblem(await fetchSchoolSearch({ client: first.client, query: { query: 'harvard' } }), 429, 'rate-limited');
    expect((await fetchSchoolSearch({ client: second.client, query: { query: 'harvard' } })).response!.status).toBe(
      200,
    );
  });

  test('when a throttled user logs in again or rotates the token, then the new token shares the used-up quota', async () => {
    const a = await start({ searchPerUser: 1 });
    const user = await a.userClient();
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    const login = await createToken({ client: a.client(), body: { email: user.email, password: user.password } });
    const rotated = await rotateToken({ client: user.client });
    for (const token of [login.data!.token, rotated.data!.token]) {
      const client = createClient({ baseUrl: a.baseUrl, headers: { Authorization: `Bearer ${token}` } });
      expectProblem(await fetchSchoolSearch({ client, query: { query: 'harvard' } }), 429, 'rate-limited');
    }
  });

  test('when the window has passed, then the token may search again', async () => {
    const a = await start({ searchPerUser: 1, windowSeconds: 1 });
    const user = await a.userClient();
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    // On a loaded machine the second search may land in the next 1 s window, and pass: search
    // until one is refused (a window holds one search, so the third is refused at the latest).
    let refused = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    if (refused.response!.status === 200)
      refused = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    expectProblem(refused, 429, 'rate-limited');
    expect(retryAfter(refused.response)).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
  });

  test('when a request is refused by authentication or validation, then it does not use the quota', async () => {
    const a = await start({ searchPerUser: 1 });
    const user = await a.userClient();
    expectProblem(await fetchSchoolSearch({ client: a.client(), query: { query: 'harvard' } }), 401, 'unauthorized');
    expectProblem(
      await fetchSchoolSearch({ client: user.client, query: { query: 'harvard', limit: 26 }, ...unchecked }),
      400,
      'validation-error',
    );
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
  });

  test('when rate limiting is off, then no RateLimit headers are sent', async () => {
    const a = await start({});
    const user = await a.userClient();
    const ok = await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    expect(ok.response!.status).toBe(200);
    expect(ok.response!.headers.get('ratelimit')).toBeNull();
    expect(ok.response!.headers.get('ratelimit-policy')).toBeNull();
  });
});

describe('account operations: one quota per user', () => {
  test('when a user has used the account quota across operations, then 429 on each of them, with RateLimit headers; search and other users are not affected', async () => {
    const a = await start({ accountPerUser: 3, searchPerUser: 10 });
    const user = await a.userClient();
    const other = await a.userClient();
    const data = await fetchMyData({ client: user.client });
    expect(data.response!.status).toBe(200);
    expect(data.response!.headers.get('ratelimit')).toMatch(/^"account-per-user"; r=2; t=\d+$/);
    expect((await fetchMyRequests({ client: user.client })).response!.status).toBe(200);
    expect((await listMyTokens({ client: user.client })).response!.status).toBe(200);
    for (const refused of [await fetchMyData({ client: user.client }), await listMyTokens({ client: user.client })]) {
      expectProblem(refused, 429, 'rate-limited');
      expect(retryAfter(refused.response)).toBeGreaterThan(0);
      expect(refused.response!.headers.get('ratelimit')).toMatch(/^"account-per-user"; r=0; t=\d+$/);
    }
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    expect((await fetchMyData({ client: other.client })).response!.status).toBe(200);
  });
});

describe('password change: per user', () => {
  test('when a session guesses the password through key creation and rotation, then they share the password-check quota with a password change', async () => {
    const a = await start({ loginPerClient: 2 });
    const user = await a.userClient(undefined, 'right-password-1');
    expectProblem(
      await createApiKey({ client: user.client, body: { name: 'stolen', current_password: 'wrong-1-password' } }),
      403,
      'wrong-password',
    );
    expectProblem(
      await rotateApiKey({
        client: user.client,
        path: { tokenId: '00000000-0000-4000-8000-000000000000' },
        body: { current_password: 'wrong-2-password' },
      }),
      403,
      'wrong-password',
    );
    const refused = await createApiKey({
      client: user.client,
      body: { name: 'stolen', current_password: 'right-password-1' },
    });
    expectProblem(refused, 429, 'rate-limited');
    expect(refused.response!.headers.get('ratelimit')).toContain('"password-change-per-user"; r=0');
    expectProblem(
      await changePassword({
        client: user.client,
        body: { current_password: 'right-password-1', new_password: 'new-password-2' },
      }),
      429,
      'rate-limited',
    );
  });

  test('when one token guesses the current password too often, then 429 even with the right one, and another user is not throttled', async () => {
    const a = await start({ loginPerClient: 2 });
    const user = await a.userClient(undefined, 'right-password-1');
    for (let i = 0; i < 2; i++) {
      const guess = await changePassword({
        client: user.client,
        body: { current_password: `wrong-${i}-password`, new_password: 'new-password-2' },
        ...unchecked,
      });
      expectProblem(guess, 403, 'wrong-password');
    }
    const refused = await changePassword({
      client: user.client,
      body: { current_password: 'right-password-1', new_password: 'new-password-2' },
      ...unchecked,
    });
    expectProblem(refused, 429, 'rate-limited');
    expect(retryAfter(refused.response)).toBeGreaterThan(0);
    expect(refused.response!.headers.get('ratelimit')).toContain('"password-change-per-user"; r=0');
    const other = await a.userClient(undefined, 'other-password-1');
    const fine = await changePassword({
      client: other.client,
      body: { current_password: 'other-password-1', new_password: 'new-password-2' },
    });
    expect(fine.response!.status).toBe(204);
  });
});

describe('login: per client and per e-mail (brute force)', () => {
  test('when one client guesses passwords of many accounts, then it is throttled even with the right password', async () => {
    const a = await start({ loginPerClient: 3 });
    await a.services.auth.createUser('victim@example.com', 'right-password-1');
    for (let i = 0; i < 3; i++) {
      const guess = await createToken({
        client: a.client(),
        body: { email: `guess${i}@example.com`, password: 'wrong-password' },
      });
      expectProblem(guess, 401, 'invalid-credentials');
    }
    const refused = await createToken({
      client: a.client(),
      body: { email: 'victim@example.com', password: 'right-password-1' },
    });
    expectProblem(refused, 429, 'rate-limited');
    expect(retryAfter(refused.response)).toBeGreaterThan(0);
    expect(refused.response!.headers.get('ratelimit')).toContain('"login-per-client"; r=0');
    expect(refused.data).toBeUndefined();
  });

  test('when one e-mail fails too often, then that e-mail is throttled however it is typed, and other e-mails are not', async () => {
    const a = await start({ loginPerClient: 100, loginFailuresPerEmailAndClient: 2 });
    await a.services.auth.createUser('target@example.com', 'right-password-1');
    await a.services.auth.createUser('bystander@example.com', 'right-password-2');
    for (let i = 0; i < 2; i++) {
      expectProblem(
        await createToken({
          client: a.client(),
          body: { email: 'target@example.com', password: `wrong-${i}-password` },
        }),
        401,
        'invalid-credentials',
      );
    }
    const refused = await createToken({
      client: a.client(),
      body: { email: 'TARGET@Example.com', password: 'right-password-1' },
    });
    expectProblem(refused, 429, 'rate-limited');
    const limits = refused.response!.headers.get('ratelimit')!;
    expect(limits).toContain('"login-failures-per-email-and-client"; r=0');
    expect(limits).toContain('"login-per-client"; r=97');
    const other = await createToken({
      client: a.client(),
      body: { email: 'bystander@example.com', password: 'right-password-2' },
    });
    expect(other.response!.status).toBe(200);
  });

  test('when a user logs in successfully many times, then the e-mail quota is not used up', async () => {
    const a = await start({ loginPerClient: 100, loginFailuresPerEmailAndClient: 2, loginFailuresPerEmail: 2 });
    await a.services.auth.createUser('busy@example.com', 'right-password-1');
    for (let i = 0; i < 5; i++) {
      const ok = await createToken({
        client: a.client(),
        body: { email: 'busy@example.com', password: 'right-password-1' },
      });
      expect(ok.response!.status).toBe(200);
    }
  });

  test('when a stranger fails at an account from one address, then the owner still logs in from another (no lockout)', async () => {
    const a = await start(
      { loginPerClient: 100, loginFailuresPerEmailAndClient: 2, loginFailuresPerEmail: 5 },
      { trustProxy: 'loopback' },
    );
    await a.services.auth.createUser('owner@example.com', 'right-password-1');
    const from = (ip: string) => a.client({ 'X-Forwarded-For': ip });
    for (let i = 0; i < 2; i++) {
      expectProblem(
        await createToken({
          client: from('203.0.113.66'),
          body: { email: 'owner@example.com', password: `wrong-${i}-password` },
        }),
        401,
        'invalid-credentials',
      );
    }
    expectProblem(
      await createToken({
        client: from('203.0.113.66'),
        body: { email: 'owner@example.com', password: 'wrong-x-password' },
      }),
      429,
      'rate-limited',
    );
    const owner = await createToken({
      client: from('198.51.100.1'),
      body: { email: 'owner@example.com', password: 'right-password-1' },
    });
    expect(owner.response!.status).toBe(200);
  });

  test('when many addresses guess at one account, then the all-clients ceiling stops them', async () => {
    const a = await start(
      { loginPerClient: 100, loginFailuresPerEmailAndClient: 2, loginFailuresPerEmail: 5 },
      { trustProxy: 'loopback' },
    );
    await a.services.auth.createUser('popular@example.com', 'right-password-1');
    const guess = (ip: string, i: number) =>
      createToken({
        client: a.client({ 'X-Forwarded-For': ip }),
        body: { email: 'popular@example.com', password: `wrong-${i}-password` },
      });
    for (let i = 0; i < 5; i++) expectProblem(await guess(`203.0.113.${i}`, i), 401, 'invalid-credentials');
    const refused = await guess('203.0.113.99', 99);
    expectProblem(refused, 429, 'rate-limited');
    // The ceiling's count is the account's, from everyone: no header of any answer gives it
    // away (it would tell a stranger how often others failed at the address).
    expect(refused.response!.headers.get('retry-after')).toMatch(/^\d+$/);
    for (const answer of [refused, await guess('203.0.113.100', 100)]) {
      expect(answer.response!.headers.get('ratelimit') ?? '').not.toContain('login-failures-per-email"');
      expect(answer.response!.headers.get('ratelimit-policy') ?? '').not.toContain('login-failures-per-email"');
    }
  });

  test('when a client without cookies sends back the device proof of its last login, then the all-clients ceiling does not lock it out', async () => {
    // Both official clients keep no cookies: they ask for the proof in the answer and send it back.
    const a = await start(
      { loginPerClient: 100, loginFailuresPerEmailAndClient: 2, loginFailuresPerEmail: 5 },
      { trustProxy: 'loopback' },
    );
    await a.services.auth.createUser('program@example.com', 'right-password-1');
    const login = (ip: string, password: string, proof?: string) =>
      createToken({
        client: a.client({ 'X-Forwarded-For': ip }),
        body: { email: 'program@example.com', password, ...(proof === undefined ? {} : { device_proof: proof }) },
      });
    const first = await login('198.51.100.9', 'right-password-1', '');
    expect(first.data!.device_proof).toMatch(/^v1\.\d+\.[\w-]{43}$/);
    // Without asking, no proof in the answer (a page's scripts never see the browser's).
    expect((await login('198.51.100.9', 'right-password-1')).data).not.toHaveProperty('device_proof');
    for (let i = 0; i < 5; i++) await login(`203.0.113.${i}`, `wrong-${i}-password`);
    expectProblem(await login('198.51.100.10', 'right-password-1', ''), 429, 'rate-limited');
    const again = await login('198.51.100.9', 'right-password-1', first.data!.device_proof!);
    expect(again.response!.status).toBe(200);
    expect(again.data!.device_proof).toMatch(/^v1\./);
  });

  test('when many addresses lock an account, then a device that logged in recently still logs in; a new one, an old proof or one from before a password change does not', async () => {
    const a = await start(
      { loginPerClient: 100, loginFailuresPerEmailAndClient: 2, loginFailuresPerEmail: 5 },
      { trustProxy: 'loopback' },
    );
    await a.services.auth.createUser('owner2@example.com', 'right-password-1');
    const login = (ip: string, password: string, cookie?: string) =>
      createToken({
        client: a.client({ 'X-Forwarded-For': ip, ...(cookie ? { Cookie: cookie } : {}) }),
        body: { email: 'owner2@example.com', password },
      });
    // The owner's laptop logs in: the answer hands it a device cookie.
    const first = await login('198.51.100.7', 'right-password-1');
    expect(first.response!.status).toBe(200);
    const setCookie = first.response!.headers.get('set-cookie')!;
    expect(setCookie).toMatch(
      /^ss_device=v1\.\d+\.[\w-]{43}; Path=\/v1\/auth; Max-Age=2592000; HttpOnly; Secure; SameSite=Strict$/,
    );
    const device = setCookie.split(';')[0]!;
    expect(JSON.stringify(first.data)).not.toContain(device.split('=')[1]);
    // Many addresses fail at the account until the all-clients ceiling holds.
    for (let i = 0; i < 5; i++) await login(`203.0.113.${i}`, `wrong-${i}-password`);
    expectProblem(await login('203.0.113.99', 'right-password-1'), 429, 'rate-limited');
    // A new device (no cookie, a forged one, another account's) is held back, even with the password.
    expectProblem(await login('198.51.100.8', 'right-password-1'), 429, 'rate-limited');
    expectProblem(
      await login('198.51.100.8', 'right-password-1', `ss_device=v1.${Date.now()}.${'A'.repeat(43)}`),
      429,
      'rate-limited',
    );
    // The laptop is not: it logs in, from its own address or a new one.
    expect((await login('198.51.100.7', 'right-password-1', device)).response!.status).toBe(200);
    expect((await login('192.0.2.55', 'right-password-1', device)).response!.status).toBe(200);
    // Its wrong guesses still meet the per-client limit.
    for (let i = 0; i < 2; i++) await login('198.51.100.7', `typo-${i}-password`, device);
    expectProblem(await login('198.51.100.7', 'right-password-1', device), 429, 'rate-limited');
    // A proof older than 30 days is not recognised.
    a.clock.advance(31 * 86_400);
    expect(await a.services.auth.recognisesDevice('owner2@example.com', device.split('=')[1]!)).toBe(false);
  });

  test('when the password changes, then device proofs issued before it are no longer recognised', async () => {
    const a = await start({});
    const user = await a.userClient('owner3@example.com', 'right-password-1');
    const r = await createToken({ client: a.client(), body: { email: user.email, password: user.password } });
    const proof = r.response!.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;
    expect(await a.services.auth.recognisesDevice(user.email, proof)).toBe(true);
    expect(await a.services.auth.recognisesDevice('someone.else@example.com', proof)).toBe(false);
    await a.services.auth.changePassword(
      await a.services.auth.authenticate(user.token),
      'right-password-1',
      'another-password-2',
    );
    expect(await a.services.auth.recognisesDevice(user.email, proof)).toBe(false);
  });

  test('when X-Forwarded-For is sent to a server that trusts no proxy, then it does not buy a fresh quota', async () => {
    const a = await start({ loginPerClient: 1 });
    const spoofed = (ip: string) => a.client({ 'X-Forwarded-For': ip });
    expectProblem(
      await createToken({
        client: spoofed('203.0.113.1'),
        body: { email: 'a@example.com', password: 'wrong-password' },
      }),
      401,
      'invalid-credentials',
    );
    expectProblem(
      await createToken({
        client: spoofed('203.0.113.2'),
        body: { email: 'a@example.com', password: 'wrong-password' },
      }),
      429,
      'rate-limited',
    );
  });

  test('when the server trusts its proxy, then each forwarded client has its own quota', async () => {
    const a = await start({ loginPerClient: 1 }, { trustProxy: 'loopback' });
    const via = (ip: string) => a.client({ 'X-Forwarded-For': ip });
    expectProblem(
      await createToken({ client: via('203.0.113.1'), body: { email: 'a@example.com', password: 'wrong-password' } }),
      401,
      'invalid-credentials',
    );
    expectProblem(
      await createToken({ client: via('203.0.113.2'), body: { email: 'a@example.com', password: 'wrong-password' } }),
      401,
      'invalid-credentials',
    );
    expectProblem(
      await createToken({ client: via('203.0.113.1'), body: { email: 'a@example.com', password: 'wrong-password' } }),
      429,
      'rate-limited',
    );
  });
});
