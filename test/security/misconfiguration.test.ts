// OWASP API8:2023 Security Misconfiguration: security headers on every kind of answer (the
// app's, the docs', and those the server writes itself), no X-Powered-By, no caching of tokens
// or user data, nothing served outside the contract (404 not-found), and methods outside the
// contract refused with 405 method-not-allowed and an exact Allow header. CORS:
// test/security/cors.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem } from '../support/problem.ts';
import { answer, concretePath, contractMethods, rawAsAnswer, rawRequest, type RawAnswer } from '../support/raw-http.ts';

let app: TestApp;
let user: Awaited<ReturnType<TestApp['userClient']>>;
let schoolId: string;

beforeAll(async () => {
  app = await startTestApp();
  schoolId = (await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]))[0]!.id;
  user = await app.userClient();
});
afterAll(() => app.close());

const json = { 'content-type': 'application/json' };

function expectAppHeaders(headers: Headers, what: string): void {
  expect(headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(headers.get('x-frame-options'), what).toBe('DENY');
  expect(headers.get('content-security-policy'), what).toContain("frame-ancestors 'none'");
  expect(headers.get('x-powered-by'), what).toBeNull();
  expect(headers.get('server'), what).toBeNull();
  expect(headers.get('x-request-id'), what).toBeTruthy();
}

describe('API8: security headers', () => {
  test('when the app answers anything (JSON, 204, problem, SVG, docs, contract, HEAD), then it carries the security headers and no X-Powered-By', async () => {
    const auth = { Authorization: `Bearer ${user.token}` };
    const spare = await app.services.auth.login(user.email, user.password);
    const requests: Array<[string, string, RequestInit?]> = [
      ['search 200', '/v1/fetchSchoolSearch?query=harvard', { headers: auth }],
      ['account 200', '/v1/fetchMyData', { headers: auth }],
      ['history 200', '/v1/fetchMyRequests', { headers: auth }],
      ['tokens 200', '/v1/tokens', { headers: auth }],
      [
        'login 200',
        '/v1/auth',
        { method: 'POST', headers: json, body: JSON.stringify({ email: user.email, password: user.password }) },
      ],
      ['revoke 204', `/v1/tokens/${spare.tokenId}`, { method: 'DELETE', headers: auth }],
      ['image 200', `/images/schools/${schoolId}.svg`],
      ['live 200', '/health/live'],
      ['ready 200', '/health/ready'],
      ['HEAD 200', '/health/live', { method: 'HEAD' }],
      ['docs 200', '/docs/'],
      ['contract 200', '/openapi.json'],
      ['problem page 200', '/problems/not-found'],
      ['400', '/v1/fetchSchoolSearch?query=', { headers: auth }],
      ['401', '/v1/fetchMyData'],
      [
        '401 login',
        '/v1/auth',
        { method: 'POST', headers: json, body: JSON.stringify({ email: user.email, password: 'wrong-password' }) },
      ],
      ['404', '/nope'],
      ['405', '/v1/fetchMyData', { method: 'PUT' }],
      // A stream body is sent chunked, without Content-Length: the app's parser refuses it.
      [
        '413 (parsed)',
        '/v1/auth',
        {
          method: 'POST',
          headers: json,
          body: new Blob(['{"email":"', 'x'.repeat(20_000), '"}']).stream(),
          duplex: 'half',
        } as RequestInit,
      ],
      ['415', '/v1/auth', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
      ['malformed json', '/v1/auth', { method: 'POST', headers: json, body: '{' }],
    ];
    for (const [what, path, init] of requests) {
      const r = await fetch(`${app.baseUrl}${path}`, init);
      await r.arrayBuffer();
      expectAppHeaders(r.headers, what);
    }
  });

  test('when the server answers before the app (431, unreadable request, missing Host, declared oversized body), then problem+json with nosniff and no X-Powered-By', async () => {
    const cases: Array<[string, string, number, string]> = [
      ['431', `GET /health/live HTTP/1.1\r\nHost: x\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`, 431, 'headers-too-large'],
      ['broken request line', 'GARBAGE\r\n\r\n', 400, 'bad-request'],
      ['unknown method token', 'FOO /health/live HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad-request'],
      ['no Host', 'GET /health/live HTTP/1.1\r\n\r\n', 400, 'bad-request'],
      [
        '413 declared',
        `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`,
        413,
        'payload-too-large',
      ],
    ];
    for (const [what, request, status, slug] of cases) {
      const raw = await rawRequest(app.baseUrl, request);
      expect(raw, what).toBeDefined();
      expectProblem(rawAsAnswer(raw), status, slug);
      expect(raw!.headers['x-content-type-options'], what).toBe('nosniff');
      expect(raw!.headers['x-powered-by'], what).toBeUndefined();
    }
  });

  test('when tokens are issued (login, rotation), then Cache-Control is no-store', async () => {
    const login = await fetch(`${app.baseUrl}/v1/auth`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(login.status).toBe(200);
    expect(login.headers.get('cache-control')).toBe('no-store');
    const { token } = (await login.json()) as { token: string };
    const rotated = await fetch(`${app.baseUrl}/v1/auth/rotate`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
  });

  // The user's own data (account, history, token list, the search answer with its request
  // record) must not be kept by a browser or a shared cache (found missing by this suite).
  test('when the caller reads their own data, then Cache-Control is no-store', async () => {
    const auth = { Authorization: `Bearer ${user.token}` };
    for (const path of [
      '/v1/fetchMyData',
      '/v1/fetchMyRequests',
      '/v1/tokens',
      '/v1/fetchSchoolSearch?query=harvard',
    ]) {
      const r = await fetch(`${app.baseUrl}${path}`, { headers: auth });
      expect(r.status, path).toBe(200);
      expect(r.headers.get('cache-control'), path).toMatch(/\bno-store\b/);
    }
  });
});

describe('API8: nothing is served outside the contract', () => {
  test.each([
    '/v2/x',
    '/admin',
    '/.env',
    '/.git/config',
    '/v1/users',
    '/v1/admin',
    '/v1',
    '/api',
    '/openapi.yaml',
    '/package.json',
    '/data/school-search.db',
    '/src/app.ts',
    '/server-status',
    '/actuator/health',
    '/metrics',
    '/debug',
    '/phpinfo.php',
    '/%2e%2e/package.json',
    '/images/schools/',
    '/images/../package.json',
    '/v1/tokens/x/y',
    '/health',
    '/problems/',
    // Swagger UI serves only the files its page loads, not the rest of swagger-ui-dist.
    '/docs/README.md',
    '/docs/swagger-ui.js.map',
    '/docs/index.js',
    '/docs/absolute-path.js',
    '/docs/package.json',
    '/docs/nope',
    // The dashboard serves its page and its two hashed files, nothing else of src/dashboard.
    '/dashboard/main.ts',
    '/dashboard/index.html',
    '/dashboard/app.js',
    '/dashboard/views/keys.ts',
    '/dashboard/nope/x',
  ])('when %s is requested, then 404 not-found problem+json', async (path) => {
    const r = await answer(
      await fetch(`${app.baseUrl}${path}`, { headers: { Authorization: `Bearer ${user.token}` } }),
    );
    expectProblem(r, 404, 'not-found');
  });

  test('when / is requested, then a browser is sent to the dashboard and a program gets links, nothing else', async () => {
    const browser = await fetch(`${app.baseUrl}/`, {
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
      redirect: 'manual',
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/dashboard');
    const program = await fetch(`${app.baseUrl}/`, { headers: { Accept: 'application/json' } });
    expect(Object.keys((await program.json()) as object).sort()).toEqual(['links', 'name']);
  });

  test('when an undocumented path is asked with other methods, then 404 too (nothing routes it)', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await answer(
        await fetch(`${app.baseUrl}/admin`, { method, headers: json, body: method === 'DELETE' ? undefined : '{}' }),
      );
      expectProblem(r, 404, 'not-found');
    }
  });

  test('when the Swagger UI page is loaded, then every file it references is served', async () => {
    const page = await fetch(`${app.baseUrl}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const files = [...html.matchAll(/(?:href|src)="\.\/([^"]+)"/g)].map((m) => m[1]!);
    expect(files).toEqual(
      expect.arrayContaining([
        'swagger-ui.css',
        'swagger-ui-bundle.js',
        'swagger-ui-standalone-preset.js',
        'swagger-ui-init.js',
      ]),
    );
    for (const file of files) expect((await fetch(`${app.baseUrl}/docs/${file}`)).status, file).toBe(200);
  });

  test('when a path climbs out with ../ as sent on the wire, then 404, never a file', async () => {
    for (const path of [
      '/v1/auth/../../package.json',
      '/images/schools/../../../.env',
      '/problems/..%2f..%2fpackage.json',
      '/v1/../src/app.ts',
    ]) {
      const raw = await rawRequest(app.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expectProblem(rawAsAnswer(raw), 404, 'not-found');
    }
    // Under /docs the static files of Swagger UI answer (a plain-text 404), but never with a file
    // from outside them.
    for (const path of [
      '/docs/../package.json',
      '/docs/../../package.json',
      '/docs/%2e%2e/%2e%2e/package.json',
      '/docs/..%2f..%2fpackage.json',
    ]) {
      const raw = await rawRequest(app.baseUrl, `GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expect(raw, path).toBeDefined();
      expect([200, 404], path).toContain(raw!.status);
      expect(raw!.body, path).not.toContain('school-search-api');
      expect(raw!.body, path).not.toContain('"dependencies"');
    }
  });
});

describe('API8: methods outside the contract', () => {
  const METHODS = contractMethods();
  const cases: Array<[string, string, string[]]> = [];
  for (const [template, allowed] of METHODS) {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']) {
      const served = allowed.includes(method) || (method === 'HEAD' && allowed.includes('GET'));
      if (!served) cases.push([method, template, allowed]);
    }
  }

  test('every documented path has at least one method outside the contract to try', () => {
    expect(new Set(cases.map(([, path]) => path))).toEqual(new Set(METHODS.keys()));
  });

  test.each(cases)(
    'when %s %s is requested, then 405 method-not-allowed with Allow listing exactly the contract methods',
    async (method, template, allowed) => {
      const response = await fetch(`${app.baseUrl}${concretePath(template)}`, {
        method,
        headers: { Authorization: `Bearer ${user.token}`, ...json },
        body: ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined,
      });
      // HEAD answers carry no body: check the status and headers only.
      if (method === 'HEAD') {
        expect(response.status).toBe(405);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      } else {
        expectProblem(await answer(response), 405, 'method-not-allowed');
      }
      const listed = (response.headers.get('allow') ?? '').split(/,\s*/).filter(Boolean);
      // HEAD is listed exactly where GET is: the app answers it (RFC 9110).
      expect(listed.sort()).toEqual([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])].sort());
    },
  );

  test.each(['TRACE', 'PROPFIND', 'MKCOL', 'PURGE'])(
    'when %s (sent raw) asks for a documented path, then 405 with Allow, and nothing is echoed',
    async (method) => {
      const raw = await rawRequest(
        app.baseUrl,
        `${method} /v1/fetchMyData HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${user.token}\r\nX-Echo: echo-me\r\n\r\n`,
      );
      expectProblem(rawAsAnswer(raw), 405, 'method-not-allowed');
      expect(raw!.headers['allow']).toBe('GET, HEAD');
      expect(raw!.body).not.toContain('echo-me');
      expect(raw!.body).not.toContain(user.token);
    },
  );

  test('when OPTIONS is sent without a CORS preflight, then 405 with Allow (a preflight is answered: cors.test.ts)', async () => {
    const r = await fetch(`${app.baseUrl}/v1/fetchMyData`, { method: 'OPTIONS' });
    expectProblem(await answer(r), 405, 'method-not-allowed');
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });

  test('when CONNECT is sent, then the server is not a proxy: no success answer, the connection ends', async () => {
    const raw: RawAnswer | undefined = await rawRequest(
      app.baseUrl,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      1500,
    );
    if (raw) expect(raw.status).toBeGreaterThanOrEqual(400);
  });
});
