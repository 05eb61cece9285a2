// The history bench's figures: one row per operation, its verdict against its target, the
// failures, and one line of JSON with every figure.
import { cpus } from 'node:os';
import { fmt, out, table } from '../format.ts';
import { non2xx, type OperationFigures } from './measure.ts';
import type { Seeded } from './seed.ts';

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

function verdict(f: OperationFigures): string {
  if (non2xx(f) > 0) return 'FAILED (non-2xx)';
  if (f.wrong) return 'FAILED (wrong answer)';
  if (f.operation.targetMs === undefined) return '-';
  return f.p99 < f.operation.targetMs ? 'ok' : 'MISSED';
}

/** Prints the table and returns why the run failed: nothing when every answer was right and every target met. */
export function report(
  figures: readonly OperationFigures[],
  seeded: Seeded,
  extra: {
    readonly loadBefore: number;
    readonly loadAfter: number;
    readonly serverLogErrors: number;
    readonly serverLogSamples: readonly string[];
  },
): string[] {
  out();
  out(
    table(
      ['operation', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'non-2xx', 'p99 target', 'verdict'],
      figures.map((f) => [
        f.operation.name,
        String(f.count),
        fmt(f.p50, 2),
        fmt(f.p99, 2),
        fmt(f.max, 1),
        String(non2xx(f)),
        f.operation.targetMs === undefined ? '-' : `< ${f.operation.targetMs} ms`,
        verdict(f),
      ]),
      1,
    ),
  );
  out(
    '(one client, sequential requests on one keep-alive connection, timed to the last byte; non-2xx counts the warm-up too)',
  );

  const failures: string[] = [];
  for (const f of figures) {
    const name = f.operation.name;
    const refused = [...f.statuses].filter(([s]) => s < 200 || s > 299).map(([s, n]) => `${n} x ${s}`);
    if (refused.length) failures.push(`${name}: ${refused.join(', ')}: ${f.refusal ?? ''}`);
    if (f.wrong) failures.push(`${name}: wrong answer: ${f.wrong}`);
    if (f.operation.targetMs !== undefined && !(f.p99 < f.operation.targetMs)) {
      failures.push(`${name}: p99 ${fmt(f.p99, 2)} ms, target < ${f.operation.targetMs} ms`);
    }
  }
  if (extra.serverLogErrors > 0)
    failures.push(`the server logged ${extra.serverLogErrors} errors: ${extra.serverLogSamples.join(' | ')}`);

  out();
  out(
    `1-minute load average: ${fmt(extra.loadBefore, 2)} before, ${fmt(extra.loadAfter, 2)} after (${cpus().length} CPUs)`,
  );
  out(failures.length ? 'FAILED:' : 'all answers 2xx and right, every target met');
  for (const line of failures) out(`  ${line}`);
  out(
    JSON.stringify({
      bench: 'school-search history',
      node: process.version,
      cpus: cpus().length,
      loadAvgBefore: round(extra.loadBefore),
      loadAvgAfter: round(extra.loadAfter),
      userRecords: seeded.userRecords,
      allRecords: seeded.allRecords,
      days: seeded.days,
      seedS: round(seeded.seconds),
      storeMiB: round(seeded.fileBytes / 1048576, 0),
      operations: figures.map((f) => ({
        name: f.operation.name,
        path: f.operation.path,
        count: f.count,
        p50Ms: round(f.p50),
        p99Ms: round(f.p99),
        maxMs: round(f.max),
        statuses: Object.fromEntries(f.statuses),
        targetP99Ms: f.operation.targetMs ?? null,
        ok: verdict(f) === 'ok' || verdict(f) === '-',
      })),
      failures,
    }),
  );
  return failures;
}
