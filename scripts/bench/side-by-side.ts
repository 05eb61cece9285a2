// Two versions of the server compared on the same machine at the same time: `npm run
// bench:side-by-side -- --a DIR --b DIR`. On a shared or throttled machine the speed of a whole
// `npm run bench` moves by a third from one minute to the next, more than most changes; here two
// servers (each checkout's own bench server, on copies of one store holding the seed) take
// alternating bursts of the bench's search mix, and what is compared is each burst's CPU per
// search (the event loop's, from the server itself), round by round. The server started first
// was up to 15 % cheaper in some runs whatever code it ran, so each half of the rounds starts
// the other first, and the ratio given is the geometric mean of the two halves' medians.
// docs/runs/performance.md (Runs J to L) has what it measured.
//
//   --a DIR, --b DIR      checkouts to compare (npm installed; the same tree twice is an A/A check)
//   --rounds N            bursts per server (default 8; even: half with each started first)
//   --seconds S           length of a burst after 1 s of warm-up (default 5)
//   --flags-b "..."       Node flags for B only, after the server's own (e.g. "--max-semi-space-size=8")
//   --scenario S          mix (default): the bench's search mix, bursts of --seconds; distinct: the
//                         bench's distinct searches (mix.ts), each sent once, a share of each class
//                         per round (the same share to both servers), so every search is a first
//                         asking; the CPU is then the cost of a search answered by the engine
//
// Besides the CPU per search, it prints where the process's CPU went by thread (Linux: the
// threads' names in /proc): the event loop, the record writer, V8's helpers (GC), the others.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fromRoot, readSeedSchools, SEED_FILE } from './catalog-file.ts';
import { fmt } from './format.ts';
import { timeImport } from './import.ts';
import { isLoadWorker, loadWorker, runScenario } from './load.ts';
import { distinctSearches, MIX_CLASSES, MIX_WEIGHT, makeMix } from './mix.ts';
import { mulberry32 } from './random.ts';
import { median } from '../shared/stats.ts';
import { toolOptions } from '../shared/options.ts';
import { type BenchServer, serverEnv, startServer } from './server-process.ts';

const USAGE = `Usage: npm run bench:side-by-side -- --a DIR --b DIR [--rounds N] [--seconds S] [--flags-b "..."] [--scenario mix|distinct]
`;
const CONNECTIONS = 32;
const PER_CLASS = 400;

interface Burst {
  readonly rps: number;
  /** Event-loop CPU per search, µs. */
  readonly loopUs: number;
  /** The whole process's CPU per search (GC helpers, the record writer), µs. */
  readonly processUs: number;
  readonly p99Ms: number;
  readonly rssPeakMiB: number;
  /** The process's CPU per search by thread group (threadCpu), µs. */
  readonly threads: Record<string, number>;
}

/**
 * CPU time so far of each of a process's threads, µs, by group: its main thread (the event loop),
 * and the others by their name (Linux names them: V8's helpers "V8 DefaultWorke", libuv's pool
 * "libuv-worker", a worker thread its own); empty where there is no /proc.
 */
function threadCpu(pid: number): Map<string, number> {
  const byGroup = new Map<string, number>();
  const ticksUs = 1e6 / 100;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const name = tid === String(pid) ? 'event loop' : stat.slice(stat.indexOf('(') + 1, close).trim();
      const fields = stat.slice(close + 2).split(' ');
      const us = (Number(fields[11]) + Number(fields[12])) * ticksUs;
      byGroup.set(name, (byGroup.get(name) ?? 0) + us);
    }
  } catch {
    // A thread gone between the listing and its read, or no /proc: what was read so far.
  }
  return byGroup;
}

