// Load benchmark of the real app on the embedded store: `npm run bench [-- --schools N --duration S]`.
//
// Seeds a fresh temporary store with a synthetic but realistically shaped catalog (very common
// words like "school" match most of it, invented surnames match one or two schools), starts the
// real app (createApp, response validation off as in production) on 127.0.0.1:0, and drives it with
// autocannon from a child process, so the load generator never shares the server's event loop and
// the RSS reported is the server's. Prints figures only: no targets, no timed assertions. Exits 1
// when a request failed (a 5xx, an unexpected non-2xx, a socket error or a timeout).
//
// The parts live in scripts/bench/: random.ts (seeded randomness), names.ts and catalog.ts (the
// synthetic catalog), queries.ts (query classes and search paths), store-probe.ts (the store alone),
// load.ts (the autocannon child process and latency figures), format.ts and report.ts (output).
// The load generator is this same script, forked with BENCH_ROLE=load (see the end of the file).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { createApp } from '../src/app.ts';
import type { SchoolDraft } from '../src/domain/ports.ts';
import { draftSchool } from '../src/domain/school.draft.ts';
import { loadContract } from '../src/http/contract.ts';
import { RATE_LIMITS_OFF } from '../src/http/rate-limit.ts';
import { Argon2Hasher } from '../src/security/argon2.hasher.ts';
import { createServices } from '../src/services.ts';
import { SqliteStore } from '../src/stores/sqlite/store.ts';
import { makeCatalog } from './bench/catalog.ts';
import { fmt, out } from './bench/format.ts';
import { drained, isLoadWorker, loadWorker, runScenario, type LoadClass, type LoadSpec } from './bench/load.ts';
import { CLASSES, makeQueries, searchPath, type QueryClass } from './bench/queries.ts';
import { mulberry32 } from './bench/random.ts';
import { report, type ScenarioRun } from './bench/report.ts';
import { appendLatency, catalogShape, storeSearch } from './bench/store-probe.ts';

// ---------------------------------------------------------------------------------------------
// Options

const USAGE = `Usage: npm run bench -- [--schools N] [--duration S] [--connections C] [--seed K] [--only A,B]

  --schools N      schools to seed (env BENCH_SCHOOLS, default 130000)
  --duration S     seconds per load scenario (env BENCH_DURATION, default 10)
  --connections C  concurrent keep-alive connections (env BENCH_CONNECTIONS, default 10)
  --seed K         seed of the catalog and query generator (default 1)
  --only A,B       run only the scenarios whose title contains one of these words
                   (e.g. --only mix,health); default: all
`;

interface Options {
  readonly schools: number;
  readonly duration: number;
  readonly connections: number;
  readonly seed: number;
  readonly only: readonly string[];
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      schools: { type: 'string' },
      duration: { type: 'string' },
      connections: { type: 'string' },
      seed: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const int = (name: string, raw: string | undefined, fallback: number, min: number): number => {
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) {
      process.stderr.write(`${name} must be an integer >= ${min}, not "${raw}".\n${USAGE}`);
      process.exit(2);
    }
    return n;
  };
  return {
    schools: int('--schools', values.schools ?? process.env['BENCH_SCHOOLS'], 130_000, 100),
    duration: int('--duration', values.duration ?? process.env['BENCH_DURATION'], 10, 1),
    connections: int('--connections', values.connections ?? process.env['BENCH_CONNECTIONS'], 10, 1),
    seed: int('--seed', values.seed, 1, 0),
    only: (values.only ?? '').split(',').map((w) => w.trim()).filter(Boolean),
  };
}

// ---------------------------------------------------------------------------------------------
// The benchmark (parent process)

