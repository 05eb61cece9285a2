// npm run bench:compare — designs of the search engine side by side, on the quality and on the
// speed benchmarks: the purpose-built in-process index the API serves from (src/search/memory/),
// the MiniSearch library (scripts/compare/minisearch.engine.ts), plain and with the project's
// synonym table, and SQLite FTS5 as node:sqlite ships it (scripts/compare/fts5.engine.ts). After
// the quality table, per class, where the index leads or trails each of them. Figures only: no
// targets are enforced, exits 0.
//
//   quality: the query classes of `npm run bench:quality` (scripts/quality/), on the committed
//            catalog (IPEDS seed + Canadian sample), measured with evaluate() on each engine;
//   speed:   a catalog of N schools (the same real schools, topped up with the bench's synthetic
//            catalog), and per engine, each in a child process of its own (node --expose-gc):
//            build time, memory of the built index (heap + array buffers after a full GC, minus
//            the same before the build), and per query class the p50/p99 latency of search(),
//            sequentially, after one warm-up pass (scripts/compare/speed.ts). The in-process
//            index caches each word's documents and recent pages: it is timed with empty
//            caches for every query (the worst case), then again warmed ("repeat").
//
// Options:
//   --schools N    schools in the speed catalog (default 130000)
//   --queries N    queries per speed class, each asked without and with a stateCode (default 100)
//   --seed K       seed of the synthetic catalog and of the speed queries (default 1)
//   --quality-only / --speed-only
//   --best-of N    time each query N times (on fresh caches each time, for the index) and keep
//                  its least time (default 1): on a busy machine, a percentile of the engine, not
//                  of the waits for a CPU
//   --engines A,B  the engines measured (index, minisearch, minisearch-syn, fts5; default all):
//                  `--speed-only --engines index --schools 1000000` measures the index alone at a
//                  million schools, where MiniSearch would take minutes and gigabytes
//   --child ENGINE (internal: the child process measuring one engine's speed)
// The last line printed is the figures as one JSON line.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { CatalogSchool } from '../../src/domain/catalog/catalog.ports.ts';
import { buildIndex } from '../../src/search/memory/build.ts';
import { MemoryIndex } from '../../src/search/memory/memory-index.ts';
import { fmt, out, table } from '../bench/format.ts';
import { Fts5Engine } from './fts5.engine.ts';
import { MiniSearchEngine } from './minisearch.engine.ts';
import {
  SPEED_CLASS_HELP,
  SPEED_CLASSES,
  speedCatalog,
  speedQueries,
  timePass,
  usedMemory,
  type ClassTiming,
  type SpeedQuery,
  type Timed,
} from './speed.ts';
import { loadCatalog } from '../quality/catalog.ts';
import { buildClasses } from '../quality/classes.ts';
import { evaluate, type ClassResult } from '../quality/evaluate.ts';

const ENGINES = ['index', 'minisearch', 'minisearch-syn', 'fts5'] as const;
type EngineName = (typeof ENGINES)[number];

const MINISEARCH_VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    devDependencies: Record<string, string>;
  }
).devDependencies['minisearch'];
const LABEL: Record<EngineName, string> = {
  index: 'in-process index',
  minisearch: `MiniSearch ${MINISEARCH_VERSION}`,
  'minisearch-syn': `MiniSearch ${MINISEARCH_VERSION} + synonyms`,
  fts5: `SQLite FTS5 (node:sqlite ${process.versions.sqlite})`,
};

