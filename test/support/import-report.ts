// What every import test checks of a report: each row of the file is counted exactly once.
import { expect } from 'vitest';
import { dryRunImport, importFile } from '../../src/import/import.service.ts';
import type { ImportReport } from '../../src/import/report.ts';

/** rows = inserted + updated + unchanged + merged + skipped + invalid; the written ones are the schools. */
export function expectCountsAddUp(report: ImportReport): void {
  const skipped = Object.values(report.skipped).reduce((n, count) => n + count, 0);
  const { inserted, updated, unchanged } = report.counts;
  expect(inserted + updated + unchanged + report.duplicates.length + skipped + report.problems.length).toBe(
    report.rows,
  );
  expect(inserted + updated + unchanged).toBe(report.schools);
}

/** importFile, checking that its report's counts add up: import tests use it for every import. */
export async function importChecked(...args: Parameters<typeof importFile>): Promise<ImportReport> {
  const report = await importFile(...args);
  expectCountsAddUp(report);
  return report;
}

/** dryRunImport, checking that its report's counts add up. */
export async function dryRunChecked(...args: Parameters<typeof dryRunImport>): Promise<ImportReport> {
  const report = await dryRunImport(...args);
  expectCountsAddUp(report);
  return report;
}