async function main(): Promise<void> {
  const { values, int } = toolOptions(USAGE, {
    a: { type: 'string' },
    b: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'flags-b': { type: 'string' },
    scenario: { type: 'string' },
  });
  const scenario = values.scenario ?? 'mix';
  if (scenario !== 'mix' && scenario !== 'distinct') {
    process.stderr.write(`--scenario is mix or distinct, not "${scenario}".\n${USAGE}`);
    process.exit(2);
  }
  if (!values.a || !values.b) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const trees = { A: resolve(values.a), B: resolve(values.b) };
  const rounds = int('--rounds', values.rounds, 8, 2);
  const seconds = int('--seconds', values.seconds, 5, 1);
  const flagsB = (values['flags-b'] ?? '').split(' ').filter(Boolean);

  const dir = mkdtempSync(join(tmpdir(), 'side-by-side-'));
  try {
    const seeded = join(dir, 'seeded.db');
    await timeImport(fromRoot(SEED_FILE), serverEnv(seeded, join(dir, 'import.log')));
    const seed = readSeedSchools();
    const mix = makeMix(seed, PER_CLASS, mulberry32(1));
    const mixClasses = MIX_CLASSES.map((c) => ({ name: c, weight: MIX_WEIGHT[c], paths: mix[c].map((q) => q.path) }));
    const distinct = scenario === 'distinct' ? distinctSearches(seed, 1) : [];
    // Round r's share of the distinct searches: every rounds-th of each class.
    const classesOf = (r: number) =>
      scenario === 'mix'
        ? mixClasses
        : distinct.map((c) => ({ ...c, paths: c.paths.filter((_, i) => i % rounds === r) }));

    const start = (name: 'A' | 'B', half: number): Promise<BenchServer> => {
      const db = join(dir, `${name}${half}.db`);
      copyFileSync(seeded, db);
      const script = join(trees[name], 'scripts/bench/server.ts');
      return startServer(serverEnv(db, `${db}.log`), name === 'B' ? flagsB : [], script);
    };
    const bursts: Record<'A' | 'B', Burst[]> = { A: [], B: [] };
    for (const half of [0, 1]) {
      const order = half === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const);
      const servers = {} as Record<'A' | 'B', BenchServer>;
      for (const name of order) servers[name] = await start(name, half);
      console.log(`-- ${order[0]} started first`);
      try {
        for (let r = half * (rounds >> 1); r < (half + 1) * (rounds >> 1); r++) {
          for (const name of r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
            const server = servers[name];
            let started: Promise<unknown> = Promise.resolve();
            let threadsAtStart = new Map<string, number>();
            const result = await runScenario(
              import.meta.filename,
              {
                title: name,
                url: server.ready.url,
                headers: { authorization: `Bearer ${server.ready.token}` },
                classes: classesOf(r),
                warmup: 1,
                duration: seconds,
                connections: CONNECTIONS,
                seed: r,
                once: scenario === 'distinct',
              },
              () => {
                threadsAtStart = threadCpu(server.pid);
                started = server.call({ type: 'start' });
              },
              () => undefined,
            );
            await started;
            const figures = await server.call({ type: 'end' });
            const threadsAtEnd = threadCpu(server.pid);
            await server.call({ type: 'drain' });
            const threads: Record<string, number> = {};
            for (const [name, us] of threadsAtEnd)
              threads[name] = (us - (threadsAtStart.get(name) ?? 0)) / result.requests;
            const burst: Burst = {
              rps: result.rps,
              loopUs: figures.cpuUs.main / result.requests,
              processUs: figures.cpuUs.process / result.requests,
              p99Ms: result.p99,
              rssPeakMiB: figures.rssPeak / 1048576,
              threads,
            };
            bursts[name].push(burst);
            console.log(
              `round ${r} ${name}: ${fmt(burst.rps, 0)} searches/s, CPU per search ${fmt(burst.loopUs, 0)} µs ` +
                `(process ${fmt(burst.processUs, 0)}), p99 ${fmt(burst.p99Ms, 1)} ms, RSS peak ${fmt(burst.rssPeakMiB, 0)} MiB; ` +
                `by thread ${threadsText(burst.threads)}`,
            );
          }
        }
      } finally {
        for (const server of Object.values(servers)) await server.stop();
      }
    }
    report(bursts, rounds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The threads' CPU per search, largest first, those under 1 µs left out. */
function threadsText(threads: Record<string, number>): string {
  return Object.entries(threads)
    .filter(([, us]) => us >= 1)
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => `${name} ${fmt(us, 0)}`)
    .join(', ');
}

function report(bursts: Record<'A' | 'B', Burst[]>, rounds: number): void {
  for (const name of ['A', 'B'] as const) {
    const b = bursts[name];
    console.log(
      `${name}: median ${fmt(median(b.map((x) => x.rps)), 0)} searches/s, CPU per search ${fmt(median(b.map((x) => x.loopUs)), 0)} µs ` +
        `(process ${fmt(median(b.map((x) => x.processUs)), 0)}), p99 ${fmt(median(b.map((x) => x.p99Ms)), 1)} ms, ` +
        `RSS peak ${fmt(median(b.map((x) => x.rssPeakMiB)), 0)} MiB`,
    );
    const names = [...new Set(b.flatMap((x) => Object.keys(x.threads)))];
    const medians = Object.fromEntries(names.map((n) => [n, median(b.map((x) => x.threads[n] ?? 0))]));
    console.log(`${name}: median CPU per search by thread, µs: ${threadsText(medians)}`);
  }
  const ratios = (figure: (x: Burst) => number) => bursts.B.map((b, i) => figure(b) / figure(bursts.A[i]!));
  const half = rounds >> 1;
  for (const [label, figure] of [
    ['event-loop CPU per search', (x: Burst) => x.loopUs],
    ['process CPU per search', (x: Burst) => x.processUs],
    ['p99', (x: Burst) => x.p99Ms],
  ] as const) {
    const r = ratios(figure);
    const first = median(r.slice(0, half));
    const second = median(r.slice(half));
    console.log(
      `B/A ${label}: ${r.map((x) => fmt(x, 3)).join(' ')}; medians ${fmt(first, 3)} (A started first), ` +
        `${fmt(second, 3)} (B first), geometric mean ${fmt(Math.sqrt(first * second), 3)}`,
    );
  }
}

if (isLoadWorker()) await loadWorker();
else await main();
