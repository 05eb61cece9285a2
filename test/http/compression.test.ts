// Compressed answers (src/http/compression/): Brotli or gzip as the request's Accept-Encoding
// asks, through the real app over raw HTTP (fetch would decompress before the test could look).
// The app runs as deployed, without response validation, as only then are answers compressed;
// the bodies are checked against the contract's schema here instead.
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { zProblem, zSchoolSearchResponse } from '../../generated/zod.gen.ts';
import type { SchoolSearchResponse } from '../../generated/types.gen.ts';
import { startTestApp, type TestApp } from '../support/app.ts';

const SCHOOLS = [
  ...Array.from({ length: 30 }, (_, i) => ({
    schoolname: `Lindenhurst Preparatory Academy ${i + 1}`,
    city: `Springfield ${i + 1}`,
    stateprovince: 'NY',
  })),
  { schoolname: 'Zephyr Academy', city: 'Boston', stateprovince: 'MA' },
];

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly bytes: Buffer;
}

/** One request as a browser or curl sends it, the answer's bytes as they came over the wire. */
function raw(app: TestApp, path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.baseUrl}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The body's text, decoded as its Content-Encoding says. */
function decoded(answer: Raw): string {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.bytes).toString();
  if (coding === 'gzip') return gunzipSync(answer.bytes).toString();
  expect(coding).toBeUndefined();
  return answer.bytes.toString();
}

function varyOf(answer: Raw): string[] {
  return String(answer.headers['vary'] ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());
}

