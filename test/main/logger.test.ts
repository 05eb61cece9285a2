// What `npm start` writes to stdout: the choice between JSON lines and the readable form, the
// readable form itself, the banner, and the settings behind them (LOG_FORMAT, METRICS_*).
import { describe, expect, test } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { prettyLines } from '../../src/log-pretty.ts';
import { chooseLogFormat, serverOutput, startupBanner } from '../../src/logger.ts';

describe('chooseLogFormat', () => {
  test.each([
    // setting, NODE_ENV, stdout is a terminal → format
    ['auto', 'development', true, 'pretty'],
    ['auto', 'test', true, 'pretty'],
    ['auto', 'production', true, 'json'],
    ['auto', 'development', false, 'json'],
    ['auto', 'production', false, 'json'],
    ['json', 'development', true, 'json'],
    ['pretty', 'production', false, 'pretty'],
    ['pretty', 'development', false, 'pretty'],
  ] as const)(
    'when LOG_FORMAT=%s, NODE_ENV=%s and stdout is a terminal: %s, then %s',
    (setting, env, tty, expected) => {
      expect(chooseLogFormat(setting, env, tty)).toBe(expected);
    },
  );

  test('when the server output is built, then it follows the choice', async () => {
    expect((await serverOutput({ logLevel: 'silent', logFormat: 'auto', env: 'development' }, false)).format).toBe(
      'json',
    );
    expect((await serverOutput({ logLevel: 'silent', logFormat: 'auto', env: 'development' }, true)).format).toBe(
      'pretty',
    );
    expect((await serverOutput({ logLevel: 'silent', logFormat: 'auto', env: 'production' }, true)).format).toBe(
      'json',
    );
  });
});

describe('the readable form', () => {
  const pretty = prettyLines({ colorize: false });
  const line = (fields: Record<string, unknown>) =>
    JSON.stringify({ level: 30, time: Date.UTC(2026, 0, 1), pid: 1, hostname: 'h', ...fields });

  test('when a request is logged, then it is one line: method, path, status, time', () => {
    const out = pretty(
      line({ msg: 'request', requestId: 'r-1', method: 'GET', path: '/v1/fetchSchoolSearch', status: 200, ms: 3.12 }),
    );
    expect(out).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/v1\/fetchSchoolSearch 200 3\.1 ms\n$/);
  });

  test('when another line is logged, then its fields follow it, the request-like ones included', () => {
    const out = pretty(line({ msg: 'store unavailable', requestId: 'r-2', method: 'GET', cause: 'locked' }));
    expect(out).toContain('INFO: store unavailable\n');
    expect(out).toContain('requestId: "r-2"');
    expect(out).toContain('cause: "locked"');
    expect(out).not.toContain('hostname');
  });
});

describe('startupBanner', () => {
  test('then it lists the API, docs, dashboard, contract, metrics and the demo user', () => {
    const banner = startupBanner({
      listening: 'http://127.0.0.1:3000',
      publicBaseUrl: 'http://localhost:3000',
      store: 'embedded store data/school-search.db',
      metrics: 'http://127.0.0.1:9464/metrics',
      demoUser: { email: 'demo@example.com', password: 'demo-password-123' },
    });
    expect(banner).toContain('listening on http://127.0.0.1:3000 (embedded store data/school-search.db)');
    for (const row of [
      'API        http://localhost:3000/v1',
      'Docs       http://localhost:3000/docs',
      'Dashboard  http://localhost:3000/dashboard',
      'Contract   http://localhost:3000/openapi.json',
      'Metrics    http://127.0.0.1:9464/metrics',
      'Demo user  demo@example.com / demo-password-123',
    ]) {
      expect(banner).toContain(`\n  ${row}\n`);
    }
  });

  test('when metrics are off and there is no demo user, then neither is listed', () => {
    const banner = startupBanner({
      listening: 'http://0.0.0.0:3000',
      publicBaseUrl: 'https://api.example.org',
      store: 'MongoDB db.example.org/school_search',
    });
    expect(banner).not.toMatch(/Metrics|Demo user/);
  });
});

describe('configuration', () => {
  test('when nothing is set, then the format is chosen automatically and metrics are off', () => {
    const config = loadConfig({});
    expect(config.logFormat).toBe('auto');
    expect(config.metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
  });

  test('when the metrics settings are given, then they are read', () => {
    const token = 'a'.repeat(32);
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: token, LOG_FORMAT: 'json' }),
    ).toMatchObject({
      logFormat: 'json',
      metrics: { port: 9464, host: '0.0.0.0', token },
    });
  });

  test.each([
    ['LOG_FORMAT', 'text'],
    ['METRICS_PORT', '70000'],
    ['METRICS_PORT', 'nine'],
    ['METRICS_TOKEN', 'short-token'],
    ['METRICS_TOKEN', `${'a'.repeat(20)} ${'b'.repeat(20)}`],
  ])('when %s=%s, then start-up stops naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
