// Prometheus metrics of the real app (createApp on a fresh store, the Prometheus adapter as
// src/main.ts builds it): GET /metrics on the API's port only for METRICS_TOKEN, and the counters
// that move when requests are answered, refused or fail. The metrics listener of its own
// (METRICS_PORT) and shutdown are tested on the process: test/main/metrics.test.ts.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createToken, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { StoreUnavailableError } from '../../src/domain/shared/errors.ts';
import { RATE_LIMITS_OFF } from '../../src/http/middleware/rate-limit.ts';
import type { Telemetry } from '../../src/metrics/metrics.port.ts';
import { prometheusTelemetry } from '../../src/metrics/prometheus.metrics.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { expectProblem, unchecked } from '../support/problem.ts';
import { labelValues, names, parseMetrics, sample, type Samples } from '../support/prometheus.ts';

const TOKEN = 'metrics-token-0123456789abcdef0123456789abcdef';
const HARVARD = { schoolname: 'Harvard University', city: 'Cambridge', stateprovince: 'MA' };

describe('GET /metrics on the API port', () => {
  let plain: TestApp;
  let guarded: TestApp;
  beforeAll(async () => {
    // As src/main.ts starts it without METRICS_TOKEN: metrics may be collected (METRICS_PORT), never served here.
    plain = await startTestApp({ telemetry: prometheusTelemetry({ engine: 'memory', defaultMetrics: false }) });
    guarded = await startTestApp({
      telemetry: prometheusTelemetry({ engine: 'memory', defaultMetrics: false }),
      metricsToken: TOKEN,
    });
  });
  afterAll(async () => {
    await plain.close();
    await guarded.close();
  });

  test('when METRICS_TOKEN is not set, then /metrics is a 404 problem like any unknown path', async () => {
    for (const headers of [{}, { Authorization: `Bearer ${TOKEN}` }] as Array<Record<string, string>>) {
      const r = await fetch(`${plain.baseUrl}/metrics`, { headers });
      expectProblem({ response: r, error: await r.json() }, 404, 'not-found');
    }
  });

  test('when METRICS_TOKEN is set and no token is sent, then 401 with a Bearer challenge', async () => {
    const r = await fetch(`${guarded.baseUrl}/metrics`);
    expectProblem({ response: r, error: await r.json() }, 401, 'unauthorized');
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  test('when another token is sent (a user token, the token with one character changed, another scheme), then 401', async () => {
    const user = await guarded.userClient();
    for (const authorization of [
      `Bearer ${user.token}`,
      `Bearer ${TOKEN.slice(0, -1)}0`,
      `Bearer ${TOKEN}x`,
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const r = await fetch(`${guarded.baseUrl}/metrics`, { headers: { Authorization: authorization } });
      expectProblem({ response: r, error: await r.json() }, 401, 'unauthorized');
    }
  });

  test('when the token is sent, then 200 in the Prometheus text format, not cached', async () => {
    const r = await fetch(`${guarded.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(names(parseMetrics(await r.text()))).toContain('school_search_http_requests_total');
  });

  test('when /metrics is sent another method, then 405 with Allow', async () => {
    const r = await fetch(`${guarded.baseUrl}/metrics`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expectProblem({ response: r, error: await r.json() }, 405, 'method-not-allowed');
    expect(r.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('what the counters count', () => {
  let app: TestApp;
  let telemetry: Telemetry;
  const scrape = async (): Promise<Samples> => {
    const r = await fetch(`${app.baseUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(200);
    return parseMetrics(await r.text());
  };

  beforeAll(async () => {
    telemetry = prometheusTelemetry({ engine: 'memory' });
    app = await startTestApp({ telemetry, metricsToken: TOKEN, rateLimits: { ...RATE_LIMITS_OFF, searchPerUser: 2 } });
    await app.seed([HARVARD]);
  });
  afterAll(() => app.close());

  test('when a user logs in, searches, sends a bad search and goes over the quota, then each is counted under its operation and status', async () => {
    const user = await app.userClient();
    const before = await scrape();

    const login = await createToken({ client: app.client(), body: { email: user.email, password: user.password } });
    expect(login.response!.status).toBe(200);
    const wrong = await createToken({
      client: app.client(),
      body: { email: user.email, password: 'not-the-password' },
    });
    expect(wrong.response!.status).toBe(401);
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } })).response!.status).toBe(200);
    // A 400 costs no quota (validation runs before the limiter).
    expectProblem(
      await fetchSchoolSearch({ client: user.client, query: { query: 'harvard', limit: 26 }, ...unchecked }),
      400,
      'validation-error',
    );
    expect((await fetchSchoolSearch({ client: user.client, query: { query: 'harv' } })).response!.status).toBe(200);
    expectProblem(await fetchSchoolSearch({ client: user.client, query: { query: 'harvard' } }), 429, 'rate-limited');

    const after = await scrape();
    const requests = (operation: string, status: string) =>
      sample(after, 'school_search_http_requests_total', { operation, status }) -
      sample(before, 'school_search_http_requests_total', { operation, status });
    expect(requests('createToken', '200')).toBe(1);
    expect(requests('createToken', '401')).toBe(1);
    expect(requests('fetchSchoolSearch', '200')).toBe(2);
    expect(requests('fetchSchoolSearch', '400')).toBe(1);
    expect(requests('fetchSchoolSearch', '429')).toBe(1);
    const limited = (s: Samples) => sample(s, 'school_search_rate_limited_total', { limiter: 'search-per-user' });
    expect(limited(after) - limited(before)).toBe(1);
    // Latency: one observation per request, whatever its status.
    const timed = (s: Samples) =>
      sample(s, 'school_search_http_request_duration_seconds_count', { operation: 'fetchSchoolSearch' });
    expect(timed(after) - timed(before)).toBe(4);
    // The engine's time: the two searches that ran (not the 400 nor the 429).
    const searched = (s: Samples) => sample(s, 'school_search_search_duration_seconds_count', { engine: 'memory' });
    expect(searched(after) - searched(before)).toBe(2);
    expect(sample(after, 'school_search_search_duration_seconds_bucket', { engine: 'memory', le: '+Inf' })).toBe(
      searched(after),
    );
    expect(sample(after, 'school_search_search_duration_seconds_sum', { engine: 'memory' })).toBeGreaterThan(0);
  });

  test('when the store cannot answer a search, then the 503 is counted as a store error of that operation', async () => {
    const user = await app.userClient();
    const before = await scrape();
    const engine = app.services.engine;
    const original = engine.search.bind(engine);
    // A search never asked before: one asked before is answered again without the engine (src/domain/search/kept-answers.ts).
    engine.search = async () => {
      throw new StoreUnavailableError();
    };
    try {
      expectProblem(
        await fetchSchoolSearch({ client: user.client, query: { query: 'harvard, never asked before' } }),
        503,
        'service-unavailable',
      );
    } finally {
      engine.search = original;
    }
    const after = await scrape();
    const failures = (s: Samples) =>
      sample(s, 'school_search_store_errors_total', { operation: 'fetchSchoolSearch', kind: 'unavailable' });
    expect(failures(after) - failures(before)).toBe(1);
    expect(
      sample(after, 'school_search_http_requests_total', { operation: 'fetchSchoolSearch', status: '503' }) -
        sample(before, 'school_search_http_requests_total', { operation: 'fetchSchoolSearch', status: '503' }),
    ).toBe(1);
  });

  test('when routes outside the contract or unknown paths are asked, then they are counted under a fixed group, never their path', async () => {
    const before = await scrape();
    await (await fetch(`${app.baseUrl}/openapi.json`)).text();
    await (await fetch(`${app.baseUrl}/docs/`)).text();
    for (let i = 0; i < 3; i++) await (await fetch(`${app.baseUrl}/no-such-path-${i}?x=${i}`)).text();
    await (await fetch(`${app.baseUrl}/v1/no-such-operation`)).text();
    const after = await scrape();
    const requests = (operation: string, status: string) =>
      sample(after, 'school_search_http_requests_total', { operation, status }) -
      sample(before, 'school_search_http_requests_total', { operation, status });
    expect(requests('docs', '200')).toBe(2);
    expect(requests('other', '404')).toBe(4);
    const operations = labelValues(after, 'school_search_http_requests_total', 'operation');
    for (const operation of operations) expect(operation).toMatch(/^([a-zA-Z]+|docs|dashboard|metrics|other)$/);
    expect([...after.keys()].join('\n')).not.toMatch(/no-such/);
  });

  test('when the default metrics are on, then the process and event-loop delay metrics are there', async () => {
    const samples = await scrape();
    const all = names(samples);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(all).toContain(name);
    }
  });
});
