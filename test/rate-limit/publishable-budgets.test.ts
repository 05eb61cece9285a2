// A publishable key's budgets (issue 40): per key a minute and a day, as its owner set them, and
// each visitor's share under them (one client address; behind a proxy, as TRUST_PROXY says), so
// one visitor or bot cannot spend a site's budget. A page's searches never spend the owner's own
// search quota, nor the other way round.
import { request } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { createPublishableKey, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const PAGE = 'https://www.example.org';
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function start(searchPerUser = 0, trustProxy: number | false = 1): Promise<TestApp> {
  // Behind one proxy (by default): X-Forwarded-For names the visitor.
  app = await startTestApp({ rateLimits: { ...RATE_LIMITS_OFF, searchPerUser }, trustProxy });
  await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
  return app;
}

async function publishable(a: TestApp, budgets: Record<string, number>) {
  const user = await a.userClient();
  const r = await createPublishableKey({
    client: user.client,
    body: { name: 'school field', origins: [PAGE], current_password: user.password, ...budgets },
  });
  expect(r.response!.status).toBe(201);
  return { user, key: r.data!.token };
}

const visit = (a: TestApp, key: string, visitor: string) =>
  fetch(`${a.baseUrl}/v1/fetchSchoolSearch?query=harvard&key=${key}`, {
    headers: { Origin: PAGE, 'X-Forwarded-For': visitor },
  });

async function refusedBy(response: Response, policy: string) {
  expect(response.status).toBe(429);
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const body = (await response.json()) as { type: string; detail: string };
  expect(body.type).toBe('/problems/rate-limited');
  expect(body.detail).toContain(policy);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
  // The page can read why, and when to come back.
  expect(response.headers.get('access-control-allow-origin')).toBe(PAGE);
}

/** A search from the client address `from` itself (any of 127.0.0.0/8 is this machine's on Linux). */
function visitFrom(a: TestApp, key: string, from: string, forwardedFor?: string): Promise<number> {
  const url = new URL(`${a.baseUrl}/v1/fetchSchoolSearch?query=harvard&key=${key}`);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { localAddress: from, headers: { Origin: PAGE, ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('a publishable key: per visitor, per minute, per day', () => {
  test('when two client addresses share a key without a proxy, then one is refused its share and the other is served; a forged X-Forwarded-For changes nothing', async () => {
    const a = await start(0, false);
    const { key } = await publishable(a, { visitor_searches_per_minute: 2 });
    expect(await visitFrom(a, key, '127.0.0.1')).toBe(200);
    // Not trusted without TRUST_PROXY: the same visitor, whatever it claims.
    expect(await visitFrom(a, key, '127.0.0.1', '203.0.113.99')).toBe(200);
    expect(await visitFrom(a, key, '127.0.0.1', '198.51.100.1')).toBe(429);
    expect(await visitFrom(a, key, '127.0.0.2')).toBe(200);
    expect(await visitFrom(a, key, '127.0.0.2')).toBe(200);
    expect(await visitFrom(a, key, '127.0.0.2')).toBe(429);
  });

  test('when one visitor has used their share, then they get 429 and another visitor of the same key is still served', async () => {
    const a = await start();
    const { key } = await publishable(a, { visitor_searches_per_minute: 2 });
    for (let i = 0; i < 2; i++) {
      const ok = await visit(a, key, '203.0.113.7');
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit')).toMatch(/"publishable-key-per-visitor"; r=\d+; t=\d+/);
    }
    await refusedBy(await visit(a, key, '203.0.113.7'), 'publishable-key-per-visitor');
    expect((await visit(a, key, '198.51.100.20')).status).toBe(200);
  });

  test('when the visitors together have used the key’s minute, then every visitor gets 429 until the window ends', async () => {
    const a = await start();
    const { key } = await publishable(a, { searches_per_minute: 3, visitor_searches_per_minute: 2 });
    expect((await visit(a, key, '203.0.113.1')).status).toBe(200);
    expect((await visit(a, key, '203.0.113.2')).status).toBe(200);
    expect((await visit(a, key, '203.0.113.3')).status).toBe(200);
    await refusedBy(await visit(a, key, '203.0.113.4'), 'publishable-key-per-minute');
  });

  test('when the key’s day is spent, then 429 naming the day’s budget', async () => {
    const a = await start();
    const { key } = await publishable(a, { searches_per_day: 2 });
    expect((await visit(a, key, '203.0.113.1')).status).toBe(200);
    expect((await visit(a, key, '203.0.113.2')).status).toBe(200);
    const refused = await visit(a, key, '203.0.113.3');
    await refusedBy(refused, 'publishable-key-per-day');
    // A day's window: more than the minute's.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3600);
  });

  test("when the owner's own searches have used their quota, then the page's key is still served, and the page's searches spend nothing of the owner's", async () => {
    const a = await start(2);
    const { user, key } = await publishable(a, {});
    for (let i = 0; i < 4; i++) expect((await visit(a, key, `203.0.113.${i}`)).status).toBe(200);
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(429);
    expect((await visit(a, key, '203.0.113.9')).status).toBe(200);
  });
});
