// Imports a directory file into the store: read and validate all of it, then one upsert.
import type { ImportCounts, Store } from '../domain/ports.ts';
import { silentProgress } from './progress.ts';
import { readDrafts, type ReadOptions } from './read.ts';
import type { ImportFormat } from './format.ts';

export type ImportOptions = ReadOptions;

export interface ImportReport {
  readonly file: string;
  readonly format: ImportFormat;
  /** Data rows in the file. rows = inserted + updated + unchanged + all skipped. */
  readonly rows: number;
  readonly counts: ImportCounts;
  readonly skipped: Readonly<Record<string, number>>;
  readonly timings: { readonly readMs: number; readonly writeMs: number };
}

/** Throws ImportError (nothing written) when any row is bad; re-importing a file adds nothing. */
export async function importFile(store: Store, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  const progress = options.progress ?? silentProgress;
  const startedAt = performance.now();
  const { format, rows, drafts, skipped } = await readDrafts(path, options);
  const readAt = performance.now();
  progress.start('write', drafts.length);
  let counts: ImportCounts;
  try {
    counts = await store.schools.upsertMany(drafts, (done) => progress.update(done));
  } finally {
    progress.stop();
  }
  return {
    file: path,
    format,
    rows,
    counts,
    skipped,
    timings: { readMs: Math.round(readAt - startedAt), writeMs: Math.round(performance.now() - readAt) },
  };
}