describe('compressed answers', () => {
  let app: TestApp;
  let auth: Record<string, string>;

  beforeAll(async () => {
    app = await startTestApp({ validateResponses: false });
    await app.seed(SCHOOLS);
    const user = await app.userClient();
    auth = { authorization: `Bearer ${user.token}` };
  });
  afterAll(() => app?.close());

  const search = (query: string, headers: Record<string, string>, method = 'GET') =>
    raw(app, `/v1/fetchSchoolSearch?query=${encodeURIComponent(query)}&limit=25`, { ...auth, ...headers }, method);

  /** The answer as it comes over the wire, then as JSON (checked against the contract). */
  async function searchBody(query: string, headers: Record<string, string>) {
    const answer = await search(query, headers);
    expect(answer.status).toBe(200);
    const body = zSchoolSearchResponse.parse(JSON.parse(decoded(answer))) as SchoolSearchResponse;
    return { answer, body };
  }

  test('when a client accepts br and gzip, then a page of schools comes in Brotli, smaller, and reads as the same JSON', async () => {
    const plain = await searchBody('lindenhurst', {});
    const br = await searchBody('lindenhurst', { 'accept-encoding': 'br, gzip' });
    expect(plain.answer.headers['content-encoding']).toBeUndefined();
    expect(plain.answer.bytes.length).toBeGreaterThan(1024);
    expect(br.answer.headers['content-encoding']).toBe('br');
    expect(Number(br.answer.headers['content-length'])).toBe(br.answer.bytes.length);
    expect(br.answer.bytes.length).toBeLessThan(plain.answer.bytes.length / 2);
    expect(br.body.requestresult).toEqual(plain.body.requestresult);
    expect(br.body.requestresult.schools).toHaveLength(25);
    for (const answer of [plain.answer, br.answer]) expect(varyOf(answer)).toContain('accept-encoding');
  });

  test('when a client accepts gzip only, or prefers it by q-value, then the page comes in gzip', async () => {
    const plain = await searchBody('lindenhurst', {});
    for (const accept of ['gzip', 'br;q=0.5, gzip', 'deflate, gzip;q=0.8', 'br;q=0, *']) {
      const gzip = await searchBody('lindenhurst', { 'accept-encoding': accept });
      expect(gzip.answer.headers['content-encoding'], accept).toBe('gzip');
      expect(gzip.body.requestresult).toEqual(plain.body.requestresult);
    }
    const star = await searchBody('lindenhurst', { 'accept-encoding': '*' });
    expect(star.answer.headers['content-encoding']).toBe('br');
  });

  test('when a client accepts neither coding, then the page comes uncompressed, still varying by Accept-Encoding', async () => {
    for (const accept of ['identity', 'identity;q=0', 'deflate', 'br;q=0, gzip;q=0', 'gzip;q=2']) {
      const { answer } = await searchBody('lindenhurst', { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(varyOf(answer)).toContain('accept-encoding');
    }
  });

  test('when an answer is under 1 KiB, then it comes uncompressed whatever the client accepts', async () => {
    const { answer, body } = await searchBody('zephyr', { 'accept-encoding': 'br, gzip' });
    expect(body.requestresult.schools).toHaveLength(1);
    expect(answer.bytes.length).toBeLessThan(1024);
    expect(answer.headers['content-encoding']).toBeUndefined();
  });

  test('when a request is refused, then its problem is readable as it is, uncompressed', async () => {
    const answer = await raw(app, '/v1/fetchSchoolSearch?query=lindenhurst&limit=999', {
      ...auth,
      'accept-encoding': 'br, gzip',
    });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = zProblem.parse(JSON.parse(answer.bytes.toString()));
    expect(problem.type).toMatch(/validation/);
    const unauthenticated = await raw(app, '/v1/fetchSchoolSearch?query=lindenhurst', { 'accept-encoding': 'br' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers['content-encoding']).toBeUndefined();
    expect(zProblem.parse(JSON.parse(unauthenticated.bytes.toString())).type).toBe('/problems/unauthorized');
  });

  test('when a HEAD asks for a page, then its headers are the uncompressed answer’s, with no body', async () => {
    const answer = await search('lindenhurst', { 'accept-encoding': 'br, gzip' }, 'HEAD');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.bytes.length).toBe(0);
    expect(Number(answer.headers['content-length'])).toBeGreaterThan(1024);
  });

  test('when a kept answer is asked again in each coding, then it is spliced from kept bytes, and every answer still has a record of its own', async () => {
    const query = 'lindenhurst preparatory';
    const expected = (await searchBody(query, {})).body.requestresult;
    for (const coding of ['br', 'gzip'] as const) {
      const tids = new Set<string>();
      let spliced = 0;
      // The kept answer's compressed form is made in the thread pool on its first asking in a
      // coding (that answer is compressed whole): within a few askings, answers are spliced, the
      // record stored as it is in front of the kept bytes, where it can be read.
      for (let asked = 0; asked < 40 && spliced < 3; asked++) {
        const { answer, body } = await searchBody(query, { 'accept-encoding': coding });
        expect(answer.headers['content-encoding']).toBe(coding);
        expect(body.requestresult).toEqual(expected);
        expect(tids.has(body.apirequest.tid)).toBe(false);
        tids.add(body.apirequest.tid);
        if (answer.bytes.includes(`"tid":"${body.apirequest.tid}"`)) spliced++;
        else await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(spliced, coding).toBe(3);
    }
  });

  test('when the contract or the dashboard is fetched again, then it comes compressed once made, and reads the same', async () => {
    for (const path of ['/openapi.json', '/dashboard']) {
      const plain = await raw(app, path, {});
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      let answer = plain;
      // Compressed in the thread pool on the first request that accepts a coding.
      for (let asked = 0; asked < 40 && answer.headers['content-encoding'] !== 'br'; asked++) {
        if (asked > 0) await new Promise((resolve) => setTimeout(resolve, 25));
        answer = await raw(app, path, { 'accept-encoding': 'br, gzip' });
      }
      expect(answer.headers['content-encoding'], path).toBe('br');
      expect(varyOf(answer)).toContain('accept-encoding');
      expect(decoded(answer)).toBe(plain.bytes.toString());
      const gzip = await raw(app, path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(decoded(gzip)).toBe(plain.bytes.toString());
    }
  });
});
