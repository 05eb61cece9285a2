// OWASP API8:2023 Security Misconfiguration, the CORS part. Tokens travel in the Authorization
// header, never in cookies, so by default any origin may call the API (`*`) and credentials are
// never allowed; a browser script may read the headers it needs (request id, back-off, quotas).
// Operators can restrict origins (CORS_ORIGINS) or turn CORS off.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPublishableKey } from '../../generated/sdk.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem } from '../support/problem.ts';
import { answer } from '../support/raw-http.ts';

const ORIGIN = 'https://app.example';
const EXPOSED = ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy'];

const list = (value: string | null) =>
  (value ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

function preflight(baseUrl: string, path: string, method: string, headers: string, origin = ORIGIN) {
  return fetch(`${baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': headers },
  });
}

describe('CORS with the default policy (any origin, no credentials)', () => {
  let app: TestApp;
  let token: string;
  beforeAll(async () => {
    app = await startTestApp();
    await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
    token = (await app.userClient()).token;
  });
  afterAll(() => app.close());

  test('when a browser preflights a search with Authorization, then 204 allowing any origin, GET and Authorization, without credentials', async () => {
    const r = await preflight(app.baseUrl, '/v1/fetchSchoolSearch', 'GET', 'authorization');
    expect(r.status).toBe(204);
    expect(await r.text()).toBe('');
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    expect(list(r.headers.get('access-control-allow-headers'))).toContain('authorization');
    expect(list(r.headers.get('access-control-allow-methods'))).toContain('get');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('when a browser preflights a login with a JSON body, then POST and Content-Type are allowed', async () => {
    const r = await preflight(app.baseUrl, '/v1/auth', 'POST', 'content-type');
    expect(r.status).toBe(204);
    expect(list(r.headers.get('access-control-allow-methods'))).toContain('post');
    expect(list(r.headers.get('access-control-allow-headers'))).toContain('content-type');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('when a preflight asks for a method no operation has, then it is not among the allowed methods', async () => {
    const r = await preflight(app.baseUrl, '/v1/fetchMyData', 'PUT', 'authorization');
    const allowed = list(r.headers.get('access-control-allow-methods'));
    for (const method of ['put', 'trace', 'connect']) expect(allowed).not.toContain(method);
  });

  test('when a browser preflights, then the answer may be cached for two hours (the most Chromium keeps), PATCH included for key updates', async () => {
    const r = await preflight(
      app.baseUrl,
      '/v1/keys/0b7a1c52-9f0e-4f5c-8a3d-2e6b7c8d9e0f',
      'PATCH',
      'authorization,content-type',
    );
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-max-age')).toBe('7200');
    expect(list(r.headers.get('access-control-allow-methods'))).toContain('patch');
  });

  test('when a cross-origin search answers, then the script may read X-Request-Id, Retry-After and the RateLimit headers, and no credentials are allowed', async () => {
    const r = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=harvard`, {
      headers: { Origin: ORIGIN, Authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = list(r.headers.get('access-control-expose-headers'));
    for (const name of EXPOSED) expect(exposed).toContain(name.toLowerCase());
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });

  test('when a cross-origin request fails (401, 404, 405), then the problem is readable by the script too', async () => {
    const answers = [
      [await fetch(`${app.baseUrl}/v1/fetchMyData`, { headers: { Origin: ORIGIN } }), 401, 'unauthorized'],
      [await fetch(`${app.baseUrl}/nope`, { headers: { Origin: ORIGIN } }), 404, 'not-found'],
      [
        await fetch(`${app.baseUrl}/v1/fetchMyData`, { method: 'PUT', headers: { Origin: ORIGIN } }),
        405,
        'method-not-allowed',
      ],
    ] as const;
    for (const [response, status, slug] of answers) {
      expectProblem(await answer(response), status, slug);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(list(response.headers.get('access-control-expose-headers'))).toContain('x-request-id');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  test('when the request carries cookies, then they still authenticate nobody and credentials stay disallowed', async () => {
    const r = await fetch(`${app.baseUrl}/v1/fetchMyData`, { headers: { Origin: ORIGIN, Cookie: `token=${token}` } });
    expectProblem(await answer(r), 401, 'unauthorized');
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('CORS restricted to listed origins', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ corsOrigins: [ORIGIN] });
  });
  afterAll(() => app.close());

  test('when a listed origin preflights, then it is echoed (with Vary: Origin); an unlisted one gets no Allow-Origin', async () => {
    const ok = await preflight(app.baseUrl, '/v1/fetchSchoolSearch', 'GET', 'authorization');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(list(ok.headers.get('vary'))).toContain('origin');
    const evil = await preflight(app.baseUrl, '/v1/fetchSchoolSearch', 'GET', 'authorization', 'https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const live = await fetch(`${app.baseUrl}/health/live`, { headers: { Origin: 'https://evil.example' } });
    expect(live.headers.get('access-control-allow-origin')).toBeNull();
    // A look-alike origin is not the listed one.
    const lookalike = await preflight(
      app.baseUrl,
      '/v1/fetchSchoolSearch',
      'GET',
      'authorization',
      'https://app.example.evil.example',
    );
    expect(lookalike.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS turned off', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ corsOrigins: 'none' });
  });
  afterAll(() => app.close());

  test('when CORS is off, then no answer carries Access-Control headers, and a preflight is an undocumented method (405)', async () => {
    const r = await preflight(app.baseUrl, '/v1/fetchSchoolSearch', 'GET', 'authorization');
    expectProblem(await answer(r), 405, 'method-not-allowed');
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    const live = await fetch(`${app.baseUrl}/health/live`, { headers: { Origin: ORIGIN } });
    expect(live.headers.get('access-control-allow-origin')).toBeNull();
  });

  test("when a page searches with a publishable key that lists it, then the answer carries CORS for that page alone, whatever the operator's policy for programs", async () => {
    await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]);
    const user = await app.userClient();
    const key = await createPublishableKey({
      client: user.client,
      body: { name: 'page', origins: [ORIGIN], current_password: user.password },
    });
    const page = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=harvard&key=${key.data!.token}`, {
      headers: { Origin: ORIGIN },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(list(page.headers.get('access-control-expose-headers'))).toContain('ratelimit');
    expect(list(page.headers.get('vary'))).toContain('origin');
    // The same search with the owner's session from that page: a program's request, no CORS.
    const program = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=harvard`, {
      headers: { Origin: ORIGIN, Authorization: `Bearer ${user.token}` },
    });
    expect(program.status).toBe(200);
    expect(program.headers.get('access-control-allow-origin')).toBeNull();
  });
});
