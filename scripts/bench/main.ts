// Speed and memory of the real server: `npm run bench [-- --catalog seed|generated --duration S ...]`.
//
// 1. Takes the project's seed (data/seed/schools.ndjson.gz, 149,311 real schools) or, with
//    `--catalog generated`, writes a catalog of N schools as an NDJSON file: every real name of
//    the committed lists, topped up with synthetic ones (scripts/bench/catalog-file.ts).
// 2. Imports it with the command line (`school-search import`) into a fresh temporary store,
//    timed from spawn to exit.
// 3. Starts the server in a process of its own, composed as src/main.ts composes it (production
//    settings, argon2id at the configured cost, the access log at info, to a file), with rate
//    limits off (scripts/bench/server.ts).
// 4. Drives it with autocannon from another process (scripts/bench/load.ts), one scenario after
//    the other, each warmed up first: /health/live; 20,000+ distinct searches, each sent once
//    (the server's memory after many queries it had never seen); the search mix
//    (scripts/bench/mix.ts: 1,000+ distinct searches built from the catalog's real names, by
//    class); the same mix while 20 connections log in in a loop; then, outside the targets, the
//    mix in a browser's codings (Accept-Encoding br, gzip) and a page's school picker with a
//    publishable key (scripts/bench/page.ts), compressed and not. The server measures its own
//    event-loop delay and RSS during each.
// 5. Probes the engine alone inside the server, then prints the figures per scenario and class,
//    and the issue's targets, each met or not (scripts/bench/report.ts, targets.ts); the RSS
//    judged is the server's lifetime peak (VmHWM), read after every scenario.
//
// Exits 1 when a request failed (a non-2xx, a socket error, a timeout) or a target is missed.
// The load generator is this same script, forked with BENCH_ROLE=load (see the end of the file).
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  type CatalogRow,
  fromRoot,
  readRealSchools,
  readSeedSchools,
  SEED_FILE,
  writeCatalogFile,
} from './catalog-file.ts';
import { fmt, mib, out } from './format.ts';
import { timeImport } from './import.ts';
import { isLoadWorker, loadWorker, runScenario, type LoadSpec } from './load.ts';
import { distinctCount, distinctSearches, makeMix, MIX_CLASSES, MIX_WEIGHT } from './mix.ts';
import { summariseProfile } from './profile.ts';
import { BROWSER_ACCEPT_ENCODING, pageClasses } from './page.ts';
import { mulberry32 } from './random.ts';
import { report, type ScenarioKind, type ScenarioRun } from './report.ts';
import { DISTINCT_MIN } from './targets.ts';
import { readServerLog, serverEnv, startServer, type BenchServer, type Ready } from './server-process.ts';
import { toolOptions } from '../shared/options.ts';

const USAGE = `Usage: npm run bench -- [--catalog seed|generated] [--schools N] [--duration S] [--connections C] [--logins L] [--seed K] [--only A,B] [--cpu-prof DIR]

  --catalog C      seed: the project's seed, ${SEED_FILE} (default);
                   generated: the real names of the IPEDS list and the Canadian sample, topped up
                   with synthetic schools to --schools
  --schools N      schools in the generated catalog (env BENCH_SCHOOLS, default 130000)
  --duration S     seconds measured per scenario, after 2 s of warm-up (env BENCH_DURATION, default 10)
  --connections C  concurrent keep-alive search connections (env BENCH_CONNECTIONS, default 32)
  --logins L       concurrent login loops of the "logins" scenario (default 20)
  --seed K         seed of the catalog and of the queries (default 1)
  --only A,B       run only the scenarios whose title contains one of these words
                   (health, distinct, mix, br, page, publishable, logins); default: all
  --cpu-prof DIR   write the server's CPU profile of each scenario to DIR and summarise it
`;

const WARMUP_S = 2;
/**
 * Seconds the server is left idle after start-up, before the first scenario. The start-up (the
 * catalog read, its copy to the index build worker) leaves ~150 MiB of freed V8 pages that the
 * process keeps until V8's memory reducer runs, 8 s after start-up; the first scenario would
 * otherwise pay for that collection and the RSS would say more about the start than the serving.
 */
const SETTLE_S = 10;
/** Searches drawn per class (repeats included: "school" comes up more often than a rare name). */
const PER_CLASS = 400;
/** Queries per class of the engine probe (drawn with another seed than the load's). */
const PROBE_PER_CLASS = 60;

interface Options {
  readonly catalog: 'seed' | 'generated';
  readonly schools: number;
  readonly duration: number;
  readonly connections: number;
  readonly logins: number;
  readonly seed: number;
  readonly only: readonly string[];
  readonly cpuProf: string | undefined;
}