async function main(): Promise<number> {
  const options = readOptions();
  const r = mulberry32(options.seed);
  const dir = mkdtempSync(join(tmpdir(), 'school-search-bench-'));
  let child: ChildProcess | undefined;
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  let cleanup = async (): Promise<void> => removeDir();
  process.once('SIGINT', () => {
    child?.kill('SIGINT');
    void cleanup().finally(() => process.exit(130));
  });

  try {
    const probe = new DatabaseSync(':memory:');
    const sqliteVersion = (probe.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    probe.close();
    out(`school-search bench: node ${process.version}, SQLite ${sqliteVersion}, ${cpus().length} CPU (${cpus()[0]?.model.trim() ?? '?'})`);
    out(`${options.schools} schools, ${options.duration} s per scenario, ${options.connections} connections, seed ${options.seed}, store in ${dir}`);
    // Other work on the machine skews every figure: say how busy it was.
    const loadBefore = loadavg()[0]!;
    out(`1-minute load average before: ${fmt(loadBefore, 2)}`);
    out();

    // Seed through the same path as an import: draftSchool, then one upsertMany.
    const store = await SqliteStore.open({ path: join(dir, 'store.db') });
    cleanup = async () => {
      try {
        await store.close();
      } finally {
        removeDir();
      }
    };
    let t = performance.now();
    const catalog = makeCatalog(options.schools, r);
    const generateMs = performance.now() - t;
    t = performance.now();
    const drafts: SchoolDraft[] = catalog.map((input) => {
      const result = draftSchool(input);
      if (!result.ok) throw new Error(`bench catalog row rejected: ${result.reason} (${input.schoolname})`);
      return result.draft;
    });
    const draftMs = performance.now() - t;
    t = performance.now();
    const counts = await store.schools.upsertMany(drafts);
    const upsertMs = performance.now() - t;
    const texts = drafts.reduce((n, d) => n + 1 + d.aliases.length, 0);
    out(`seeding: generate ${fmt(generateMs, 0)} ms, draftSchool ${fmt(draftMs, 0)} ms, upsertMany ${fmt(upsertMs, 0)} ms ` +
      `(${counts.inserted} inserted, ${texts} search texts)`);
    out(`seeding rate: ${fmt(counts.inserted / ((draftMs + upsertMs) / 1000), 0)} rows/s (draft + upsert), ` +
      `${fmt(counts.inserted / (upsertMs / 1000), 0)} rows/s (upsert alone)`);
    const rssAfterSeed = process.memoryUsage.rss();

    const queries = makeQueries(catalog, r);
    const sample = catalog.slice(0, 3).map((s) => s.schoolname);
    catalog.length = 0;
    drafts.length = 0;
    out(`sample names: ${sample.join(' | ')}`);

    // The bench user: cheap argon2, as in the tests (login is not what is measured).
    const services = createServices({
      store,
      hasher: new Argon2Hasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 }),
      tokenTtlSeconds: 6 * 3600,
      search: { refreshMs: 0 },
    });
    await services.engine.start();

    await catalogShape(services.engine, counts.inserted);

    // Engine alone, sequential, no HTTP and no metering: where the time of a query class goes.
    const storeFigures = await storeSearch(services.engine, queries);
    await services.auth.createUser('bench@example.com', 'bench-password-123');
    const token = (await services.auth.login('bench@example.com', 'bench-password-123')).value;

    // What one metered search writes: a record and the user's totals, fsync'd (synchronous=FULL).
    const { userId } = await services.auth.authenticate(token);
    const appendP50 = await appendLatency(store, userId);

    const logger = pino({ level: 'silent' });
    const app = createApp({ ...services, contract: loadContract(), publicBaseUrl: 'http://127.0.0.1', validateResponses: false, logger, rateLimits: RATE_LIMITS_OFF, corsOrigins: '*' });
    const server = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closeServer = async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
    const closeStore = cleanup;
    cleanup = async () => {
      try {
        await closeServer();
      } finally {
        await closeStore();
      }
    };
    const auth = { authorization: `Bearer ${token}` };

    const plain = (cls: QueryClass) => queries[cls].map((q) => searchPath(q, false, r));
    const withState = (cls: QueryClass) => queries[cls].map((q) => searchPath(q, true, r));
    // In the mix, about 30% of the requests carry a stateCode.
    const mixed = (cls: QueryClass) => queries[cls].map((q) => searchPath(q, r() < 0.3, r));
    const MIX_WEIGHT: Record<QueryClass, number> = {
      rare: 20, medium: 15, common: 10, 'prefix-1': 5, 'prefix-2-3': 15, 'multi-word': 35,
    };

    // One request of every path kind before load: a wrong token or a broken route fails here.
    for (const cls of CLASSES) {
      for (const path of [plain(cls)[0]!, withState(cls)[0]!]) {
        const res = await fetch(url + path, { headers: auth });
        const body = await res.text();
        if (res.status !== 200) throw new Error(`preflight ${path} answered ${res.status}: ${body.slice(0, 500)}`);
      }
    }

    const scenarios: Array<{ spec: LoadSpec; search: boolean }> = [];
    const base = { url, duration: options.duration, connections: options.connections };
    const add = (title: string, search: boolean, classes: LoadClass[]) =>
      scenarios.push({ spec: { ...base, title, headers: search ? auth : {}, classes, seed: options.seed + scenarios.length }, search });
    add('search mix', true, CLASSES.map((cls) => ({ name: cls, weight: MIX_WEIGHT[cls], paths: mixed(cls) })));
    for (const cls of CLASSES) add(`search ${cls}`, true, [{ name: cls, weight: 1, paths: plain(cls) }]);
    add('search + stateCode', true, CLASSES.map((cls) => ({ name: cls, weight: MIX_WEIGHT[cls], paths: withState(cls) })));
    add('health', false, [{ name: 'live', weight: 1, paths: ['/health/live'] }]);
    const chosen = options.only.length
      ? scenarios.filter((x) => options.only.some((word) => x.spec.title.includes(word)))
      : scenarios;

    out();
    out(`load: autocannon in a child process -> ${url}`);
    let peakRssDuringLoad = 0;
    const rssTimer = setInterval(() => (peakRssDuringLoad = Math.max(peakRssDuringLoad, process.memoryUsage.rss())), 100);
    const results: ScenarioRun[] = [];
    try {
      for (const { spec, search } of chosen) {
        process.stderr.write(`  running ${spec.title} (${spec.duration} s)...\n`);
        const result = await runScenario(import.meta.filename, spec, (c) => (child = c));
        results.push({ result, search, drainMs: await drained() });
      }
    } finally {
      clearInterval(rssTimer);
    }

    const failures = report({
      options,
      sqliteVersion,
      loadBefore,
      seeding: { generateMs, draftMs, upsertMs, inserted: counts.inserted },
      storeFigures,
      appendP50,
      rssAfterSeed,
      peakRssDuringLoad,
      results,
    });
    return failures.length ? 1 : 0;
  } finally {
    await cleanup();
  }
}

// The load generator runs in a child process forked from this same script (runScenario).
if (isLoadWorker()) {
  await loadWorker();
} else {
  process.exitCode = await main();
}
