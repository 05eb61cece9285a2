// Imports a directory file into the store: read and validate all of it, then one upsert. A dry
// run reads and validates the same way and asks the store what the upsert would do.
import type { ImportCounts, SchoolStore } from '../domain/catalog/catalog.ports.ts';
import type { Store } from '../domain/store.port.ts';
import { ImportError } from './errors.ts';
import { importLocations, isLocationFile } from './edge-import.ts';
import { silentProgress } from './progress.ts';
import { readSource, type ReadOptions } from './read.ts';
import type { ImportReport } from './report.ts';

export interface ImportOptions extends ReadOptions {
  /** Write the valid rows and report the invalid ones, instead of refusing the whole file. */
  skipInvalid?: boolean | undefined;
}

/**
 * Throws ImportError (nothing written) when any row is bad, unless skipInvalid: then the valid
 * rows are written and the report lists the others. Re-importing a file adds nothing.
 */
export async function importFile(store: Store, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  if (await isLocationFile(path, options)) return importLocations(store.schools, path, { ...options, dryRun: false });
  const progress = options.progress ?? silentProgress;
  const startedAt = performance.now();
  const read = await readSource(path, options);
  if (read.problems.length > 0 && !options.skipInvalid) throw new ImportError(path, read.problems);
  const readAt = performance.now();
  progress.start('write', read.drafts.length);
  let counts: ImportCounts;
  try {
    counts = await store.schools.upsertMany(read.drafts, (done) => progress.update(done));
  } finally {
    progress.stop();
  }
  return importReport(
    path,
    read,
    counts,
    { dryRun: false, skipInvalid: options.skipInvalid ?? false },
    { startedAt, readAt },
  );
}

/**
 * Reads and validates the file as importFile does and writes nothing. Invalid rows are in the
 * report, not thrown; a file that is not in its encoding still throws ImportError. `schools` is
 * the store to compare with; null when there is none yet (then every school would be inserted).
 */
export async function dryRunImport(
  schools: Pick<SchoolStore, 'compareMany' | 'readCatalog' | 'upsertMany'> | null,
  path: string,
  options: ImportOptions = {},
): Promise<ImportReport> {
  if (await isLocationFile(path, options)) return importLocations(schools, path, { ...options, dryRun: true });
  const startedAt = performance.now();
  const read = await readSource(path, options);
  const readAt = performance.now();
  const counts = schools
    ? await schools.compareMany(read.drafts)
    : { inserted: read.drafts.length, updated: 0, unchanged: 0 };
  return importReport(
    path,
    read,
    counts,
    { dryRun: true, skipInvalid: options.skipInvalid ?? false },
    { startedAt, readAt },
  );
}

/** What an import (or its dry run) reports: the file read, the counts, and how long reading and writing took. */
function importReport(
  path: string,
  read: Awaited<ReturnType<typeof readSource>>,
  counts: ImportCounts,
  mode: { readonly dryRun: boolean; readonly skipInvalid: boolean },
  at: { readonly startedAt: number; readonly readAt: number },
): ImportReport {
  const { drafts, ...rest } = read;
  return {
    file: path,
    ...rest,
    schools: drafts.length,
    counts,
    ...mode,
    timings: { readMs: Math.round(at.readAt - at.startedAt), writeMs: Math.round(performance.now() - at.readAt) },
  };
}
