// The quality benchmark's table: one line per class (and per sub-kind), the measured share
// against the target, and the missed probes when asked for.
import type { ClassResult } from './evaluate.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** Prints the table; true when a class is below its target. */
export function printResults(title: string, results: readonly ClassResult[], misses: number): boolean {
  const lines: string[][] = [['class', 'probes', 'measure', 'value', '@1', '@5', 'target', '']];
  let failed = false;
  for (const r of results) {
    const ok = r.value + 1e-9 >= r.target;
    if (!ok) failed = true;
    lines.push([
      r.name,
      String(r.count),
      r.measure,
      pct(r.value),
      r.at1 === undefined ? '' : pct(r.at1),
      r.at5 === undefined ? '' : pct(r.at5),
      r.target > 0 ? `>= ${pct(r.target)}` : '(shown)',
      r.target > 0 ? (ok ? 'ok' : 'BELOW') : '',
    ]);
    for (const [kind, n, share] of r.kinds) lines.push([`  ${kind}`, String(n), r.measure, pct(share), '', '', '', '']);
  }
  const widths = lines[0]!.map((_, c) => Math.max(...lines.map((l) => l[c]!.length)));
  process.stdout.write(`search quality: ${title}\n\n`);
  for (const [i, l] of lines.entries()) {
    process.stdout.write(
      `${l.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ')}\n`,
    );
    if (i === 0) process.stdout.write(`${widths.map((w) => '-'.repeat(w)).join('  ')}\n`);
  }
  if (misses > 0) {
    for (const r of results) {
      if (r.misses.length === 0) continue;
      process.stdout.write(`\nmissed in ${r.name} (${r.misses.length}):\n`);
      for (const m of r.misses.slice(0, misses)) {
        process.stdout.write(
          `  "${m.probe.text}"${m.probe.state ? ` [${m.probe.state}]` : ''} → wanted ${m.probe.target.name}${m.probe.kind ? ` (${m.probe.kind})` : ''}; got ${m.got.join(' | ') || 'nothing'}\n`,
        );
      }
    }
  }
  process.stdout.write(
    `\n${failed ? 'FAIL: a class is below its target' : 'PASS: every class at or above its target'}\n`,
  );
  return failed;
}
