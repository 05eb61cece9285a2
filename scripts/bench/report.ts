// The closing report of the bench: the load table per scenario and class, the server's event-loop
// delay and memory, the engine alone, the targets, the failures, and one line of JSON with every
// figure.
import { cpus, loadavg } from 'node:os';
import type { CatalogFile } from './catalog-file.ts';
import { fmt, mib, out, table } from './format.ts';
import type { ImportRun } from './import.ts';
import type { Figures, LoadResult } from './load.ts';
import type { LogSummary, ProbeResult, Ready, Replies, ScenarioServerFigures } from './server-process.ts';
import { judge, type Target } from './targets.ts';

export type ScenarioKind =
  | 'health'
  | 'distinct'
  | 'mix'
  | 'mix+logins'
  /** The mix again, as a browser asks: Accept-Encoding br and gzip (the mix itself sends none). */
  | 'mix-compressed'
  /** A page's school picker with a publishable key (page.ts), in a browser's codings, and without any. */
  | 'page'
  | 'page-identity';

/** One scenario as run: the load generator's figures, the server's, and its backlog after. */
export interface ScenarioRun {
  readonly kind: ScenarioKind;
  readonly result: LoadResult;
  readonly server: ScenarioServerFigures;
  readonly drainMs: number;
}

/** Everything the report needs, measured by the entry point. */
export interface Run {
  readonly options: {
    readonly schools: number;
    readonly duration: number;
    readonly connections: number;
    readonly seed: number;
  };
  readonly logins: number;
  readonly loadBefore: number;
  readonly catalog: CatalogFile;
  readonly importRun: ImportRun;
  readonly ready: Ready;
  /** The server's memory once start-up's garbage is gone (after an idle wait). */
  readonly settled: Replies['memory'];
  readonly mix: { readonly distinct: number; readonly perClass: Record<string, number> };
  readonly results: readonly ScenarioRun[];
  readonly memoryEnd: Replies['memory'];
  readonly probe: ProbeResult | undefined;
  readonly log: LogSummary;
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const non2xx = (f: Figures) =>
  Object.entries(f.statusCodes)
    .filter(([c]) => !c.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);

function loadTable(results: readonly ScenarioRun[]): string {
  const rows: string[][] = [];
  const row = (name: string, cls: string, f: Figures, errors = '') => [
    name,
    cls,
    String(f.requests),
    fmt(f.rps, 0),
    fmt(f.p50, 2),
    fmt(f.p99, 2),
    fmt(f.max, 1),
    fmt(f.bytes, 0),
    String(non2xx(f)),
    errors,
  ];
  for (const { result } of results) {
    const classes = Object.keys(result.classes);
    rows.push(
      row(
        result.title,
        classes.length > 1 ? '(all searches)' : classes[0]!,
        result,
        String(result.errors + result.timeouts),
      ),
    );
    if (classes.length > 1) for (const name of classes) rows.push(row('', name, result.classes[name]!));
    if (result.logins) rows.push(row('', 'login (POST /v1/auth)', result.logins, String(result.logins.errors)));
  }
  return table(
    ['scenario', 'class', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'bytes/answer', 'non-2xx', 'errors'],
    rows,
    2,
  );
}

/**
 * The same load with and without compression, side by side: what compression costs in
 * throughput and CPU and what it saves on the wire (ratios, which another job on the machine
 * skews less than the figures themselves).
 */
function compressionLines(results: readonly ScenarioRun[]): string[] {
  const pairs = [
    ['search mix', 'mix', 'mix-compressed'],
    ['page (publishable key)', 'page-identity', 'page'],
  ] as const;
  const lines: string[] = [];
  for (const [name, plainKind, compressedKind] of pairs) {
    const plain = results.find((x) => x.kind === plainKind);
    const compressed = results.find((x) => x.kind === compressedKind);
    if (!plain || !compressed) continue;
    const cpu = (x: ScenarioRun) => x.server.cpuUs.process / answered(x.result);
    lines.push(
      `${name}, compressed vs not: req/s ${fmt(compressed.result.rps, 0)} vs ${fmt(plain.result.rps, 0)} ` +
        `(x${fmt(compressed.result.rps / Math.max(1, plain.result.rps), 2)}), server CPU µs/req ${fmt(cpu(compressed), 0)} vs ${fmt(cpu(plain), 0)} ` +
        `(x${fmt(cpu(compressed) / Math.max(1, cpu(plain)), 2)}), bytes/answer ${fmt(compressed.result.bytes, 0)} vs ${fmt(plain.result.bytes, 0)} ` +
        `(x${fmt(compressed.result.bytes / Math.max(1, plain.result.bytes), 2)})`,
    );
  }
  return lines;
}

/** Requests the server answered in a scenario's window: its searches and its logins. */
function answered(result: ScenarioRun['result']): number {
  return Math.max(1, result.requests + (result.logins?.requests ?? 0));
}

function serverTable(results: readonly ScenarioRun[]): string {
  const rows = results.map(({ result, server, drainMs }) => [
    result.title,
    fmt(server.eld.p50, 2),
    fmt(server.eld.p99, 2),
    fmt(server.eld.max, 1),
    mib(server.rssPeak),
    mib(server.atPeak.heapTotal),
    mib(server.atPeak.heapUsed),
    mib(server.atPeak.external),
    fmt(drainMs / 1000, 1),
    fmt(server.cpuUs.main / answered(result), 0),
    fmt(server.cpuUs.process / answered(result), 0),
  ]);
  return table(
    [
      'scenario',
      'loop delay p50 ms',
      'p99 ms',
      'max ms',
      'RSS peak',
      'heap total',
      'heap used',
      'external',
      'backlog s',
      'CPU µs/req: loop',
      'process',
    ],
    rows,
    1,
  );
}

function probeTable(probe: ProbeResult): string {
  const rows = Object.entries(probe.classes).map(([cls, f]) => [
    cls,
    String(f.queries),
    fmt(f.first.p50, 2),
    fmt(f.first.p99, 2),
    fmt(f.first.max, 1),
    fmt(f.again.p50, 2),
    fmt(f.again.p99, 2),
    String(f.medianMatches),
    String(f.maxMatches),
  ]);
  return table(
    ['class', 'queries', 'first p50 ms', 'p99 ms', 'max ms', 'again p50 ms', 'p99 ms', 'median matches', 'max matches'],
    rows,
    1,
  );
}

/** Searches of the distinct scenario answered 2xx (each path is sent once: each is a distinct search). */
function distinctServed(results: readonly ScenarioRun[]): number {
  const run = results.find((x) => x.kind === 'distinct');
  if (!run) return 0;
  return Object.entries(run.result.statusCodes)
    .filter(([code]) => code.startsWith('2'))
    .reduce((n, [, c]) => n + c, 0);
}

function failuresOf(results: readonly ScenarioRun[]): string[] {
  const failures: string[] = [];
  for (const { result } of results) {
    // Every query of the mix is valid and every login right: any non-2xx is a failure.
    for (const [code, n] of Object.entries(result.statusCodes))
      if (!code.startsWith('2')) failures.push(`${result.title}: ${n} x ${code}`);
    if (result.errors > 0 || result.timeouts > 0)
      failures.push(`${result.title}: ${result.errors} socket errors (${result.timeouts} timeouts)`);
    if (result.requests === 0) failures.push(`${result.title}: no responses`);
    const logins = result.logins;
    if (logins) {
      for (const [code, n] of Object.entries(logins.statusCodes))
        if (!code.startsWith('2')) failures.push(`${result.title}, logins: ${n} x ${code}`);
      if (logins.errors > 0) failures.push(`${result.title}, logins: ${logins.errors} socket errors`);
      if (logins.requests === 0) failures.push(`${result.title}, logins: no responses`);
    }
  }
  return failures;
}

/** Prints the figures of the run and returns why it failed (nothing when every request succeeded and every target is met). */
export function report(run: Run): string[] {
  // Judged: the server's peak over its whole life (VmHWM), start-up and every scenario included.
  const serverRss = judgedRss(run);
  serverSection(run);
  if (run.probe) probeSection(run.probe);
  const targets = targetsSection(run, serverRss);
  const { loadAfter, failures, missed } = verdictSection(run, targets);
  out(jsonSummary(run, { serverRss, targets, loadAfter, failures: [...failures, ...missed] }));
  return [...failures, ...missed];
}

/** Scenarios the targets are about; the others (compression, the page) run after them. */
const JUDGED: readonly ScenarioKind[] = ['health', 'distinct', 'mix', 'mix+logins'];

/**
 * The peak RSS the target judges: the lifetime peak (VmHWM) after the last judged scenario, so that
 * the scenarios added after them (a page's searches fill the kept answers further) leave the
 * target as it was; the peak after everything is printed beside it.
 */
function judgedRss(run: Run): number {
  const last = run.results.filter((x) => JUDGED.includes(x.kind)).at(-1);
  const end = run.memoryEnd.vmHwm || run.memoryEnd.maxRss;
  return last && last !== run.results.at(-1) && last.server.vmHwm ? last.server.vmHwm : end;
}

/** The load table, and the server's own figures under each scenario. */
function serverSection(run: Run): void {
  const { results, ready, memoryEnd } = run;
  out();
  out(loadTable(results));
  out();
  out('server (its own process):');
  out(serverTable(results));
  out("(loop delay: monitorEventLoopDelay, resolution 1 ms, over the measured window; heap: V8's, at the RSS peak;");
  out(' backlog s: how long the server kept answering after the load generator stopped, not in the figures;');
  out(" CPU µs/req: the server's CPU time over the window per request answered, its event loop and the whole process)");
  const compression = compressionLines(results);
  if (compression.length) {
    out();
    for (const line of compression) out(line);
    out('(bytes/answer: on the wire, headers included, per answer; a page answer is a typed prefix or a preflight)');
  }
  out(
    `server RSS: ${mib(ready.memory.rss)} right after start (index of ${ready.schools} schools built in ${fmt(ready.indexMs / 1000, 2)} s), ` +
      `${mib(run.settled.memory.rss)} settled (heap ${mib(run.settled.memory.heapUsed)} used, external ${mib(run.settled.memory.external)}), ` +
      `highest during load ${mib(Math.max(0, ...results.map((x) => x.server.rssPeak)))}, at the end ${mib(memoryEnd.memory.rss)}; ` +
      `lifetime peak (VmHWM, start-up included) ${mib(memoryEnd.vmHwm || memoryEnd.maxRss)} (${fmt((memoryEnd.vmHwm || memoryEnd.maxRss) / 1e6, 0)} MB) ` +
      `after ${distinctServed(results)} distinct searches sent once; judged: ${mib(judgedRss(run))}, the peak after the last judged scenario`,
  );
}

/** The engine alone, in the server, after the load. */
function probeSection(probe: NonNullable<Run['probe']>): void {
  out();
  out(
    'engine alone, in the server process after the load (sequential, no HTTP; first: each query once, again: the same queries):',
  );
  out(probeTable(probe));
  out(
    `request-log append (a metered search's durable write), one at a time: p50 ${fmt(probe.append.p50, 2)} ms, p99 ${fmt(probe.append.p99, 2)} ms`,
  );
}

/** The targets, judged and printed. */
function targetsSection(run: Run, serverRss: number): Target[] {
  const { results, ready, importRun } = run;
  const scenario = (kind: ScenarioKind) => results.find((x) => x.kind === kind);
  const targets: Target[] = judge({
    schools: ready.schools,
    health: scenario('health')?.result,
    mix: scenario('mix') && { load: scenario('mix')!.result, server: scenario('mix')!.server },
    mixWithLogins: scenario('mix+logins')?.result,
    loginConnections: run.logins,
    serverRss,
    distinctSearches: distinctServed(results),
    importSeconds: importRun.seconds,
  });
  out();
  out('TARGETS');
  out(
    table(
      ['target', 'figure', 'limit', 'verdict'],
      targets.map((t) => [
        t.name,
        t.figure ?? '-',
        t.limit,
        t.ok === undefined ? 'n/a (not run)' : t.ok ? 'ok' : 'BELOW TARGET',
      ]),
      1,
    ),
  );

  return targets;
}

/** How busy the machine was, the server log, and what failed or missed its target. */
function verdictSection(run: Run, targets: Target[]) {
  const { results } = run;
  const loadAfter = loadavg()[0]!;
  const failures = failuresOf(results);
  if (run.log.errors > 0) failures.push(`the server logged ${run.log.errors} errors: ${run.log.samples.join(' | ')}`);
  const missed = targets
    .filter((t) => t.ok === false)
    .map((t) => `below target: ${t.name} is ${t.figure} (limit ${t.limit})`);
  out();
  out(
    `1-minute load average: ${fmt(run.loadBefore, 2)} before, ${fmt(loadAfter, 2)} after (${cpus().length} CPUs, shared by the server, the load generator and the argon2 threads)`,
  );
  out(`server log: ${run.log.lines} lines, ${run.log.warnings} warnings, ${run.log.errors} errors`);
  out(failures.length ? `FAILED: ${failures.join('; ')}` : 'all responses 2xx, no socket errors');
  for (const line of missed) out(line);

  return { loadAfter, failures, missed };
}

/** Every figure as one JSON line, for comparing runs. */
function jsonSummary(
  run: Run,
  judged: { serverRss: number; targets: Target[]; loadAfter: number; failures: string[] },
): string {
  const { options, results, ready, memoryEnd, probe, importRun } = run;
  const { serverRss, targets, loadAfter, failures } = judged;
  const json = (f: Figures) => ({
    requests: f.requests,
    rps: round(f.rps, 1),
    p50Ms: round(f.p50),
    p99Ms: round(f.p99),
    maxMs: round(f.max),
    bytes: Math.round(f.bytes),
    statusCodes: f.statusCodes,
  });
  return JSON.stringify({
    bench: 'school-search',
    node: process.version,
    cpus: cpus().length,
    loadAvgBefore: round(run.loadBefore),
    loadAvgAfter: round(loadAfter),
    schools: ready.schools,
    durationS: options.duration,
    connections: options.connections,
    loginConnections: run.logins,
    seed: options.seed,
    catalog: {
      rows: run.catalog.rows,
      real: run.catalog.real,
      synthetic: run.catalog.synthetic,
      mib: round(run.catalog.bytes / 1048576, 1),
    },
    importS: round(importRun.seconds),
    inserted: importRun.inserted,
    indexBuildS: round(ready.indexMs / 1000),
    mix: run.mix,
    scenarios: results.map(({ kind, result, server, drainMs }) => ({
      kind,
      title: result.title,
      seconds: round(result.seconds),
      errors: result.errors,
      timeouts: result.timeouts,
      ...json(result),
      classes: Object.fromEntries(Object.entries(result.classes).map(([k, f]) => [k, json(f)])),
      ...(result.logins ? { logins: { ...json(result.logins), errors: result.logins.errors } } : {}),
      eventLoopDelayMs: {
        p50: round(server.eld.p50),
        p99: round(server.eld.p99),
        max: round(server.eld.max),
        mean: round(server.eld.mean),
      },
      rssPeakMiB: round(server.rssPeak / 1048576, 0),
      heapTotalAtPeakMiB: round(server.atPeak.heapTotal / 1048576, 0),
      heapUsedAtPeakMiB: round(server.atPeak.heapUsed / 1048576, 0),
      backlogS: round(drainMs / 1000, 1),
      cpuUsPerRequest: {
        loop: round(server.cpuUs.main / answered(result), 0),
        process: round(server.cpuUs.process / answered(result), 0),
      },
      generatorMaxRssMiB: round(result.generatorMaxRssKiB / 1024, 0),
    })),
    serverRssMiB: {
      afterStart: round(ready.memory.rss / 1048576, 0),
      startupPeak: round(ready.vmHwm / 1048576, 0),
      settled: round(run.settled.memory.rss / 1048576, 0),
      peakServing: round(Math.max(0, ...results.map((x) => x.server.rssPeak)) / 1048576, 0),
      end: round(memoryEnd.memory.rss / 1048576, 0),
      lifetimePeak: round(serverRss / 1048576, 0),
      distinctSearches: distinctServed(results),
    },
    engine: probe
      ? {
          classes: Object.fromEntries(
            Object.entries(probe.classes).map(([k, f]) => [
              k,
              {
                firstP50Ms: round(f.first.p50),
                firstP99Ms: round(f.first.p99),
                againP50Ms: round(f.again.p50),
                medianMatches: f.medianMatches,
              },
            ]),
          ),
          appendP50Ms: round(probe.append.p50),
          appendP99Ms: round(probe.append.p99),
        }
      : null,
    targets: targets.map((t) => ({
      name: t.name,
      value: t.value === undefined ? null : round(t.value, 3),
      limit: t.limit,
      ok: t.ok ?? null,
    })),
    serverLog: { lines: run.log.lines, warnings: run.log.warnings, errors: run.log.errors },
    failures,
  });
}
