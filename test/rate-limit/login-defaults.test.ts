// OWASP API2:2023 (brute force, credential stuffing) and API4:2023 (unrestricted resource
// consumption) through the login rate limits, with the production defaults of src/config.ts:
// at most 10 failed logins per e-mail from one client (100 from all clients) and 30 attempts per
// client per minute; over any quota
// 429 problem+json with Retry-After and the IETF RateLimit / RateLimit-Policy headers.
// The limiter's mechanics (per-user search quota, windows, X-Forwarded-For and trust proxy,
// successful logins not counted, the all-clients ceiling) are tested in test/rate-limit/limits.test.ts.
import { afterEach, describe, expect, test } from 'vitest';
import { createToken } from '../../generated/sdk.gen.ts';
import { loadConfig } from '../../src/config.ts';
import { CountingHasher, startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem } from '../support/problem.ts';

/** The problem type of a 429 (src/http/problems/problems.ts: PROBLEMS.rateLimited). */
const THROTTLED = 'rate-limited';
const DEFAULTS = loadConfig({}).rateLimits;

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function expectThrottled(r: Awaited<ReturnType<typeof createToken>>, quota: string): void {
  expectProblem(r, 429, THROTTLED);
  const headers = r.response!.headers;
  expect(headers.get('retry-after')).toMatch(/^\d+$/);
  const seconds = Number(headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(DEFAULTS.windowSeconds);
  expect(headers.get('ratelimit')).toContain(`"${quota}"; r=0`);
  expect(headers.get('ratelimit-policy')).toContain(`"${quota}"`);
  // No token, whatever the password was.
  expect(JSON.stringify((r as { error?: unknown }).error)).not.toContain('ssk_');
}

test('the production defaults limit logins (these tests rely on them)', () => {
  expect(DEFAULTS.loginFailuresPerEmailAndClient).toBe(10);
  expect(DEFAULTS.loginFailuresPerEmail).toBe(100);
  expect(DEFAULTS.loginPerClient).toBe(30);
});

describe('API2: password guessing against one account', () => {
  test('when one e-mail fails 10 times, then the 11th attempt is 429 even with the right password, and no hash is checked', async () => {
    const hasher = new CountingHasher();
    app = await startTestApp({ hasher, rateLimits: DEFAULTS });
    await app.services.auth.createUser('victim@example.com', 'right-password-1');
    for (let i = 0; i < DEFAULTS.loginFailuresPerEmailAndClient; i++) {
      const guess = await createToken({
        client: app.client(),
        body: { email: 'victim@example.com', password: `guess-${i}-password` },
      });
      expectProblem(guess, 401, 'invalid-credentials');
      expect(guess.response!.headers.get('ratelimit')).toMatch(/"login-failures-per-email-and-client"; r=\d+/);
    }
    const checked = hasher.verifications;
    const right = await createToken({
      client: app.client(),
      body: { email: 'victim@example.com', password: 'right-password-1' },
    });
    expectThrottled(right, 'login-failures-per-email-and-client');
    const wrong = await createToken({
      client: app.client(),
      body: { email: 'Victim@Example.com', password: 'guess-x-password' },
    });
    expectThrottled(wrong, 'login-failures-per-email-and-client');
    // Refused before argon2: a throttled guess costs the server nothing and tells nothing.
    expect(hasher.verifications).toBe(checked);
    const { request_id: _a, ...a } = (right as { error?: unknown }).error as Record<string, unknown>;
    const { request_id: _b, ...b } = (wrong as { error?: unknown }).error as Record<string, unknown>;
    expect(a).toEqual(b);
  });

  test('when an e-mail without an account is guessed at, then it is throttled the same way (the limiter reveals no accounts)', async () => {
    app = await startTestApp({ rateLimits: DEFAULTS });
    await app.services.auth.createUser('real@example.com', 'right-password-1');
    const statuses = async (email: string) => {
      const seen: number[] = [];
      for (let i = 0; i <= DEFAULTS.loginFailuresPerEmailAndClient; i++) {
        seen.push(
          (await createToken({ client: app!.client(), body: { email, password: `guess-${i}-password` } })).response!
            .status,
        );
      }
      return seen;
    };
    const real = await statuses('real@example.com');
    const ghost = await statuses('ghost@example.com');
    expect(real).toEqual([...Array(DEFAULTS.loginFailuresPerEmailAndClient).fill(401), 429]);
    expect(ghost).toEqual(real);
  });
});

describe('API2/API4: credential stuffing from one client', () => {
  test('when one client tries many accounts, then it is throttled after 30 attempts a minute', async () => {
    app = await startTestApp({ rateLimits: DEFAULTS });
    await app.services.auth.createUser('stuffed@example.com', 'right-password-1');
    for (let i = 0; i < DEFAULTS.loginPerClient; i++) {
      const r = await createToken({
        client: app.client(),
        body: { email: `list${i}@example.com`, password: 'leaked-password-1' },
      });
      expectProblem(r, 401, 'invalid-credentials');
    }
    const refused = await createToken({
      client: app.client(),
      body: { email: 'stuffed@example.com', password: 'right-password-1' },
    });
    expectThrottled(refused, 'login-per-client');
    // Spoofing X-Forwarded-For buys nothing on a server that trusts no proxy (the default).
    const spoofed = await createToken({
      client: app.client({ 'X-Forwarded-For': '198.51.100.7' }),
      body: { email: 'stuffed@example.com', password: 'right-password-1' },
    });
    expectThrottled(spoofed, 'login-per-client');
  });

  test('when logins run in parallel, then the quota still holds (no race lets extra attempts through)', async () => {
    app = await startTestApp({ rateLimits: DEFAULTS });
    const attempts = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        createToken({ client: app!.client(), body: { email: `burst${i}@example.com`, password: 'leaked-password-1' } }),
      ),
    );
    const statuses = attempts.map((r) => r.response!.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(DEFAULTS.loginPerClient);
    expect(statuses.filter((s) => s === 429)).toHaveLength(60 - DEFAULTS.loginPerClient);
  });
});
