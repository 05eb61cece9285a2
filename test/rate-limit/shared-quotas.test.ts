// Issue 13, many API instances on one store: a quota is the user's (or the e-mail's), not one
// process's. Two servers on one store, each started with the same limits and a window of an hour;
// requests spread over both count against one counter. TRUST_PROXY=loopback lets the test speak
// for several client addresses (X-Forwarded-For) from its one loopback address.
import { describe, expect, test } from 'vitest';
import { createToken, fetchMyData, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { expectProblem } from '../support/problem.ts';
import { createUser, login, sharedStores, usePair, type Instance } from '../support/instances.ts';

/** Searches per user per window. */
const N = 5;
/** Failed logins per e-mail from one client per window. */
const F = 3;
/** Failed logins per e-mail from all clients together per window. */
const G = 4;

const LIMITS = {
  RATE_LIMIT_WINDOW_SECONDS: '3600',
  RATE_LIMIT_SEARCH: String(N),
  RATE_LIMIT_LOGIN_PER_EMAIL: String(F),
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_CLIENTS: String(G),
  // Off: the per-address login quota would otherwise be what stops these attempts.
  RATE_LIMIT_LOGIN_PER_CLIENT: '0',
  RATE_LIMIT_ACCOUNT: '0',
  TRUST_PROXY: 'loopback',
};

const WRONG_PASSWORD = 'not-the-password-at-all';
const from = (address: string) => ({ 'X-Forwarded-For': address });

const stores = await sharedStores();

describe.each(stores)('two API instances on %s: shared quotas', (_name, prepare) => {
  const pair = usePair(prepare, LIMITS);

  test(`when ${N} searches of one user are spread over A and B, then the next one on either is 429 rate-limited`, async (ctx) => {
    ctx.skip(typeof prepare === 'string', String(prepare));
    const user = await createUser(pair.store, 'searcher');
    const { token } = await login(pair.a, user.email, user.password);
    const search = (instance: Instance) =>
      fetchSchoolSearch({ client: instance.client(token), query: { query: 'harvard' } });

    // A, B, A, B, A: then one more on B and one more on A.
    const order = [...Array.from({ length: N }, (_, i) => (i % 2 === 0 ? pair.a : pair.b)), pair.b, pair.a];
    const answers = [];
    for (const instance of order) answers.push({ on: instance.name, answer: await search(instance) });
    // The whole sequence at once: the failure shows which instance let which search through.
    const seen = answers.map(({ on, answer }) => ({
      on,
      status: answer.response?.status,
      remaining: /; r=(\d+)/.exec(answer.response?.headers.get('ratelimit') ?? '')?.[1],
    }));
    expect(seen).toEqual(
      order.map((instance, i) => ({
        on: instance.name,
        status: i < N ? 200 : 429,
        remaining: String(Math.max(0, N - 1 - i)),
      })),
    );
    for (const { answer } of answers.slice(N)) {
      expect(expectProblem(answer, 429, 'rate-limited').detail).toContain('search-per-user');
      expect(Number(answer.response!.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The refused searches were neither run nor metered, on either instance.
    expect((await fetchMyData({ client: pair.b.client(token) })).data!.usage.request_count).toBe(N);
  });

  test(`when ${F} wrong passwords for one e-mail from one client are spread over A and B, then its next login on either is 429, even with the right password`, async (ctx) => {
    ctx.skip(typeof prepare === 'string', String(prepare));
    const user = await createUser(pair.store, 'guessed');
    const attempt = (instance: Instance, password: string, address: string) =>
      createToken({ client: instance.client(), body: { email: user.email, password }, headers: from(address) });

    const failures = [];
    for (let i = 0; i < F; i++) {
      const instance = i % 2 === 0 ? pair.a : pair.b;
      failures.push({
        on: instance.name,
        status: (await attempt(instance, WRONG_PASSWORD, '203.0.113.10')).response?.status,
      });
    }
    expect(failures).toEqual(failures.map(({ on }) => ({ on, status: 401 })));

    const next = {
      B: await attempt(pair.b, user.password, '203.0.113.10'),
      A: await attempt(pair.a, user.password, '203.0.113.10'),
    };
    expect({ B: next.B.response?.status, A: next.A.response?.status }).toEqual({ B: 429, A: 429 });
    for (const answer of [next.B, next.A]) {
      expect(expectProblem(answer, 429, 'rate-limited').detail).toContain('login-failures-per-email-and-client quota');
    }
    // The quota is that client's: the account's owner, elsewhere, still signs in.
    expect((await attempt(pair.b, user.password, '198.51.100.20')).response?.status).toBe(200);
  });

  test(`when ${G} wrong passwords for one e-mail from as many clients are spread over A and B, then its next login from any client on either is 429`, async (ctx) => {
    ctx.skip(typeof prepare === 'string', String(prepare));
    const user = await createUser(pair.store, 'targeted');
    const attempt = (instance: Instance, password: string, address: string) =>
      createToken({ client: instance.client(), body: { email: user.email, password }, headers: from(address) });

    // Each from its own address: the per-client quota (F) is never reached.
    const failures = [];
    for (let i = 0; i < G; i++) {
      const instance = i % 2 === 0 ? pair.a : pair.b;
      failures.push({
        on: instance.name,
        status: (await attempt(instance, WRONG_PASSWORD, `203.0.113.${100 + i}`)).response?.status,
      });
    }
    expect(failures).toEqual(failures.map(({ on }) => ({ on, status: 401 })));

    const next = {
      B: await attempt(pair.b, user.password, '198.51.100.30'),
      A: await attempt(pair.a, user.password, '198.51.100.31'),
    };
    expect({ B: next.B.response?.status, A: next.A.response?.status }).toEqual({ B: 429, A: 429 });
    for (const answer of [next.B, next.A]) {
      expect(expectProblem(answer, 429, 'rate-limited').detail).toContain('login-failures-per-email quota');
    }
  });
});
