// npm run bench:million — the in-process index of a million schools, in the server as deployed:
// `npm run bench:million [-- --schools N --store PATH --queries N --seed K --limit-mb M]`.
//
// 1. The store: an embedded store of N schools (default 1,000,000): the project's seed
//    (data/seed/schools.ndjson.gz, 149,311 real schools) topped up with the bench's synthetic
//    catalog (catalog-file.ts), imported with `school-search import`. With --store PATH the store
//    at PATH is made there first when the file does not exist (a million takes a minute or two to
//    write; keep it between runs), and each run works on a copy of it: the run's accounts and its
//    rebuild's import leave it as it was.
// 2. Start-up: the server in a process of its own (server.ts, the Node flags and settings of
//    production), which reads the catalog and builds its index before it listens. Its peak RSS
//    then (VmHWM: the catalog read and the build), the seconds of engine.start(), and the RSS
//    once settled. Then a restart on the same store, which reads the index from the file the
//    first start wrote: its seconds, peak and settled RSS. Steps 3 and 4 run on that server.
// 3. The engine alone, per query class (the speed classes of `npm run bench:compare`, and
//    typos of the catalog's most common words without a state, such as `schol`): p50 and p99 of
//    each query's first answer and of the same query again, inside the server (no HTTP).
// 4. Imports, each with the peak counter reset first (/proc/PID/clear_refs), the server watched
//    until its log says the change is in, keeping serving meanwhile: the peak RSS of each, and
//    its seconds from the import's exit:
//      delta    ten schools changed: applied as a delta (memory.engine.ts), no rebuild;
//      fold     FOLD_SCHOOLS changed: a delta, then a full build in the background folds it in;
//      rebuild  REBUILD_SCHOOLS changed, more than a delta takes: the catalog read and built again.
//
// Prints the figures, the load average before each timed step (the machine is shared: timings
// follow its load, memory much less), and exits 1 when a peak (start-up, restart, delta, fold,
// rebuild) is above the limit (512 MB), or when a step fails.
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SearchRequest } from '../../src/domain/search/engine.port.ts';
import { speedQueries, SPEED_CLASSES } from '../compare/speed.ts';
import { readSeedSchools, writeCatalogFile } from './catalog-file.ts';
import { fmt, mib, out, table } from './format.ts';
import { timeImport } from './import.ts';
import { serverEnv, startServer, type BenchServer, type ProbeFigures } from './server-process.ts';
import { toolOptions } from '../shared/options.ts';

const USAGE = `Usage: npm run bench:million -- [--schools N] [--store PATH] [--queries N] [--seed K] [--limit-mb M]

  --schools N    schools in the catalog (default 1000000): the seed, then synthetic ones
  --store PATH   the embedded store to start from: made there (N schools) when the file is missing,
                 and kept; the run works on a copy (default: a new store in a temporary directory)
  --queries N    queries per class of the engine probe, each asked without and with a state (default 100)
  --seed K       seed of the synthetic catalog and of the queries (default 1)
  --limit-mb M   each peak's limit, MB of 10^6 bytes (default 512)
`;

/** Schools each import changes (memory.engine.ts: foldAt 1,000 and deltaLimit 10,000 by default). */
const DELTA_SCHOOLS = 10;
const FOLD_SCHOOLS = 1_500;
const REBUILD_SCHOOLS = 12_000;
/** Seconds the server is left alone after start-up before its settled RSS is read. */
const SETTLE_S = 10;
/** Typos of the catalog's most common words, asked without a state: every one matches most of the catalog. */
const COMMON_TYPOS = ['schol', 'schooll', 'shcool', 'elementry', 'elemntary', 'colege', 'universty', 'acadmy'];

const mb = (bytes: number) => `${fmt(bytes / 1e6, 0)} MB`;
const load = () => fmt(loadavg()[0]!, 2);

function readOptions() {
  const { values, int } = toolOptions(USAGE, {
    schools: { type: 'string' },
    store: { type: 'string' },
    queries: { type: 'string' },
    seed: { type: 'string' },
    'limit-mb': { type: 'string' },
  });
  return {
    schools: int('--schools', values.schools, 1_000_000, 1_000),
    store: values.store,
    queries: int('--queries', values.queries, 100, 1),
    seed: int('--seed', values.seed, 1, 0),
    limitMb: int('--limit-mb', values['limit-mb'], 512, 1),
  };
}

/** The store at `path`, made from the seed and synthetic schools when it does not exist. */
async function makeStore(path: string, schools: number, seed: number, dir: string): Promise<void> {
  if (existsSync(path)) {
    out(`store: a copy of ${path}`);
    return;
  }
  const file = join(dir, 'catalog.ndjson');
  const written = writeCatalogFile(file, schools, seed, readSeedSchools());
  out(
    `catalog: ${written.rows} schools (${written.real} of the seed, ${written.synthetic} synthetic), ${mib(written.bytes)}`,
  );
  const run = await timeImport(file, { ...process.env, DATABASE_PATH: path, MONGODB_URI: '' });
  rmSync(file);
  out(`store: ${path}, ${run.inserted} schools imported in ${fmt(run.seconds, 1)} s`);
}

