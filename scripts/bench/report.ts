// The closing report of the bench: the load table, the failures, the summary lines and one line
// of JSON with every figure.
import { cpus, loadavg } from 'node:os';
import { fmt, mib, out, table } from './format.ts';
import type { Figures, LoadResult } from './load.ts';
import type { StoreFigures } from './store-probe.ts';

/** Non-2xx statuses a scenario may answer without failing the run. None: every query is valid. */
const EXPECTED_NON_2XX: ReadonlySet<number> = new Set();

/** One scenario as run: its figures, whether it searched, and the server's backlog after it. */
export interface ScenarioRun {
  readonly result: LoadResult;
  readonly search: boolean;
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
  readonly sqliteVersion: string;
  readonly loadBefore: number;
  readonly seeding: {
    readonly generateMs: number;
    readonly draftMs: number;
    readonly upsertMs: number;
    readonly inserted: number;
  };
  readonly storeFigures: Readonly<Record<string, StoreFigures>>;
  readonly appendP50: number;
  readonly rssAfterSeed: number;
  readonly peakRssDuringLoad: number;
  readonly results: readonly ScenarioRun[];
}

/** Prints the figures of the run and returns its failures (none when every response was fine). */
export function report(run: Run): string[] {
  const { options, sqliteVersion, loadBefore, storeFigures, appendP50, rssAfterSeed, peakRssDuringLoad, results } = run;
  const { generateMs, draftMs, upsertMs, inserted } = run.seeding;
  const rows: string[][] = [];
  const failures: string[] = [];
  for (const { result, search, drainMs } of results) {
    const non2xx = Object.entries(result.statusCodes).filter(([code]) => !code.startsWith('2'));
    const row = (name: string, cls: string, f: Figures) => [
      name, cls, String(f.requests), fmt(f.rps, 0), fmt(f.p50, 2), fmt(f.p99, 2), fmt(f.max, 1),
      String(Object.entries(f.statusCodes).filter(([c]) => !c.startsWith('2')).reduce((n, [, c]) => n + c, 0)),
    ];
    rows.push([...row(result.title, '(all)', result), String(result.errors), fmt(drainMs / 1000, 1)]);
    const names = Object.keys(result.classes);
    if (names.length > 1) for (const name of names) rows.push([...row('', name, result.classes[name]!), '', '']);
    for (const [code, n] of non2xx) {
      const status = Number(code);
      if ((search && status >= 500) || !EXPECTED_NON_2XX.has(status)) failures.push(`${result.title}: ${n} x ${code}`);
    }
    if (result.errors > 0) failures.push(`${result.title}: ${result.errors} socket errors (${result.timeouts} timeouts)`);
    if (result.requests === 0) failures.push(`${result.title}: no responses`);
  }
  out();
  out(table(['scenario', 'class', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'backlog s'], rows, 2));
  out('(backlog s: how long the server kept working after the load generator stopped; not in the figures)');

  const mix = results.find((x) => x.result.title === 'search mix')?.result;
  const health = results.find((x) => x.result.title === 'health')?.result;
  const ratio = mix && health && health.rps > 0 ? mix.rps / health.rps : null;
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const generatorRss = Math.max(...results.map((x) => x.result.generatorMaxRssKiB)) * 1024;
  out();
  if (ratio !== null) out(`search mix / health req/s: ${fmt(ratio, 4)} (${fmt(mix!.rps, 0)} / ${fmt(health!.rps, 0)})`);
  out(`peak RSS of the bench process (seeding + server): ${mib(maxRss)}; after seeding ${mib(rssAfterSeed)}, ` +
    `highest sampled during load ${mib(peakRssDuringLoad)}; load generator child: ${mib(generatorRss)}`);
  out(`1-minute load average after: ${fmt(loadavg()[0]!, 2)} (this run keeps about 2 CPUs busy: server + load generator)`);
  out(failures.length ? `FAILED: ${failures.join('; ')}` : 'all responses 2xx, no socket errors');

  const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
  const json = (f: Figures) => ({ requests: f.requests, rps: round(f.rps, 1), p50Ms: round(f.p50), p99Ms: round(f.p99), maxMs: round(f.max), statusCodes: f.statusCodes });
  out(JSON.stringify({
    bench: 'school-search',
    node: process.version,
    sqlite: sqliteVersion,
    cpus: cpus().length,
    loadAvgBefore: round(loadBefore),
    loadAvgAfter: round(loadavg()[0]!),
    schools: options.schools,
    durationS: options.duration,
    connections: options.connections,
    seed: options.seed,
    seeding: { generateMs: round(generateMs, 0), draftMs: round(draftMs, 0), upsertMs: round(upsertMs, 0), rowsPerS: round(inserted / ((draftMs + upsertMs) / 1000), 0) },
    store: Object.fromEntries(Object.entries(storeFigures).map(([k, f]) => [k, { p50Ms: round(f.p50), maxMs: round(f.max), medianMatches: f.medianTotal, maxMatches: f.maxTotal }])),
    appendP50Ms: round(appendP50),
    scenarios: results.map(({ result, drainMs }) => ({
      title: result.title,
      seconds: result.seconds,
      backlogS: round(drainMs / 1000, 1),
      errors: result.errors,
      timeouts: result.timeouts,
      ...json(result),
      ...(Object.keys(result.classes).length > 1 ? { classes: Object.fromEntries(Object.entries(result.classes).map(([k, f]) => [k, json(f)])) } : {}),
    })),
    searchToHealthRps: ratio === null ? null : round(ratio, 4),
    peakRssMiB: round(maxRss / 1048576, 0),
    rssAfterSeedMiB: round(rssAfterSeed / 1048576, 0),
    peakRssDuringLoadMiB: round(peakRssDuringLoad / 1048576, 0),
    generatorPeakRssMiB: round(generatorRss / 1048576, 0),
    failures,
  }));
  return failures;
}