const { values } = parseArgs({
  options: {
    schools: { type: 'string' },
    queries: { type: 'string' },
    seed: { type: 'string' },
    'quality-only': { type: 'boolean' },
    'speed-only': { type: 'boolean' },
    engines: { type: 'string' },
    'best-of': { type: 'string' },
    child: { type: 'string' },
  },
});
const int = (name: string, value: string | undefined, fallback: number, min: number): number => {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number >= ${min}`);
  return n;
};
const schools = int('schools', values.schools, 130_000, 1);
const perClass = int('queries', values.queries, 100, 1);
const seed = int('seed', values.seed, 1, 0);
const bestOf = int('best-of', values['best-of'], 1, 1);
const engines: readonly EngineName[] = values.engines
  ? values.engines.split(',').map((name) => {
      if (!ENGINES.includes(name as EngineName)) throw new Error(`--engines: ${name} is none of ${ENGINES.join(', ')}`);
      return name as EngineName;
    })
  : ENGINES;

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const ms = (x: number) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
const note = (text: string) => void process.stderr.write(`${text}\n`);

if (values.child !== undefined) {
  await speedChild(values.child as EngineName);
} else {
  await main();
}

// ---------------------------------------------------------------------------------------------
// Speed, in a child process: one engine.

interface SpeedResult {
  readonly engine: EngineName;
  readonly schools: number;
  readonly queries: number;
  readonly buildMs: number;
  /** Bytes: heap + array buffers after a full GC, the built index's share. */
  readonly memory: number;
  /** The same after the timed passes (the in-process index caches each word's documents). */
  readonly memoryAfterQueries: number;
  readonly classes: readonly ClassTiming[];
  /** In-process index only: the same queries asked again, its caches warm (`classes`: every query on empty caches). */
  readonly repeat?: readonly ClassTiming[];
}

async function speedChild(engine: EngineName): Promise<void> {
  if (!ENGINES.includes(engine)) throw new Error(`unknown engine ${engine}`);
  const rows = await speedCatalog(schools, seed);
  const queries = speedQueries(rows, perClass, seed);
  const before = usedMemory();
  const t0 = performance.now();
  let result: SpeedResult;
  if (engine === 'index') {
    // Built on this thread, as bench:quality does (the API builds it in a worker thread from
    // 20,000 schools on: the same work, off the event loop).
    const data = buildIndex(rows);
    const index = new MemoryIndex(data);
    const buildMs = performance.now() - t0;
    const memory = usedMemory() - before;
    // The catalog as objects is the bench's, not the index's: let it go before timing, or every
    // full collection during the timed passes walks it (a GiB of heap at a million schools,
    // pauses of tens of milliseconds in the searches' times).
    const catalogSize = rows.length;
    rows.length = 0;
    const withoutCatalog = usedMemory();
    note(`  ${LABEL[engine]}: built in ${fmt(buildMs, 0)} ms, ${fmt(memory / 1048576)} MB; warm-up pass`);
    const timed = indexTimed(() => index);
    timePass(timed, queries);
    // The index caches each query word's documents (16 MB at most) and the first results of
    // the last 2,048 queries. The timed pass gives every query a fresh MemoryIndex over the
    // same data, its caches empty (built before the clock starts): each query is timed as if
    // it had never been asked, the worst case. The repeat pass asks them again of the warmed
    // index, its pages kept: the best case.
    note(`  ${LABEL[engine]}: timed pass (every query on empty caches), then repeat pass (warmed caches)`);
    let fresh = index;
    const classes = timePass(
      {
        prepare: () => {
          fresh = new MemoryIndex(data);
        },
        search: indexTimed(() => fresh).search,
      },
      queries,
      bestOf,
    );
    const repeat = timePass(timed, queries);
    const memoryAfterQueries = memory + usedMemory() - withoutCatalog;
    result = {
      engine,
      schools: catalogSize,
      queries: queries.length,
      buildMs,
      memory,
      memoryAfterQueries,
      classes,
      repeat,
    };
    if (index.size !== catalogSize) throw new Error('index lost schools');
  } else if (engine === 'fts5') {
    // SQLite's memory is outside V8's heap: the process's RSS, before and after, is its measure.
    usedMemory();
    const rssBefore = process.memoryUsage().rss;
    const fts = new Fts5Engine(rows);
    const buildMs = performance.now() - t0;
    usedMemory();
    const memory = process.memoryUsage().rss - rssBefore;
    note(`  ${LABEL[engine]}: built in ${fmt(buildMs, 0)} ms, ${fmt(memory / 1048576)} MB (RSS); warm-up pass`);
    const timed: Timed = { search: (q) => fts.searchSync(q) };
    timePass(timed, queries);
    note(`  ${LABEL[engine]}: timed pass`);
    const classes = timePass(timed, queries, bestOf);
    usedMemory();
    const memoryAfterQueries = process.memoryUsage().rss - rssBefore;
    result = { engine, schools: rows.length, queries: queries.length, buildMs, memory, memoryAfterQueries, classes };
    if (fts.size !== rows.length) throw new Error('FTS5 lost schools');
  } else {
    const mini = new MiniSearchEngine(rows, { synonyms: engine === 'minisearch-syn' });
    const buildMs = performance.now() - t0;
    const memory = usedMemory() - before;
    note(`  ${LABEL[engine]}: built in ${fmt(buildMs, 0)} ms, ${fmt(memory / 1048576)} MB; warm-up pass`);
    const timed: Timed = { search: (q) => mini.searchSync(q) };
    timePass(timed, queries);
    note(`  ${LABEL[engine]}: timed pass`);
    const classes = timePass(timed, queries, bestOf);
    const memoryAfterQueries = usedMemory() - before;
    result = { engine, schools: rows.length, queries: queries.length, buildMs, memory, memoryAfterQueries, classes };
    if (mini.size !== rows.length) throw new Error('MiniSearch lost schools');
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function indexTimed(current: () => MemoryIndex): Timed {
  return {
    search: (q: SpeedQuery) => {
      const index = current();
      const before = index.graded;
      const page = index.search({ plan: q.plan, stateCode: q.stateCode, offset: q.offset, limit: q.limit });
      return { total: page.total, graded: index.graded - before };
    },
  };
}

function runChild(engine: EngineName): Promise<SpeedResult> {
  return new Promise((resolve, reject) => {
    const args = [
      ...process.execArgv,
      '--expose-gc',
      fileURLToPath(import.meta.url),
      '--child',
      engine,
      '--schools',
      String(schools),
      '--queries',
      String(perClass),
      '--seed',
      String(seed),
      '--best-of',
      String(bestOf),
    ];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').pop() ?? '';
      if (code !== 0 || !last.startsWith('{')) reject(new Error(`speed child for ${engine} exited with ${code}`));
      else resolve(JSON.parse(last) as SpeedResult);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The comparison.

async function main(): Promise<void> {
  const json: Record<string, unknown> = { bench: 'compare', minisearch: MINISEARCH_VERSION, node: process.version };

  if (!values['speed-only']) {
    const catalog = await loadCatalog();
    const classes = buildClasses(catalog);
    const quality = new Map<EngineName, ClassResult[]>();
    for (const engine of engines) {
      const t0 = performance.now();
      const searcher = qualityEngine(engine, catalog);
      quality.set(engine, await evaluate(searcher, classes));
      note(`quality: ${LABEL[engine]} measured in ${fmt((performance.now() - t0) / 1000)} s`);
    }
    printQuality(catalog.length, quality);
    json['quality'] = {
      schools: catalog.length,
      ...Object.fromEntries(
        [...quality].map(([e, rs]) => [
          e,
          Object.fromEntries(rs.map((r) => [r.name, { value: r.value, at1: r.at1, at5: r.at5, target: r.target }])),
        ]),
      ),
    };
  }

  if (!values['quality-only']) {
    const speed: SpeedResult[] = [];
    for (const engine of engines) {
      note(`speed: ${LABEL[engine]}, ${schools} schools (child process)`);
      speed.push(await runChild(engine));
    }
    printSpeed(speed);
    json['speed'] = {
      schools: speed[0]!.schools,
      queries: speed[0]!.queries,
      ...Object.fromEntries(
        speed.map((s) => [
          s.engine,
          {
            buildMs: Math.round(s.buildMs),
            memoryMB: +(s.memory / 1048576).toFixed(1),
            memoryAfterQueriesMB: +(s.memoryAfterQueries / 1048576).toFixed(1),
            classes: Object.fromEntries(
              s.classes.map((c) => [
                c.cls,
                {
                  p50: +c.p50.toFixed(3),
                  p99: +c.p99.toFixed(3),
                  withoutState: { p50: +c.withoutState.p50.toFixed(3), p99: +c.withoutState.p99.toFixed(3) },
                  withState: { p50: +c.withState.p50.toFixed(3), p99: +c.withState.p99.toFixed(3) },
                  meanTotal: Math.round(c.meanTotal),
                  ...(c.meanMaterialized === undefined ? {} : { meanMaterialized: Math.round(c.meanMaterialized) }),
                  ...(c.maxGraded === undefined
                    ? {}
                    : { meanGraded: Math.round(c.meanGraded!), maxGraded: c.maxGraded }),
                },
              ]),
            ),
            ...(s.repeat
              ? {
                  repeat: Object.fromEntries(
                    s.repeat.map((c) => [c.cls, { p50: +c.p50.toFixed(3), p99: +c.p99.toFixed(3) }]),
                  ),
                }
              : {}),
          },
        ]),
      ),
    };
  }
  out(JSON.stringify(json));
}

function qualityEngine(engine: EngineName, catalog: readonly CatalogSchool[]) {
  if (engine === 'index') {
    // Exactly as scripts/quality/main.ts builds it.
    const index = new MemoryIndex(buildIndex(catalog));
    return { search: async (q: Parameters<MemoryIndex['search']>[0]) => index.search(q) };
  }
  if (engine === 'fts5') return new Fts5Engine(catalog);
  return new MiniSearchEngine(catalog, { synonyms: engine === 'minisearch-syn' });
}

function printQuality(size: number, quality: ReadonlyMap<EngineName, ClassResult[]>): void {
  const engines = [...quality.keys()];
  const first = quality.get(engines[0]!)!;
  const rows: string[][] = [];
  const met = new Map(engines.map((e) => [e, 0]));
  let targets = 0;
  for (const [i, r] of first.entries()) {
    const per = engines.map((e) => quality.get(e)![i]!);
    const mark = (x: ClassResult) => (r.target > 0 && x.value + 1e-9 < r.target ? ' <' : '');
    if (r.target > 0) {
      targets++;
      for (const [k, e] of engines.entries()) if (per[k]!.value + 1e-9 >= r.target) met.set(e, met.get(e)! + 1);
    }
    const target = r.target > 0 ? `>= ${pct(r.target)}` : '(shown)';
    rows.push([`${r.name} ${r.measure}`, String(r.count), target, ...per.map((x) => pct(x.value) + mark(x))]);
    if (r.measure === '@5') rows.push([`${r.name} @1`, '', '(shown)', ...per.map((x) => pct(x.at1!))]);
    for (const [j, [kind, n]] of r.kinds.entries())
      rows.push([`  ${kind}`, String(n), '', ...per.map((x) => pct(x.kinds[j]![2]))]);
  }
  out(`search quality: ${size} schools (IPEDS seed + Canadian sample), the classes of npm run bench:quality`);
  out(`('<': below the class's target)`);
  out();
  out(table(['class', 'probes', 'target', ...engines.map((e) => LABEL[e])], rows, 1));
  out();
  out(`targets met: ${engines.map((e) => `${LABEL[e]} ${met.get(e)}/${targets}`).join(', ')}`);
  out();
  printLeads(quality);
}

/** Per class, where the in-process index leads or trails each other engine: the difference in points of its measure. */
function printLeads(quality: ReadonlyMap<EngineName, ClassResult[]>): void {
  const index = quality.get('index');
  const others = [...quality.keys()].filter((e) => e !== 'index');
  if (!index || others.length === 0) return;
  const verdict = (d: number) => (Math.abs(d) < 0.0005 ? 'even' : d > 0 ? 'leads' : 'trails');
  const rows = index.map((r, i) => [
    `${r.name} ${r.measure}`,
    ...others.flatMap((e) => {
      const d = r.value - quality.get(e)![i]!.value;
      return [`${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)}`, verdict(d)];
    }),
  ]);
  out('the in-process index against each other engine, per class: points of the class measure (index minus the other)');
  out(table(['class', ...others.flatMap((e) => [`vs ${LABEL[e]}`, ''])], rows, 1));
  const counts = others.map((e) => {
    const ds = index.map((r, i) => r.value - quality.get(e)![i]!.value);
    return `${LABEL[e]}: leads ${ds.filter((d) => d >= 0.0005).length}, even ${ds.filter((d) => Math.abs(d) < 0.0005).length}, trails ${ds.filter((d) => d <= -0.0005).length}`;
  });
  out(`classes: ${counts.join('; ')}`);
  out();
}

function printSpeed(speed: readonly SpeedResult[]): void {
  const s0 = speed[0]!;
  out(
    `search speed: ${s0.schools} schools (IPEDS seed + Canadian sample + synthetic), ${s0.queries} queries ` +
      `(${perClass} per class, each without and with a stateCode; 1 in 5 at an offset of 25-500), sequential, after a warm-up pass` +
      (bestOf > 1 ? `; each timed ${bestOf} times, its least time kept` : ''),
  );
  out();
  out(
    table(
      ['engine', 'build ms', 'index MB (FTS5: RSS)', 'MB after queries'],
      speed.map((s) => [
        LABEL[s.engine],
        fmt(s.buildMs, 0),
        fmt(s.memory / 1048576),
        fmt(s.memoryAfterQueries / 1048576),
      ]),
      1,
    ),
  );
  out();
  const header = ['class', 'mean matches (index)'];
  for (const s of speed) {
    header.push(`${LABEL[s.engine]} p50`, 'p99');
    if (s.repeat) header.push('repeat p50', 'p99');
  }
  const rows = SPEED_CLASSES.map((cls) => {
    const index = speed.find((s) => s.engine === 'index')?.classes.find((c) => c.cls === cls);
    const row = [cls, index ? fmt(index.meanTotal, 0) : ''];
    for (const s of speed) {
      const c = s.classes.find((x) => x.cls === cls)!;
      row.push(ms(c.p50), ms(c.p99));
      if (s.repeat) {
        const r = s.repeat.find((x) => x.cls === cls)!;
        row.push(ms(r.p50), ms(r.p99));
      }
    }
    return row;
  });
  out('latency of search(), ms (in-process index: each query on empty caches; "repeat": the warmed index)');
  out(table(header, rows, 1));
  out();
  const split = SPEED_CLASSES.map((cls) => {
    const row: string[] = [cls];
    for (const s of speed) {
      const c = s.classes.find((x) => x.cls === cls)!;
      row.push(
        `${ms(c.withoutState.p50)} / ${ms(c.withoutState.p99)}`,
        `${ms(c.withState.p50)} / ${ms(c.withState.p99)}`,
      );
    }
    return row;
  });
  const index = speed.find((s) => s.engine === 'index');
  if (index) {
    out(
      'in-process index: documents graded per query on empty caches (the walk to the page; unlike time, the same on a busy machine)',
    );
    out(
      table(
        ['class', 'mean', 'most'],
        index.classes.map((c) => [c.cls, fmt(c.meanGraded ?? 0, 0), String(c.maxGraded ?? 0)]),
        1,
      ),
    );
    out();
  }
  out('the same, p50 / p99 in ms, without and with a stateCode');
  out(table(['class', ...speed.flatMap((s) => [`${LABEL[s.engine]}: no state`, 'with state'])], split, 1));
  out();
  for (const cls of SPEED_CLASSES) out(`  ${cls.padEnd(11)} ${SPEED_CLASS_HELP[cls]}`);
  out();
  // MiniSearch returns every match, scored and sorted, whatever the page: its cost grows with the matches.
  const minis = speed.filter((s) => s.engine === 'minisearch' || s.engine === 'minisearch-syn');
  if (minis.length > 0) {
    const mrows = SPEED_CLASSES.map((cls) => {
      const row: string[] = [cls];
      for (const s of minis) {
        const c = s.classes.find((x) => x.cls === cls)!;
        row.push(fmt(c.meanMaterialized ?? 0, 0), pct(c.beyondPage ?? 0));
      }
      return row;
    });
    const answers = minis[0]!.queries;
    out(
      `MiniSearch answers: every one of the ${answers} answers of each MiniSearch run built, scored and sorted ALL its matches ` +
        '(search() returns them all; the page is a slice): its cost grows with the number of matches, not with the page.',
    );
    out(
      table(
        [
          'class',
          ...minis.flatMap((s) => [
            `${LABEL[s.engine]}: results sorted per answer`,
            'answers with more matches than the page',
          ]),
        ],
        mrows,
        1,
      ),
    );
    out();
  }
}