/** The names and states the queries are drawn from, read from the store itself. */
function catalogNames(path: string): { name: string; state: string }[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare('SELECT name, state FROM schools').all() as { name: string; state: string }[];
  } finally {
    db.close();
  }
}

/** The probe's queries by class: the speed classes of bench:compare, and typos of the most common words. */
function probeQueries(names: { name: string; state: string }[], perClass: number, seed: number) {
  const queries: Record<string, SearchRequest[]> = {};
  for (const cls of SPEED_CLASSES) queries[cls] = [];
  for (const q of speedQueries(names, perClass, seed)) {
    queries[q.cls]!.push({ query: q.text, stateCode: q.stateCode, offset: q.offset, limit: q.limit });
  }
  queries['common-typo'] = COMMON_TYPOS.map((query) => ({ query, offset: 0, limit: 25 }));
  return queries;
}

type Step = 'delta' | 'fold' | 'rebuild';

/** What the server's log says when each step's change is in. */
const DONE: Record<Step, (line: string) => boolean> = {
  delta: (line) => line.includes('"msg":"search index changes applied"'),
  fold: (line) => line.includes('"msg":"search index built"') && line.includes('"folded":true'),
  rebuild: (line) => line.includes('"msg":"search index built"') && line.includes('"folded":false'),
};

/** The count of the server's log lines that say a step's change is in. */
function builds(logFile: string, step: Step): number {
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return 0;
  }
  return text.split('\n').filter(DONE[step]).length;
}

