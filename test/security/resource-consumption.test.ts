// OWASP API4:2023 Unrestricted Resource Consumption: page size, deep paging, query length,
// request body and header size are capped by the contract or the server, an oversized body is
// refused before it is read, slow clients are cut off, and neither slow nor huge requests stall
// anybody else. (Login and search quotas: test/rate-limit/login-defaults.test.ts.)
import { connect, type Socket } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fetchMyData, fetchMyRequests, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { MAX_BODY_BYTES, SERVER_LIMITS } from '../../src/http/server.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { answer, contractValue, rawAsAnswer, rawRequest, sleep, startBareServer, timed } from '../support/raw-http.ts';

const MAX_LIMIT = contractValue<number>('components/parameters/Limit/schema/maximum');
const MAX_OFFSET = contractValue<number>('components/parameters/Offset/schema/maximum');
const MAX_QUERY = contractValue<number>('components/schemas/SearchQuery/maxLength');

let app: TestApp;
let user: Awaited<ReturnType<TestApp['userClient']>>;

beforeAll(async () => {
  app = await startTestApp();
  // Enough schools that a careless query plan would show: common words, one-letter words.
  const words = [
    'University',
    'College',
    'School',
    'Academy',
    'Institute',
    'Community',
    'State',
    'Technical',
    'Saint',
    'Mary',
  ];
  await app.seed(
    Array.from({ length: 3000 }, (_, i) => ({
      schoolname: `${words[i % 10]} ${words[(i * 7) % 10]} of ${String.fromCharCode(65 + (i % 26))} ${i}`,
      city: 'Springfield',
      stateprovince: i % 2 ? 'IL' : 'MO',
    })),
  );
  user = await app.userClient();
});
afterAll(() => app.close());

const json = { 'content-type': 'application/json' };

