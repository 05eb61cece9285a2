// The start command as a process with METRICS_PORT: the metrics listener of its own serves
// /metrics, the API's port does not, the counters move with the API's traffic, and SIGTERM
// closes both listeners and exits 0. Its stdout, not a terminal, stays JSON lines; forced to
// LOG_FORMAT=pretty it is the readable form with the start-up banner, and still exits cleanly.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { createClient } from '../../generated/client/index.ts';
import { createToken, fetchSchoolSearch } from '../../generated/sdk.gen.ts';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../../src/config.ts';
import { expectProblem } from '../support/problem.ts';
import { parseMetrics, sample } from '../support/prometheus.ts';

const REPO = new URL('../../', import.meta.url);
const SMALL_SEED = new URL('test/fixtures/schools.ndjson', REPO).pathname;

interface Started {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Resolves when stdout matches (with the match); rejects if the process exits first. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly exited: Promise<number | null>;
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function start(env: Record<string, string>): Started {
  const dir = mkdtempSync(join(tmpdir(), 'school-search-metrics-'));
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: REPO,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dir, 'store.db'),
      MONGODB_URI: '',
      SEED_FILE: SMALL_SEED,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      LOG_FORMAT: '',
      METRICS_PORT: '',
      METRICS_TOKEN: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let out = '';
  let stderr = '';
  const waiters: Array<() => void> = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const waiter of waiters.slice()) waiter();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // 'close', not 'exit': the process may exit before its last lines are read from the pipe.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    exited,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(out);
          if (match) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve(match);
          }
        };
        waiters.push(check);
        check();
        void exited.then((code) => reject(new Error(`exited with ${code} before ${pattern}: ${stderr}`)));
      }),
  };
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

function connectionRefused(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('npm start with METRICS_PORT (stdout not a terminal)', () => {
  test('when scraped before and after a login and a search, then the counters moved; the API port has no /metrics; SIGTERM closes both listeners', async () => {
    const server = start({ METRICS_PORT: '0', SHUTDOWN_TIMEOUT_MS: '10000' });
    await server.waitFor(/"msg":"listening"[^\n]*\n/);
    const listening = jsonLines(server.stdout()).find((l) => l['msg'] === 'listening')!;
    const baseUrl = String(listening['url']);
    const metricsUrl = String(listening['metrics']);
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(metricsUrl).port).not.toBe(new URL(baseUrl).port);

    const scrape = async () => {
      const r = await fetch(metricsUrl);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      return parseMetrics(await r.text());
    };
    const before = await scrape();
    const login = await createToken({
      client: createClient({ baseUrl }),
      body: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
    });
    expect(login.response!.status).toBe(200);
    const authed = createClient({ baseUrl, headers: { Authorization: `Bearer ${login.data!.token}` } });
    expect((await fetchSchoolSearch({ client: authed, query: { query: 'harvard' } })).response!.status).toBe(200);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(moved('school_search_http_requests_total', { operation: 'createToken', status: '200' })).toBe(1);
    expect(moved('school_search_http_requests_total', { operation: 'fetchSchoolSearch', status: '200' })).toBe(1);
    expect(moved('school_search_search_duration_seconds_count', { engine: 'memory' })).toBe(1);
    expect(sample(after, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);

    // Not on the API's port; and the metrics listener serves nothing else.
    const onApi = await fetch(`${baseUrl}/metrics`);
    expectProblem({ response: onApi, error: await onApi.json() }, 404, 'not-found');
    const elsewhere = await fetch(new URL('/v1/fetchSchoolSearch', metricsUrl));
    expectProblem({ response: elsewhere, error: await elsewhere.json() }, 404, 'not-found');

    // The scrapes above left a keep-alive connection open: it must not hold the shutdown up.
    const signalled = performance.now();
    server.child.kill('SIGTERM');
    await server.waitFor(/"msg":"shutting down"/);
    expect(await connectionRefused(metricsUrl)).toBe(true);
    expect(await connectionRefused(baseUrl)).toBe(true);
    expect(await server.exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(5_000);

    // Not a terminal: every line is JSON (no banner), the last one "stopped".
    const lines = jsonLines(server.stdout());
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
    expect(server.stdout()).not.toContain('Ctrl+C');
  });

  test('when METRICS_PORT is not set, then no metrics listener is started and the API port has no /metrics', async () => {
    const server = start({});
    await server.waitFor(/"msg":"listening"[^\n]*\n/);
    const listening = jsonLines(server.stdout()).find((l) => l['msg'] === 'listening')!;
    expect(listening['metrics']).toBeUndefined();
    const r = await fetch(`${String(listening['url'])}/metrics`);
    expectProblem({ response: r, error: await r.json() }, 404, 'not-found');
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});

describe('npm start with LOG_FORMAT=pretty', () => {
  test('then it prints the banner with the links and the demo user, readable request lines, and still exits 0 on SIGTERM with its last line written', async () => {
    const server = start({ LOG_FORMAT: 'pretty', METRICS_PORT: '0' });
    const [, baseUrl] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await server.waitFor(/Ctrl\+C stops it\./);
    const text = server.stdout();
    expect(text).toMatch(/^ {2}Docs {7}http:\/\/localhost:0\/docs$/m);
    expect(text).toMatch(/^ {2}Dashboard {2}http:\/\/localhost:0\/dashboard$/m);
    expect(text).toMatch(/^ {2}Contract {3}http:\/\/localhost:0\/openapi\.json$/m);
    expect(text).toMatch(/^ {2}Metrics {4}http:\/\/127\.0\.0\.1:\d+\/metrics$/m);
    expect(text).toContain(`Demo user  ${DEMO_EMAIL} / ${DEMO_PASSWORD}`);
    expect(text).not.toMatch(/^\{"level"/m);

    await (await fetch(`${baseUrl}/health/live`)).text();
    await server.waitFor(/INFO.*: GET \/health\/live 200 \d+\.\d ms\n/);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.stdout()).toMatch(/INFO.*: stopped\n$/);
  });
});
