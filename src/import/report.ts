// What an import reports: every row counted once, and what became of it. One shape for every
// format, the EDGE file's update-only import included (edge-import.ts).
import type { ImportCounts } from '../domain/catalog/catalog.ports.ts';
import type { Encoding } from './encoding.ts';
import type { RowProblem } from './errors.ts';
import type { ImportFormat } from './format.ts';
import type { Duplicate } from './read.ts';

export interface ImportReport {
  readonly file: string;
  readonly format: ImportFormat;
  readonly encoding: Encoding;
  /**
   * Data rows in the file, each counted once:
   * rows = inserted + updated + unchanged + duplicates merged + all skipped + invalid rows.
   */
  readonly rows: number;
  /** Valid schools, duplicates merged: what is (or would be) written. */
  readonly schools: number;
  /** A dry run's counts are what the import would do to the store as it is now. */
  readonly counts: ImportCounts;
  readonly skipped: Readonly<Record<string, number>>;
  /** Rows merged into an earlier row of the same school (the later row wins), in the file's order. */
  readonly duplicates: readonly Duplicate[];
  /** With a column mapping: the file's columns (or JSON fields) that were not read, ignored. */
  readonly unusedColumns: readonly string[];
  /**
   * Invalid rows, left out: reported by a dry run and by an import with skipInvalid (an import
   * without it throws ImportError for them instead, writing nothing).
   */
  readonly problems: readonly RowProblem[];
  readonly skipInvalid: boolean;
  readonly dryRun: boolean;
  readonly timings: { readonly readMs: number; readonly writeMs: number };
}