function readOptions(): Options {
  const { values, int } = toolOptions(USAGE, {
    catalog: { type: 'string' },
    schools: { type: 'string' },
    duration: { type: 'string' },
    connections: { type: 'string' },
    logins: { type: 'string' },
    seed: { type: 'string' },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  });
  const catalog = values.catalog ?? 'seed';
  if (catalog !== 'seed' && catalog !== 'generated') {
    process.stderr.write(`--catalog is seed or generated, not "${catalog}".\n${USAGE}`);
    process.exit(2);
  }
  return {
    catalog,
    schools: int('--schools', values.schools ?? process.env['BENCH_SCHOOLS'], 130_000, 100),
    duration: int('--duration', values.duration ?? process.env['BENCH_DURATION'], 10, 1),
    connections: int('--connections', values.connections ?? process.env['BENCH_CONNECTIONS'], 32, 1),
    logins: int('--logins', values.logins, 20, 1),
    seed: int('--seed', values.seed, 1, 0),
    only: (values.only ?? '')
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean),
    cpuProf: values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined,
  };
}

/** One request of every kind before the load: a wrong token or a broken route fails here, not as 32 x 10 s of errors. */
async function preflight(ready: Ready, auth: Record<string, string>, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const res = await fetch(ready.url + path, { headers: auth });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`preflight ${path} answered ${res.status}: ${body.slice(0, 500)}`);
  }
  const login = await fetch(`${ready.url}/v1/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ready.login),
  });
  const body = await login.text();
  if (login.status !== 200) throw new Error(`preflight login answered ${login.status}: ${body.slice(0, 500)}`);
}

async function main(): Promise<number> {
  const options = readOptions();
  const dir = mkdtempSync(join(tmpdir(), 'school-search-bench-'));
  let server: BenchServer | undefined;
  let loadChild: ChildProcess | undefined;
  process.once('SIGINT', () => {
    loadChild?.kill('SIGKILL');
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });

  try {
    out(`school-search bench: node ${process.version}, ${cpus().length} CPU (${cpus()[0]?.model.trim() ?? '?'})`);
    out(
      `${options.catalog === 'seed' ? `the seed (${SEED_FILE})` : `a generated catalog of ${options.schools} schools`}, ${WARMUP_S} s warm-up + ${options.duration} s per scenario, ${options.connections} connections, seed ${options.seed}, work in ${dir}`,
    );
    // Other work on the machine skews every figure: say how busy it was.
    const loadBefore = loadavg()[0]!;
    out(`1-minute load average before: ${fmt(loadBefore, 2)}`);

    const { real, catalogPath, catalog } = prepareCatalog(options, dir);
    const logFile = join(dir, 'server.log');
    const env = serverEnv(join(dir, 'store.db'), logFile);
    const importRun = await importCatalog(catalogPath, env, catalog);
    server = await startServer(env);
    const { ready, settled } = await settle(server);
    const { mix, perClass, distinct } = searchMix(real, options);
    const once = distinctOnce(real, options);
    const auth = { authorization: `Bearer ${ready.token}` };
    await preflight(
      ready,
      auth,
      MIX_CLASSES.map((c) => mix[c][0]!.path),
    );
    const chosen = scenarios(options, real, ready, auth, mix, once);
    if (options.cpuProf) mkdirSync(options.cpuProf, { recursive: true });
    const { results, profiles } = await runScenarios(chosen, server, options, (c) => {
      loadChild = c;
    });
    const probe = await probeAnswers(server, real, options);
    const memoryEnd = await server.call({ type: 'memory' });
    await server.stop();
    const log = readServerLog(logFile);

    const failures = report({
      options,
      logins: options.logins,
      loadBefore,
      catalog,
      importRun,
      ready,
      settled,
      mix: { distinct, perClass },
      results,
      memoryEnd,
      probe,
      log,
    });
    for (const file of profiles) summariseProfile(file);
    return failures.length ? 1 : 0;
  } finally {
    loadChild?.kill('SIGKILL');
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

type Mix = ReturnType<typeof makeMix>;

/** The catalog file: the seed, or the real schools and synthetic ones up to `--schools`. */
function prepareCatalog(options: Options, dir: string) {
  if (options.catalog === 'seed') {
    const started = performance.now();
    const real = readSeedSchools();
    const catalogPath = fromRoot(SEED_FILE);
    const catalog = {
      rows: real.length,
      real: real.length,
      synthetic: 0,
      bytes: statSync(catalogPath).size,
      ms: performance.now() - started,
    };
    out(
      `catalog: the seed, ${catalog.rows} real schools, ${mib(catalog.bytes)} gzip, read in ${fmt(catalog.ms / 1000, 1)} s`,
    );
    return { real, catalogPath, catalog };
  }
  const real = readRealSchools();
  const catalogPath = join(dir, 'catalog.ndjson');
  const catalog = writeCatalogFile(catalogPath, options.schools, options.seed, real);
  out(
    `catalog: ${catalog.rows} rows (${catalog.real} real, ${catalog.synthetic} synthetic), ${mib(catalog.bytes)}, written in ${fmt(catalog.ms / 1000, 1)} s`,
  );

  return { real, catalogPath, catalog };
}

/** The catalog imported with the command line, as operators do; its time. */
async function importCatalog(catalogPath: string, env: NodeJS.ProcessEnv, catalog: { rows: number }) {
  const importRun = await timeImport(catalogPath, env);
  const cliTimes = /Read in .*$/m.exec(importRun.stdout)?.[0] ?? '';
  out(
    `import: ${catalog.rows} rows in ${fmt(importRun.seconds, 2)} s (school-search import, spawn to exit; ${importRun.inserted} inserted; its own report: ${cliTimes})`,
  );
  if (importRun.inserted !== catalog.rows)
    throw new Error(`the import inserted ${importRun.inserted} of ${catalog.rows} rows:\n${importRun.stdout}`);

  return importRun;
}

/** The server started, then left idle for SETTLE_S: its memory at rest. */
async function settle(server: BenchServer) {
  const { ready } = server;
  out(
    `server: pid ${server.pid}, ${ready.url}, ${ready.schools} schools indexed in ${fmt(ready.indexMs / 1000, 2)} s, RSS ${mib(ready.memory.rss)} after start, ` +
      `start-up peak (VmHWM) ${mib(ready.vmHwm)}`,
  );
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const settled = await server.call({ type: 'memory' });
  const spaces = Object.entries(settled.spaces).filter(([, s]) => s.committed >= 1048576);
  out(
    `server: RSS ${mib(settled.memory.rss)} after ${SETTLE_S} s idle; V8 heap ${mib(settled.memory.heapUsed)} used of ${mib(settled.memory.heapTotal)} ` +
      `(${spaces.map(([name, s]) => `${name.replace(/_space$/, '')} ${mib(s.used)}/${mib(s.committed)}`).join(', ')}), ` +
      `external ${mib(settled.memory.external)} (array buffers ${mib(settled.memory.arrayBuffers)})`,
  );

  return { ready, settled };
}

/** At least DISTINCT_MIN different searches from the catalog's names, each to be sent once (mix.ts). */
function distinctOnce(real: readonly CatalogRow[], options: Options) {
  const classes = distinctSearches(real, options.seed);
  const count = classes.reduce((n, c) => n + c.paths.length, 0);
  if (count < DISTINCT_MIN)
    throw new Error(`only ${count} distinct searches could be drawn from the catalog (${DISTINCT_MIN} wanted)`);
  out(
    `distinct searches: ${count}, each sent once; per class: ${classes.map((c) => `${c.name} ${c.paths.length}`).join(', ')}`,
  );
  return classes;
}

/** The weighted search mix from real names. */
function searchMix(real: readonly CatalogRow[], options: Options) {
  const mix = makeMix(real, PER_CLASS, mulberry32(options.seed));
  const perClass = Object.fromEntries(MIX_CLASSES.map((c) => [c, distinctCount(mix[c])]));
  const distinct = distinctCount(MIX_CLASSES.flatMap((c) => mix[c]));
  out(
    `search mix: ${distinct} distinct searches from real names; weight and distinct searches per class: ` +
      MIX_CLASSES.map((c) => `${c} ${MIX_WEIGHT[c]}% ${perClass[c]}`).join(', '),
  );
  out(`  e.g. ${MIX_CLASSES.map((c) => decodeURIComponent(mix[c][0]!.path.replace(/^.*\?query=/, ''))).join(' | ')}`);

  return { mix, perClass, distinct };
}

/** The health route, the distinct searches, the search mix, and the mix with logins; those `--only` names. */
function scenarios(
  options: Options,
  real: readonly CatalogRow[],
  ready: Ready,
  auth: Record<string, string>,
  mix: Mix,
  once: ReturnType<typeof distinctOnce>,
) {
  const searchClasses = MIX_CLASSES.map((c) => ({
    name: c,
    weight: MIX_WEIGHT[c],
    paths: mix[c].map((q) => q.path),
  }));
  const base = { url: ready.url, warmup: WARMUP_S, duration: options.duration, connections: options.connections };
  const scenarios: Array<{ kind: ScenarioKind; spec: LoadSpec }> = [
    {
      kind: 'health',
      spec: {
        ...base,
        title: 'health',
        headers: {},
        classes: [{ name: 'GET /health/live', weight: 1, paths: ['/health/live'] }],
        seed: options.seed,
      },
    },
    {
      kind: 'distinct',
      spec: { ...base, title: 'distinct searches', headers: auth, classes: once, seed: options.seed + 2, once: true },
    },
    {
      kind: 'mix',
      spec: { ...base, title: 'search mix', headers: auth, classes: searchClasses, seed: options.seed + 1 },
    },
    {
      kind: 'mix+logins',
      spec: {
        ...base,
        title: `search mix + ${options.logins} logins`,
        headers: auth,
        classes: searchClasses,
        seed: options.seed + 1,
        logins: { connections: options.logins, ...ready.login },
      },
    },
    {
      kind: 'mix-compressed',
      spec: {
        ...base,
        // A kept answer's compressed form is made once, on its first asking in a coding: ~2,500
        // of them here, more than the warm-up asks on a busy machine. Every search of the mix is
        // sent twice first (kept from its second asking), so that the window measures the
        // serving of a server that has served the mix for a while, as the mix's does.
        prime: 2,
        title: 'search mix (br, gzip)',
        headers: { ...auth, 'accept-encoding': 'br, gzip' },
        classes: searchClasses,
        seed: options.seed + 1,
      },
    },
    {
      kind: 'page',
      spec: {
        ...base,
        title: 'page, publishable key (browser codings)',
        headers: {},
        classes: pageClasses(real, ready.publishableKey, mulberry32(options.seed + 3), BROWSER_ACCEPT_ENCODING),
        seed: options.seed + 3,
      },
    },
    {
      kind: 'page-identity',
      spec: {
        ...base,
        title: 'page, publishable key (uncompressed)',
        headers: {},
        // Other names than the compressed run's: neither run finds the other's answers kept.
        classes: pageClasses(real, ready.publishableKey, mulberry32(options.seed + 4), undefined),
        seed: options.seed + 4,
      },
    },
  ];
  const chosen = options.only.length
    ? scenarios.filter((s) => options.only.some((w) => s.spec.title.includes(w)))
    : scenarios;
  return chosen;
}

/** Each scenario in turn, with the server's own figures (and CPU profile) for it. */
async function runScenarios(
  chosen: ReturnType<typeof scenarios>,
  server: BenchServer,
  options: Options,
  onLoadChild: (child: ChildProcess | undefined) => void,
) {
  const { ready } = server;
  out();
  out(`load: autocannon in a child process -> ${ready.url}`);
  const results: ScenarioRun[] = [];
  const profiles: string[] = [];
  for (const { kind, spec } of chosen) {
    if (spec.prime) await primeFor(spec, onLoadChild);
    const paths = spec.classes.reduce((n, c) => n + c.paths.length, 0);
    process.stderr.write(
      `  running ${spec.title} (${spec.once ? `${paths} requests` : `${WARMUP_S} + ${spec.duration} s`})...\n`,
    );
    const profile = options.cpuProf ? join(options.cpuProf, `server-${kind}.cpuprofile`) : undefined;
    let started: Promise<unknown> = Promise.resolve();
    const result = await runScenario(
      import.meta.filename,
      spec,
      () => (started = server!.call({ type: 'start', profile })),
      onLoadChild,
    );
    await started;
    const figures = await server.call({ type: 'end' });
    const { ms: drainMs } = await server.call({ type: 'drain' });
    results.push({ kind, result, server: figures, drainMs });
    if (profile) profiles.push(profile);
  }

  return { results, profiles };
}

/** Every distinct path of the scenario sent `spec.prime` times, in order, unmeasured. */
async function primeFor(spec: LoadSpec, onLoadChild: (child: ChildProcess | undefined) => void): Promise<void> {
  const paths = [...new Set(spec.classes.flatMap((c) => c.paths))];
  const rounds = Array.from({ length: spec.prime ?? 0 }, () => paths).flat();
  process.stderr.write(`  priming ${spec.title} (${rounds.length} requests)...\n`);
  const classes = [{ name: 'priming', weight: 1, paths: rounds }];
  await runScenario(
    import.meta.filename,
    { ...spec, title: `${spec.title} (priming)`, classes, once: true },
    () => {},
    onLoadChild,
  );
}

/** Each probe query answered in the server, timed by the engine alone. */
function probeAnswers(server: BenchServer, real: readonly CatalogRow[], options: Options) {
  const probeMix = makeMix(real, PROBE_PER_CLASS, mulberry32(options.seed + 1000));
  return server.call({
    type: 'probe',
    queries: Object.fromEntries(MIX_CLASSES.map((c) => [c, probeMix[c].map(({ path: _path, ...input }) => input)])),
  });
}

// The load generator runs in a child process forked from this same script (runScenario).
if (isLoadWorker()) {
  await loadWorker();
} else {
  try {
    process.exitCode = await main();
  } catch (error) {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