describe('API4: what one request may ask for is bounded by the contract', () => {
  test('the contract caps the page at 25, the offset at 10000 and the query at 200 characters', () => {
    expect([MAX_LIMIT, MAX_OFFSET, MAX_QUERY]).toEqual([25, 10_000, 200]);
  });

  test('when a page larger than the cap is asked for, then 400 naming limit on every paged operation (not a silent clamp)', async () => {
    const search = (limit: unknown) =>
      fetchSchoolSearch({ client: user.client, query: { query: 'university', limit } as never, ...unchecked });
    const history = (limit: unknown) =>
      fetchMyRequests({ client: user.client, query: { limit } as never, ...unchecked });
    for (const ask of [search, history]) {
      expect((await ask(MAX_LIMIT)).response!.status).toBe(200);
      for (const limit of [MAX_LIMIT + 1, 1000, 2 ** 31, '1e9', -1, 0]) {
        const problem = expectProblem(await ask(limit), 400, 'validation-error');
        expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'query', name: 'limit' }));
      }
    }
    const page = await search(MAX_LIMIT);
    expect(page.data!.requestresult.schools).toHaveLength(MAX_LIMIT);
  });

  test('when paging deeper than the guard, then 400 naming offset on every paged operation', async () => {
    const search = (offset: unknown) =>
      fetchSchoolSearch({ client: user.client, query: { query: 'university', offset } as never, ...unchecked });
    const history = (offset: unknown) =>
      fetchMyRequests({ client: user.client, query: { offset } as never, ...unchecked });
    for (const ask of [search, history]) {
      expect((await ask(MAX_OFFSET)).response!.status).toBe(200);
      for (const offset of [MAX_OFFSET + 1, 10 ** 9, '99999999999999999999999', -1]) {
        const problem = expectProblem(await ask(offset), 400, 'validation-error');
        expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'query', name: 'offset' }));
      }
    }
  });

  test('when the query is longer than the cap, then 400 (10 kB) or 431 (20 kB, over the header limit)', async () => {
    const ask = (query: string) => fetchSchoolSearch({ client: user.client, query: { query }, ...unchecked });
    expect((await ask('u'.repeat(MAX_QUERY))).response!.status).toBe(200);
    for (const query of ['u'.repeat(MAX_QUERY + 1), 'university '.repeat(1000)]) {
      const problem = expectProblem(await ask(query), 400, 'validation-error');
      expect(problem.errors).toContainEqual(expect.objectContaining({ location: 'query', name: 'query' }));
    }
    const r = await fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=${'u'.repeat(20_000)}`, {
      headers: { Authorization: `Bearer ${user.token}` },
    });
    expectProblem(await answer(r), 431, 'headers-too-large');
  });

  test('when the costliest queries the contract allows are asked, then each answers within a second', async () => {
    const worst = [
      'u', // a one-letter word: whole words only
      'un', // a two-letter prefix of a third of the catalog
      'university college school academy institute',
      Array.from({ length: 100 }, (_, i) => String.fromCharCode(97 + (i % 26)))
        .join(' ')
        .slice(0, MAX_QUERY),
      'un co sc ac in st te sa ma of '.repeat(7).slice(0, MAX_QUERY),
    ];
    for (const query of worst) {
      for (const offset of [0, MAX_OFFSET]) {
        const { value: r, ms } = await timed(() =>
          fetchSchoolSearch({ client: user.client, query: { query, offset } }),
        );
        expect(r.response!.status).toBe(200);
        expect(ms, `${query.slice(0, 30)}… at offset ${offset}`).toBeLessThan(2000);
      }
    }
  });
});

describe('API4: request bodies and headers are bounded by the server', () => {
  test('when a JSON body is over 16 KiB (20 kB, or 20 kB sent chunked without a length), then 413 payload-too-large', async () => {
    const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(20_000) });
    expectProblem(
      await answer(await fetch(`${app.baseUrl}/v1/auth`, { method: 'POST', headers: json, body })),
      413,
      'payload-too-large',
    );
    const chunked = await rawRequest(
      app.baseUrl,
      `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        `${Buffer.byteLength(body).toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expectProblem(rawAsAnswer(chunked), 413, 'payload-too-large');
  });

  test('when a small gzip body inflates to 10 MB (a zip bomb), then 413: the limit applies to what is decoded', async () => {
    const bomb = gzipSync(JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(10_000_000) }));
    expect(bomb.length).toBeLessThan(MAX_BODY_BYTES);
    const r = await fetch(`${app.baseUrl}/v1/auth`, {
      method: 'POST',
      headers: { ...json, 'content-encoding': 'gzip' },
      body: bomb,
    });
    expectProblem(await answer(r), 413, 'payload-too-large');
  });

  test('when a 10 MB body is sent, then 413 at once: refused before it is read, and the connection closed', async () => {
    const whole = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(10 * 1024 * 1024) });
    const { value: r, ms } = await timed(async () =>
      answer(await fetch(`${app.baseUrl}/v1/auth`, { method: 'POST', headers: json, body: whole })),
    );
    expectProblem(r, 413, 'payload-too-large');
    expect(ms).toBeLessThan(2000);
    // Declared but not sent: an answer that waited for the body would never come.
    const raw = await rawRequest(
      app.baseUrl,
      [
        [
          0,
          `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n{"email":"`,
        ],
      ],
      3000,
    );
    expect(raw, 'no answer before the body was sent').toBeDefined();
    expectProblem(rawAsAnswer(raw), 413, 'payload-too-large');
    expect(raw!.ms).toBeLessThan(2000);
    expect(raw!.headers['connection']).toBe('close');
  });

  test('when one header is 20 kB, then 431 headers-too-large (the long URL case is in test/api/http.test.ts)', async () => {
    const r = await fetch(`${app.baseUrl}/v1/fetchMyData`, {
      headers: { Authorization: `Bearer ${user.token}`, Cookie: `c=${'x'.repeat(20_000)}` },
    });
    expectProblem(await answer(r), 431, 'headers-too-large');
  });
});

