// What `school-search import` prints: the same summary for an import and its dry run, every row
// counted once (rows = inserted + updated + unchanged + merged + skipped + invalid), then each
// merged row with both lines and why; and on stderr the invalid rows.
import { describeProblems, rowName, type RowProblem } from '../import/errors.ts';
import type { ImportReport } from '../import/report.ts';
import { describeDuplicate } from '../import/read.ts';

export function describeReport(report: ImportReport, heading: string): string {
  const skipped = Object.entries(report.skipped);
  const total = skipped.reduce((n, [, count]) => n + count, 0);
  const row = (label: string, value: number) => `  ${label.padEnd(10)} ${String(value).padStart(7)}\n`;
  const seconds = (ms: number) => (ms / 1000).toFixed(2);
  return [
    heading,
    row('rows', report.rows),
    row('schools', report.schools),
    row('inserted', report.counts.inserted),
    row('updated', report.counts.updated),
    row('unchanged', report.counts.unchanged),
    row('merged', report.duplicates.length),
    row('skipped', total),
    ...skipped.map(([reason, count]) => `  ${String(count).padStart(18)}  ${reason}\n`),
    row('invalid', report.problems.length),
    ...(report.unusedColumns.length > 0
      ? [`Columns not used: ${report.unusedColumns.map((c) => JSON.stringify(c)).join(', ')}\n`]
      : []),
    ...(report.duplicates.length > 0
      ? [
          'Rows merged into an earlier row of the same school (the later row wins):\n',
          ...report.duplicates.map((d) => `  ${describeDuplicate(d)}\n`),
        ]
      : []),
    report.dryRun
      ? `Read in ${seconds(report.timings.readMs)} s, compared in ${seconds(report.timings.writeMs)} s.\n`
      : `Read in ${seconds(report.timings.readMs)} s, written in ${seconds(report.timings.writeMs)} s.\n`,
  ].join('');
}

/**
 * The invalid rows of a report, for stderr. Left out under --skip-invalid: every one is listed,
 * since the user asked for the rest to be imported and needs the list to fix these. Otherwise
 * the file is (or would be) refused, and the first few say why.
 */
export function describeInvalid(report: ImportReport): string {
  const { file, problems } = report;
  if (!report.skipInvalid) return `school-search: ${describeProblems(file, problems)}\n`;
  const rows = problems.length === 1 ? '1 invalid row' : `${problems.length} invalid rows`;
  const done = report.dryRun
    ? 'would be left out; every other row would be imported'
    : `${problems.length === 1 ? 'was' : 'were'} left out (--skip-invalid); every other row was imported`;
  return `school-search: warning: ${file}: ${rows} ${done}:\n${problems.map(line).join('')}`;
}

const line = (p: RowProblem) => `  ${rowName(p)}: ${p.reason}\n`;
