// HTTP-level behaviour every operation shares: HEAD, ambiguous credentials, unparseable requests,
// body typing, what is logged, and a store that another process is writing to.
import { request } from 'node:http';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, fetchMyData, fetchSchoolSearch, getSchoolImage, revokeMyToken } from '../../generated/sdk.gen.ts';
import { InvalidInputError } from '../../src/domain/shared/errors.ts';
import { cheapHasher, CountingHasher, startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';

/** The status of a GET of `target` sent exactly as written (fetch would drop a fragment). */
function rawQueryStatus(target: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const { hostname, port } = new URL(app.baseUrl);
    const req = request({ hostname, port, path: target, headers: { Authorization: `Bearer ${user.token}` } });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A GET sent with exactly these headers. Not fetch: with a conditional header, fetch adds
 * `Cache-Control: no-cache` (the Fetch standard's cache mode), which hides what a plain client sees.
 */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(app.baseUrl);
    const req = request({ hostname, port, path, headers: { Authorization: `Bearer ${user.token}`, ...headers } });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The cheap test hasher, counting how often a password is checked. */
const hasher = new CountingHasher();
const logLines: string[] = [];
let app: TestApp;
let user: Awaited<ReturnType<TestApp['userClient']>>;
let schoolId: string;

beforeAll(async () => {
  app = await startTestApp({ hasher, logLines });
  schoolId = (await app.seed([{ schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' }]))[0]!.id;
  user = await app.userClient();
});
afterAll(() => app.close());

describe('HEAD', () => {
  test('when a GET operation is asked with HEAD, then it answers like GET without a body', async () => {
    const r = await fetch(`${app.baseUrl}/health/live`, { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.text()).toBe('');
  });
});

describe('conditional requests', () => {
  test.each([
    ['If-None-Match: *', { 'If-None-Match': '*' }],
    ['If-None-Match with a made-up tag', { 'If-None-Match': 'W/"x"' }],
    ['If-Modified-Since in the future', { 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() }],
    ['both', { 'If-None-Match': '*', 'If-Modified-Since': new Date(Date.now() + 86_400_000).toUTCString() }],
  ])('when a search carries %s, then it answers 200 with its body and is metered once', async (_what, headers) => {
    const before = (await fetchMyData({ client: user.client })).data!.usage.request_count;
    const r = await rawGet('/v1/fetchSchoolSearch?query=harvard', headers);
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { apirequest: { tid: string } };
    expect(body.apirequest.tid).toMatch(/^[0-9a-f-]{36}$/);
    const after = (await fetchMyData({ client: user.client })).data!.usage.request_count;
    expect(after - before).toBe(1);
  });

  test('when the account is asked with If-None-Match: *, then it answers 200 with its body', async () => {
    const r = await rawGet('/v1/fetchMyData', { 'If-None-Match': '*' });
    expect(r.status).toBe(200);
    expect((JSON.parse(r.body) as { userId: string }).userId).toBe(user.userId);
  });
});

describe('ambiguous or malformed requests', () => {
  test('when two Authorization headers are sent, then 401 whatever their order', async () => {
    for (const pair of [
      [`Bearer ${user.token}`, 'Bearer ssk_garbage'],
      ['Bearer ssk_garbage', `Bearer ${user.token}`],
    ]) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(`${app.baseUrl}/v1/fetchMyData`, {
          headers: ['Host', '127.0.0.1', 'Authorization', pair[0]!, 'Authorization', pair[1]!] as never,
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(401);
    }
  });

  test('when the headers are larger than Node accepts, then 431 problem+json', async () => {
    const r = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=${'x'.repeat(20_000)}`, {
      headers: user.client.getConfig().headers as never,
    });
    expectProblem({ response: r, error: await r.json() }, 431, 'headers-too-large');
  });

  test('when a body field has the wrong JSON type, then 400, never coerced', async () => {
    await app.services.auth.createUser('numeric@example.com', '12345678');
    const r = await createToken({
      client: app.client(),
      body: { email: 'numeric@example.com', password: 12345678 } as never,
      ...unchecked,
    });
    expectProblem(r, 400, 'validation-error');
  });

  test('when the body is JSON null or an array, then 400', async () => {
    for (const body of ['null', '[]']) {
      const r = await fetch(`${app.baseUrl}/v1/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    }
  });

  test('when a path has broken percent-encoding, then 400 about the path', async () => {
    const r = await fetch(`${app.baseUrl}/v1/tokens/%E0%A4%A`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${user.token}` },
    });
    const problem = expectProblem({ response: r, error: await r.json() }, 400, 'validation-error');
    expect(problem.errors![0]).toMatchObject({ location: 'path' });
  });

  // The validator reads the raw query string itself (patches/: without url.parse()); this pins
  // what it must still find in it.
  test('when a parameter without allowReserved carries a reserved character unencoded, then 400 saying so', async () => {
    const headers = user.client.getConfig().headers as never;
    const raw = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=harvard&level=high(`, { headers });
    const problem = expectProblem({ response: raw, error: await raw.json() }, 400, 'validation-error');
    expect(problem.errors).toEqual([expect.objectContaining({ location: 'query', name: 'level' })]);
    expect(problem.detail).toContain('must be url encoded');
    // Encoded, the same value is refused for what it is (not a level), not for how it was sent.
    const encoded = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=harvard&level=high%28`, { headers });
    const refused = expectProblem({ response: encoded, error: await encoded.json() }, 400, 'validation-error');
    expect(refused.detail).not.toContain('url encoded');
    // After a '#' nothing is query: a fragment never reaches the parameters.
    const fragment = await rawQueryStatus(`/v1/fetchSchoolSearch?query=harvard#&level=high(`);
    expect(fragment).toBe(200);
  });

  test('when an id is written in upper case, then it is the same id', async () => {
    const r = await getSchoolImage({
      client: app.client(),
      path: { schoolId: schoolId.toUpperCase() },
      parseAs: 'text',
    });
    expect(r.response!.status).toBe(200);
    const other = await app.services.auth.login(user.email, user.password);
    const revoked = await revokeMyToken({ client: user.client, path: { tokenId: other.tokenId.toUpperCase() } });
    expect(revoked.response!.status).toBe(204);
  });
});

describe('login timing and accounts', () => {
  test('when the e-mail is unknown, then a password hash is still checked (same cost as a wrong password)', async () => {
    const before = hasher.verifications;
    await createToken({ client: app.client(), body: { email: 'nobody-at-all@example.com', password: 'whatever-1' } });
    expect(hasher.verifications).toBe(before + 1);
  });

  test('when an operator creates an account the login operation could not accept, then it is refused', async () => {
    await expect(app.services.auth.createUser('josé@example.com', 'password-123')).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    await expect(app.services.auth.createUser('long@example.com', 'x'.repeat(1025))).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });

  test('when a password hash was made with other settings, then a successful login upgrades it', async () => {
    const { Argon2Hasher } = await import('../../src/security/argon2.hasher.ts');
    const other = new Argon2Hasher({ memoryCost: 2048, timeCost: 1, parallelism: 1 });
    const { userId } = await app.services.auth.createUser('rehash@example.com', 'password-123');
    const current = (await app.services.store.users.findById(userId))!.passwordHash;
    await app.services.store.users.rehash(userId, current, await other.hash('password-123'));
    await createToken({ client: app.client(), body: { email: 'rehash@example.com', password: 'password-123' } });
    const stored = (await app.services.store.users.findById(userId))!.passwordHash;
    expect(cheapHasher.needsRehash(stored)).toBe(false);
    expect(stored).toContain('m=1024');
  });
});

describe('logs', () => {
  test('when a request carries a tokenID and fails, then no token appears in any log line', async () => {
    const engine = app.services.engine;
    const original = engine.search.bind(engine);
    // A search never asked before: one asked before is answered again without the engine (src/domain/search/kept-answers.ts).
    engine.search = async () => {
      throw new Error(`boom with ${user.token}`);
    };
    try {
      const r = await fetchSchoolSearch({
        client: app.client(),
        query: { query: 'harvard, never asked before', tokenID: user.token },
      });
      expectProblem(r, 500, 'internal-error');
    } finally {
      engine.search = original;
    }
    const failed = logLines.filter((l) => l.includes('request failed'));
    expect(failed.length).toBeGreaterThan(0);
    for (const line of logLines) expect(line).not.toContain(user.token.slice(4));
  });

  test('when a token is pasted into a path or a request id, then the log line does not contain it', async () => {
    await fetch(`${app.baseUrl}/v1/tokens/${user.token}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${user.token}`, 'X-Request-Id': user.token },
    });
    const line = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).findLast((l) => l['msg'] === 'request')!;
    expect(line).toMatchObject({ method: 'DELETE', path: '/v1/tokens/ssk_[redacted]', status: 400 });
    for (const l of logLines) expect(l).not.toContain(user.token.slice(4));
  });

  test('when a HEAD request is logged, then its method is HEAD and its path is the full path', async () => {
    await fetch(`${app.baseUrl}/health/live`, { method: 'HEAD' });
    await fetch(`${app.baseUrl}/docs/`);
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'request');
    expect(lines.at(-2)).toMatchObject({ method: 'HEAD', path: '/health/live', status: 200 });
    expect(lines.at(-1)).toMatchObject({ method: 'GET', path: '/docs/', status: 200 });
  });
});

describe('a store that another process is writing to', () => {
  test('when another connection holds the write lock, then searches wait without blocking the server, and succeed after', async (ctx) => {
    ctx.skip(app.services.store.kind !== 'sqlite', 'about the embedded store: the app runs on MongoDB here');
    const other = new DatabaseSync(app.dbPath);
    other.exec('BEGIN IMMEDIATE');
    const search = fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = performance.now();
    const live = await fetch(`${app.baseUrl}/health/live`);
    const liveMs = performance.now() - started;
    expect(live.status).toBe(200);
    expect(liveMs).toBeLessThan(1000); // the event loop is free while the search waits
    other.exec('COMMIT');
    other.close();
    const r = await search;
    expect(r.response!.status).toBe(200);
    expect(r.data!.requestresult.schools[0]!.schoolname).toBe('Harvard University');
    expect((await fetchMyData({ client: user.client })).data!.usage.request_count).toBeGreaterThanOrEqual(1);
  });
});