describe('API4: slow clients are cut off', () => {
  test('the server bounds the time to send headers (10 s) and a whole request (30 s); Node defaults are 60 s and 300 s', async () => {
    expect(SERVER_LIMITS.headersTimeoutMs).toBeLessThanOrEqual(10_000);
    expect(SERVER_LIMITS.requestTimeoutMs).toBeLessThanOrEqual(30_000);
    const bare = await startBareServer();
    try {
      expect(bare.server.headersTimeout).toBe(SERVER_LIMITS.headersTimeoutMs);
      expect(bare.server.requestTimeout).toBe(SERVER_LIMITS.requestTimeoutMs);
    } finally {
      await bare.close();
    }
  });

  test('when headers or a body trickle in slower than the limits, then 408 request-timeout problem+json and the connection is closed', async () => {
    const bare = await startBareServer({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
    try {
      const drip = (head: string, every: number, count: number): Array<[number, string]> => [
        [0, head],
        ...Array.from({ length: count }, (_, i): [number, string] => [(i + 1) * every, 'x']),
      ];
      const headers = await rawRequest(
        bare.baseUrl,
        drip('GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ', 100, 50),
        5000,
      );
      expectProblem(rawAsAnswer(headers), 408, 'request-timeout');
      expect(headers!.ms).toBeLessThan(2500);
      expect(headers!.headers['connection']).toBe('close');
      const body = await rawRequest(
        bare.baseUrl,
        drip(
          'POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
          100,
          50,
        ),
        5000,
      );
      expectProblem(rawAsAnswer(body), 408, 'request-timeout');
      expect(body!.ms).toBeLessThan(3000);
      // A normal request on the same server is unaffected.
      expect((await fetch(`${bare.baseUrl}/`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('API4: slow or huge requests do not stall other clients', () => {
  test('when 40 slow clients and a huge upload are in flight, then other clients get normal answers in well under a second', async () => {
    const sockets: Socket[] = [];
    const timers: NodeJS.Timeout[] = [];
    const { port } = new URL(app.baseUrl);
    const open = (head: string, drip: string | undefined, everyMs: number) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(head);
      if (drip) timers.push(setInterval(() => socket.writable && socket.write(drip), everyMs));
      sockets.push(socket);
      return socket;
    };
    try {
      // Slowloris: headers that never end, bodies that never end.
      for (let i = 0; i < 25; i++) open(`GET /v1/fetchMyData HTTP/1.1\r\nHost: x\r\nX-Slow-${i}: `, 'a', 200);
      for (let i = 0; i < 15; i++) {
        open(
          `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"email":"`,
          'a',
          200,
        );
      }
      // A huge upload without a declared length, written as fast as the server takes it.
      const huge = open(
        `POST /v1/auth HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        undefined,
        0,
      );
      const chunk = `10000\r\n${'x'.repeat(0x10000)}\r\n`;
      let uploaded = 0;
      const pump = () => {
        while (huge.writable && uploaded < 200 * 1024 * 1024 && huge.write(chunk)) uploaded += 0x10000;
      };
      huge.on('drain', pump);
      pump();
      await sleep(300);

      const bearer = { Authorization: `Bearer ${user.token}` };
      const probes = [
        () => fetch(`${app.baseUrl}/health/live`),
        () => fetch(`${app.baseUrl}/v1/fetchSchoolSearch?query=university%20college`, { headers: bearer }),
        () => fetch(`${app.baseUrl}/v1/fetchMyData`, { headers: bearer }),
        () =>
          fetch(`${app.baseUrl}/v1/auth`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ email: user.email, password: user.password }),
          }),
      ];
      const times: number[] = [];
      for (let round = 0; round < 5; round++) {
        for (const probe of probes) {
          const { value: r, ms } = await timed(async () => {
            const response = await probe();
            await response.arrayBuffer();
            return response;
          });
          expect(r.status).toBe(200);
          times.push(ms);
        }
        // And all at once.
        const { value: all, ms } = await timed(() =>
          Promise.all(
            probes.map((p) =>
              p().then(async (r) => {
                await r.arrayBuffer();
                return r.status;
              }),
            ),
          ),
        );
        expect(all).toEqual([200, 200, 200, 200]);
        times.push(ms);
      }
      expect(
        Math.max(...times),
        `slowest of ${times.length}: ${times.map((t) => t.toFixed(0)).join(', ')} ms`,
      ).toBeLessThan(2000);
      // The attack was really in flight the whole time.
      expect(uploaded).toBeGreaterThan(1024 * 1024);
      expect(sockets.filter((s) => !s.destroyed).length).toBe(sockets.length);
      expect((await fetchMyData({ client: user.client })).response!.status).toBe(200);
    } finally {
      for (const t of timers) clearInterval(t);
      for (const s of sockets) s.destroy();
    }
  });
});