/** Resets the process's peak RSS (VmHWM) to its RSS now (Linux 4.0+). */
function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** `count` schools of the store with their prominence changed: an import that changes the catalog. */
function rebuildFile(path: string, dir: string, round: string, count: number): string {
  const db = new DatabaseSync(path, { readOnly: true });
  let rows: { id: string; name: string; city: string; state: string; prominence: number }[];
  try {
    rows = db
      .prepare('SELECT id, name, city, state, prominence FROM schools ORDER BY rowid DESC LIMIT ?')
      .all(count) as typeof rows;
  } finally {
    db.close();
  }
  const file = join(dir, `rebuild-${round}.ndjson`);
  const lines = rows.map((r) =>
    JSON.stringify({
      schoolid: r.id,
      schoolname: r.name,
      city: r.city,
      stateprovince: r.state,
      aliases: [],
      prominence: (r.prominence + 1) % 41,
    }),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function rebuild(server: BenchServer, store: string, dir: string, logFile: string, step: Step, count: number) {
  const before = builds(logFile, step);
  const reset = resetPeak(server.pid);
  const loadBefore = load();
  const run = await timeImport(rebuildFile(store, dir, `${step}-${before}`, count), {
    ...process.env,
    DATABASE_PATH: store,
    MONGODB_URI: '',
  });
  const started = performance.now();
  while (builds(logFile, step) === before) {
    if (performance.now() - started > 600_000) throw new Error(`no ${step} within 10 minutes of the import`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const seconds = (performance.now() - started) / 1000;
  const memory = await server.call({ type: 'memory' });
  // The previous index is garbage once the new one is in: what is left of it a while later.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
  const settled = await server.call({ type: 'memory' });
  return {
    reset,
    loadBefore,
    importSeconds: run.seconds,
    seconds,
    peak: memory.vmHwm,
    rss: memory.memory.rss,
    settledRss: settled.memory.rss,
  };
}

async function main(): Promise<number> {
  const options = readOptions();
  const dir = mkdtempSync(join(tmpdir(), 'school-search-million-'));
  let server: BenchServer | undefined;
  process.once('SIGINT', () => {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    out(`school-search bench:million: node ${process.version}, ${options.schools} schools, work in ${dir}`);
    const store = join(dir, 'store.db');
    await makeStore(options.store ?? store, options.schools, options.seed, dir);
    // A store made before closes its write-ahead log into the file: the file is the whole store.
    if (options.store) copyFileSync(options.store, store);
    const names = catalogNames(store);
    const queries = probeQueries(names, options.queries, options.seed + 1);
    // What the process holds before the server starts is not the server's: drop it.
    names.length = 0;

    const logFile = join(dir, 'server.log');
    const startLoad = load();
    server = await startServer(serverEnv(store, logFile));
    const { ready } = server;
    // The index file is written once the built index serves: the restart below reads it.
    const indexFile = `${store}.index`;
    for (const until = performance.now() + 120_000; !existsSync(indexFile) && performance.now() < until; )
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (!existsSync(indexFile)) throw new Error(`no index file ${indexFile} within 120 s of the start-up`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    const settledBuilt = await server.call({ type: 'memory' });
    await server.stop();

    // A restart on the same store: the index read from its file, not built. The imports below
    // run on this server, as they would after any restart.
    const fileLoad = load();
    server = await startServer(serverEnv(store, logFile));
    const fromFile = server.ready;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
    const settled = await server.call({ type: 'memory' });

    const probeLoad = load();
    const probe = await server.call({ type: 'probe', queries });
    const steps = {
      delta: await rebuild(server, store, dir, logFile, 'delta', DELTA_SCHOOLS),
      fold: await rebuild(server, store, dir, logFile, 'fold', FOLD_SCHOOLS),
      rebuild: await rebuild(server, store, dir, logFile, 'rebuild', REBUILD_SCHOOLS),
    };
    const again = steps.rebuild;
    await server.stop();

    const limit = options.limitMb * 1e6;
    out();
    out(
      table(
        ['figure', 'value', 'load before'],
        [
          ['schools in the index', String(ready.schools), ''],
          ['start-up: catalog read + index built (engine.start)', `${fmt(ready.indexMs / 1000, 1)} s`, startLoad],
          [
            `start-up peak RSS, VmHWM when ready (limit ${options.limitMb} MB)`,
            `${mb(ready.vmHwm)} (${mib(ready.vmHwm)})`,
            '',
          ],
          [
            `RSS when ready / settled (${SETTLE_S} s)`,
            `${mib(ready.memory.rss)} / ${mib(settledBuilt.memory.rss)}`,
            '',
          ],
          ['restart: index read from its file (engine.start)', `${fmt(fromFile.indexMs / 1000, 1)} s`, fileLoad],
          [
            `restart peak RSS, VmHWM when ready (limit ${options.limitMb} MB)`,
            `${mb(fromFile.vmHwm)} (${mib(fromFile.vmHwm)})`,
            '',
          ],
          [
            `restart: RSS when ready / settled (${SETTLE_S} s)`,
            `${mib(fromFile.memory.rss)} / ${mib(settled.memory.rss)}`,
            '',
          ],
          ...(Object.entries(steps) as [Step, typeof again][]).flatMap(([step, run]) => {
            const count = { delta: DELTA_SCHOOLS, fold: FOLD_SCHOOLS, rebuild: REBUILD_SCHOOLS }[step];
            return [
              [
                `${step}: import of ${count} changed schools, spawn to exit`,
                `${fmt(run.importSeconds, 1)} s`,
                run.loadBefore,
              ],
              [`${step}: import exit to the change in`, `${fmt(run.seconds, 1)} s`, ''],
              [
                run.reset
                  ? `${step} peak RSS, VmHWM reset before it (limit ${options.limitMb} MB)`
                  : `${step} peak RSS (VmHWM not reset: lifetime peak)`,
                `${mb(run.peak)} (${mib(run.peak)})`,
                '',
              ],
              [`RSS after the ${step} / ${SETTLE_S} s later`, `${mib(run.rss)} / ${mib(run.settledRss)}`, ''],
            ];
          }),
        ],
        1,
      ),
    );
    out();
    out(
      `engine alone, in the server (load before: ${probeLoad}); first: each query's first answer, again: the same query asked again`,
    );
    out(
      table(
        [
          'class',
          'queries',
          'first p50 ms',
          'first p99 ms',
          'first max ms',
          'again p50 ms',
          'again p99 ms',
          'median matches',
        ],
        Object.entries(probe.classes).map(([cls, f]: [string, ProbeFigures]) => [
          cls,
          String(f.queries),
          fmt(f.first.p50, 2),
          fmt(f.first.p99, 2),
          fmt(f.first.max, 2),
          fmt(f.again.p50, 2),
          fmt(f.again.p99, 2),
          String(f.medianMatches),
        ]),
        1,
      ),
    );
    const figures = {
      schools: ready.schools,
      startSeconds: ready.indexMs / 1000,
      startPeak: ready.vmHwm,
      settledRss: settledBuilt.memory.rss,
      fromFile: { seconds: fromFile.indexMs / 1000, peak: fromFile.vmHwm, settledRss: settled.memory.rss },
      steps: Object.fromEntries(
        Object.entries(steps).map(([step, run]) => [
          step,
          { peak: run.peak, seconds: run.seconds, settledRss: run.settledRss },
        ]),
      ),
      classes: Object.fromEntries(
        Object.entries(probe.classes).map(([cls, f]) => [cls, { p50: f.first.p50, p99: f.first.p99 }]),
      ),
      load: { start: startLoad, fromFile: fileLoad, probe: probeLoad, rebuild: again.loadBefore },
    };
    out();
    const peaks: [string, number][] = [
      ['start-up', ready.vmHwm],
      ['restart from the index file', fromFile.vmHwm],
      ...Object.entries(steps).map(([step, run]): [string, number] => [step, run.peak]),
    ];
    for (const [what, peak] of peaks)
      out(`${what} peak ${mb(peak)}: ${peak <= limit ? 'within' : 'ABOVE'} the ${options.limitMb} MB limit`);
    const met = peaks.every(([, peak]) => peak <= limit);
    out(JSON.stringify(figures));
    return met ? 0 : 1;
  } finally {
    server?.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.exitCode = await main();
