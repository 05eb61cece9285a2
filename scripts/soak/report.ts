// The closing report of the soak: load by operation, records, memory, the server's own view (its
// access log), then every check with PASS/FAIL and the verdict. Returns the failed checks.
import { cpus, loadavg } from 'node:os';
import { fmt, mib, out, table } from '../bench/format.ts';
import { percentile } from '../bench/load.ts';
import { OPERATIONS, type LoadStats, type OperationStats, type UserState } from './load.ts';
import { GROWTH_FLOOR_MIB, GROWTH_LIMIT, WARM_UP_SHARE, type MemoryVerdict } from './memory.ts';
import type { LogCounts } from './server.ts';
import { userOk, type UserCheck } from './verify.ts';

export interface SoakRun {
  readonly seconds: number;
  readonly stats: LoadStats;
  readonly users: readonly UserState[];
  readonly checks: readonly UserCheck[];
  readonly memory: MemoryVerdict;
  readonly log: LogCounts;
  readonly requestsSent: number;
  readonly exit: number | null | 'timeout';
  /** CPU seconds used during the load by the server and by this process (the load generator). */
  readonly cpu: { readonly server: number; readonly client: number };
}

const int = (n: number) => n.toLocaleString('en-US');

function statusClasses(statuses: ReadonlyMap<number, number>) {
  let s2 = 0,
    s4 = 0,
    s5 = 0,
    s429 = 0,
    other = 0;
  for (const [code, n] of statuses) {
    if (code === 429) s429 += n;
    else if (code >= 200 && code < 300) s2 += n;
    else if (code >= 400 && code < 500) s4 += n;
    else if (code >= 500) s5 += n;
    else other += n;
  }
  return { s2, s4, s5, s429, other };
}

function opRow(name: string, s: OperationStats, seconds: number): string[] {
  const sorted = Float64Array.from(s.latencies).sort();
  const c = statusClasses(s.statuses);
  return [
    name,
    int(sorted.length + s.errors),
    fmt(sorted.length / seconds, 1),
    fmt(percentile(sorted, 50), 1),
    fmt(percentile(sorted, 99), 1),
    fmt(sorted.length ? sorted[sorted.length - 1]! : 0, 0),
    int(c.s2),
    int(c.s4),
    int(c.s429),
    int(c.s5),
    int(c.other + s.errors),
  ];
}

export function report(run: SoakRun): string[] {
  const seconds = (run.stats.endedAt - run.stats.startedAt) / 1000;
  const all = loadSection(run, seconds);
  recordsSection(run);
  memorySection(run.memory);
  const logged = logSection(run);
  return verdicts(run, all, logged);
}

/** The requests per operation, their latencies and statuses, and the CPU they took; all operations together. */
function loadSection(run: SoakRun, seconds: number): OperationStats {
  const { stats } = run;
  out();
  out(`load: ${fmt(seconds, 1)} s (${run.seconds} s of new requests, then the last ones answered)`);
  const all: OperationStats = { latencies: [], statuses: new Map(), errors: 0 };
  for (const op of OPERATIONS) {
    const s = stats.ops[op];
    for (const ms of s.latencies) all.latencies.push(ms);
    for (const [code, n] of s.statuses) all.statuses.set(code, (all.statuses.get(code) ?? 0) + n);
    all.errors += s.errors;
  }
  out(
    table(
      ['operation', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'max ms', '2xx', '4xx', '429', '5xx', 'errors'],
      [...OPERATIONS.map((op) => opRow(op, stats.ops[op], seconds)), opRow('all', all, seconds)],
      1,
    ),
  );
  out('(4xx excludes 429; errors = socket errors, timeouts and other statuses)');
  out(
    `CPU during the load: server ${fmt(run.cpu.server, 1)} s (${fmt((100 * run.cpu.server) / seconds, 0)}% of one core), ` +
      `load generator ${fmt(run.cpu.client, 1)} s (${fmt((100 * run.cpu.client) / seconds, 0)}%), ` +
      `${cpus().length} CPUs, 1-minute load average now ${fmt(loadavg()[0]!, 2)}`,
  );

  return all;
}

/** Each user's searches answered against the history and usage read back. */
function recordsSection(run: SoakRun): void {
  out();
  out('records: searches answered 200 (expected) vs the history read back (fetchMyRequests, limit 25) and fetchMyData');
  // Every user when there are few; otherwise only those that do not match, then the sum.
  const shown = run.checks.map((c, i) => [c, i] as const).filter(([c]) => run.checks.length <= 20 || !userOk(c));
  const rows = shown.map(([c, i]) => [
    c.email,
    int(c.expected),
    int(c.total),
    int(c.requestCount),
    int(c.totalCost),
    c.complete ? int(c.read) : `${int(c.read)} (paging stops at offset 10,000)`,
    int(c.missing),
    int(c.phantom + c.duplicates),
    int(c.unordered),
    int(run.users[i]!.logins),
    userOk(c) ? 'ok' : 'MISMATCH',
  ]);
  const sum = (f: (c: UserCheck) => number) => int(run.checks.reduce((n, c) => n + f(c), 0));
  rows.push([
    `all (${run.checks.length} users)`,
    sum((c) => c.expected),
    sum((c) => c.total),
    sum((c) => c.requestCount),
    sum((c) => c.totalCost),
    sum((c) => c.read),
    sum((c) => c.missing),
    sum((c) => c.phantom + c.duplicates),
    sum((c) => c.unordered),
    int(run.users.reduce((n, u) => n + u.logins, 0)),
    run.checks.every(userOk) ? 'ok' : 'MISMATCH',
  ]);
  out(
    table(
      [
        'user',
        'expected',
        'total_count',
        'request_count',
        'total_cost',
        'tids read',
        'missing',
        'extra',
        'unordered',
        'logins',
        'verdict',
      ],
      rows,
      1,
    ),
  );
  for (const c of run.checks) for (const p of c.problems.slice(0, 3)) out(`  ${c.email}: ${p}`);
}

/** The server's resident memory over the run, and whether it kept growing. */
function memorySection(memory: SoakRun['memory']): void {
  out();
  out(
    `memory: server VmRSS every 1 s (${memory.samples} samples); warm-up = first ${fmt(WARM_UP_SHARE * 100, 0)}% of the run`,
  );
  out(
    table(
      [
        'start',
        'after warm-up',
        'end',
        'max (load)',
        'peak (VmHWM)',
        'middle third (median)',
        'last third (median)',
        'growth',
        'slope',
      ],
      [
        [
          mib(memory.start),
          mib(memory.afterWarmUp),
          mib(memory.end),
          mib(memory.max),
          mib(memory.peak),
          mib(memory.middle),
          mib(memory.last),
          `${memory.growth >= 0 ? '+' : ''}${fmt(memory.growth * 100, 1)}%`,
          `${fmt(memory.slopeMiBPerMin, 1)} MiB/min`,
        ],
      ],
      0,
    ),
  );
  out(`VmRSS by tenth of the run (MiB): ${memory.tenths.map((b) => fmt(b / 1048576, 0)).join(' ')}`);
  out(
    `(thirds are medians; fails when the last third is above the middle third by > ${GROWTH_FLOOR_MIB} MiB and > ${fmt(GROWTH_LIMIT * 100, 0)}%; ` +
      'slope: least squares after the warm-up, not judged)',
  );
}

/** What the server logged, and the answers that broke the contract. */
function logSection(run: SoakRun): { readonly requests: number; readonly s5: number } {
  const { stats, log } = run;
  out();
  const logged = [...log.requests.values()].reduce((a, b) => a + b, 0);
  const logged5xx = [...log.requests].filter(([code]) => code >= 500).reduce((n, [, c]) => n + c, 0);
  out(
    `server log: ${int(log.lines)} lines, ${int(logged)} requests (${int(logged5xx)} 5xx), ` +
      `${int(log.warnings)} warnings, ${int(log.errors)} errors; requests sent by the soak: ${int(run.requestsSent)}`,
  );
  for (const line of log.samples) out(`  ${line}`);
  if (stats.anomalyCount > 0) {
    out(
      `answers that broke the contract or the records (${int(stats.anomalyCount)}, first ${stats.anomalies.length}):`,
    );
    for (const a of stats.anomalies) out(`  ${a}`);
  }
  for (const e of stats.errorSamples) out(`  network error: ${e}`);
  return { requests: logged, s5: logged5xx };
}

/** The soak's checks, printed PASS or FAIL; the failed ones. */
function verdicts(
  run: SoakRun,
  all: OperationStats,
  { requests: logged, s5: logged5xx }: { requests: number; s5: number },
): string[] {
  const { stats, memory, log } = run;
  const c = statusClasses(all.statuses);
  const checks: Array<[boolean, string]> = [
    [c.s5 === 0 && logged5xx === 0, `zero 5xx (client saw ${int(c.s5)}, server logged ${int(logged5xx)})`],
    [all.errors === 0, `zero network errors and timeouts (${int(all.errors)})`],
    [
      c.s4 + c.s429 + c.other === 0,
      `every request answered 200 (${int(c.s4)} 4xx, ${int(c.s429)} 429, ${int(c.other)} other)`,
    ],
    [stats.anomalyCount === 0, `every answer consistent (${int(stats.anomalyCount)} anomalies)`],
    [
      run.checks.every(userOk),
      `zero lost or extra records (${run.checks.filter((x) => !userOk(x)).length} users mismatched)`,
    ],
    [
      !memory.growing,
      `memory bounded (last third ${memory.growth >= 0 ? '+' : ''}${mib(memory.last - memory.middle)}, ${fmt(memory.growth * 100, 1)}% over the middle third)`,
    ],
    [log.errors === 0, `no error lines in the server log (${int(log.errors)})`],
    [logged === run.requestsSent, `the server logged every request sent (${int(logged)} of ${int(run.requestsSent)})`],
    [run.exit === 0, `server stopped by SIGTERM with exit code 0 (${String(run.exit)})`],
  ];
  out();
  for (const [ok, text] of checks) out(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  const failures = checks.filter(([ok]) => !ok).map(([, text]) => text);
  out();
  out(failures.length === 0 ? 'soak: PASS' : `soak: FAIL (${failures.length} of ${checks.length} checks)`);
  return failures;
}
