// Importing an EDGE geocode file (edge.reader.ts): an update-only import. Each row gives its
// location to the school `nces:<NCESSCH>` already in the store (from a CCD directory); a row of a
// school the store does not have is skipped and counted, never created: a location is no school.
// Like every import it checks the whole file first and writes all or nothing; its report counts
// rows = updated + unchanged + skipped + merged (+ invalid, in a dry run).
import { open } from 'node:fs/promises';
import { uuidV5 } from '../domain/shared/ids.ts';
import type { ImportCounts, SchoolDraft, SchoolStore } from '../domain/catalog/catalog.ports.ts';
import { importBytes, importText, inflateHead, isGzip } from './input.ts';
import { type EdgeLocation, readEdgeRows, withLocation } from './edge.reader.ts';
import { ImportError, type RowProblem } from './errors.ts';
import { DEFAULT_ENCODINGS, detectFormat } from './format.ts';
import { silentProgress } from './progress.ts';
import type { Duplicate, ReadOptions } from './read.ts';
import type { ImportReport } from './report.ts';

/** The report of an EDGE file's import: the common one (report.ts), of format `edge`. */
export type LocationReport = ImportReport & { readonly format: 'edge' };

export const EDGE_SKIPS = {
  unknown: 'no school with this NCESSCH in the catalog (import the CCD directory first)',
} as const;

/** Whether the file is to be imported as locations: --format edge, or an EDGE header. */
export async function isLocationFile(path: string, options: ReadOptions): Promise<boolean> {
  if (options.format !== undefined) return options.format === 'edge';
  let head: Buffer;
  try {
    const file = await open(path);
    try {
      const buffer = Buffer.alloc(64 * 1024);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
    // detectFormat reads the first 64 KiB of the text only.
    if (isGzip(head)) head = await inflateHead(path, 64 * 1024);
  } catch {
    return false; // The import proper reports what is wrong with the file.
  }
  try {
    return detectFormat(path, head) === 'edge';
  } catch {
    return false;
  }
}

/**
 * Gives the store's `nces:` schools the locations of an EDGE file. `dryRun`: counts what it
 * would do and lists invalid rows, writing nothing. Otherwise throws ImportError when a row is
 * invalid, writing nothing, unless `skipInvalid`: then the valid rows are written and the report
 * lists the others, as for any import.
 */
export async function importLocations(
  schools: Pick<SchoolStore, 'readCatalog' | 'upsertMany' | 'compareMany'> | null,
  path: string,
  options: ReadOptions & { dryRun: boolean; skipInvalid?: boolean | undefined },
): Promise<LocationReport> {
  const progress = options.progress ?? silentProgress;
  const startedAt = performance.now();
  const data = await importBytes(path);
  const { encoding, utf8 } = importText(path, data, options.encoding, DEFAULT_ENCODINGS.edge);

  const problems: RowProblem[] = [];
  const duplicates: Duplicate[] = [];
  /** Each school's location, the later row winning, by the school's id. */
  const wanted = new Map<string, EdgeLocation>();
  let rows = 0;
  progress.start('read', data.length);
  try {
    const onProgress = (fraction: number) => progress.update(Math.round(fraction * data.length));
    for await (const row of readEdgeRows(utf8, onProgress)) {
      rows++;
      if ('error' in row) {
        problems.push({ line: row.line, reason: row.error });
        continue;
      }
      const id = uuidV5(row.key);
      const earlier = wanted.get(id);
      if (earlier)
        duplicates.push({
          line: row.line,
          replaces: earlier.line,
          id,
          reason: 'source',
          identical: JSON.stringify({ ...earlier, line: 0 }) === JSON.stringify({ ...row.location, line: 0 }),
        });
      wanted.set(id, row.location);
    }
  } finally {
    progress.stop();
  }

  let drafts: SchoolDraft[] = [];
  /** The rows' problems, and those of the schools found in the catalog (void when the read starts over). */
  const rowProblems = problems.length;
  const found = new Set<string>();
  for await (const chunk of schools?.readCatalog() ?? []) {
    if (chunk.kind === 'restart') {
      drafts = [];
      problems.length = rowProblems;
      found.clear();
    }
    if (chunk.kind !== 'schools') continue;
    for (const school of chunk.schools) {
      const location = wanted.get(school.id);
      if (!location) continue;
      found.add(school.id);
      const result = withLocation(school, location);
      if (result.ok) drafts.push(result.draft);
      else problems.push({ line: location.line, reason: result.reason });
    }
  }
  problems.sort((a, b) => a.line - b.line);
  const unknown = wanted.size - found.size;
  const skipped: Record<string, number> = unknown > 0 ? { [EDGE_SKIPS.unknown]: unknown } : {};
  if (problems.length > 0 && !options.dryRun && !options.skipInvalid) throw new ImportError(path, problems);

  const readAt = performance.now();
  let counts: ImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
  if (schools && options.dryRun) counts = await schools.compareMany(drafts);
  else if (schools) {
    progress.start('write', drafts.length);
    try {
      counts = await schools.upsertMany(drafts, (done) => progress.update(done));
    } finally {
      progress.stop();
    }
  }
  return {
    file: path,
    format: 'edge',
    encoding,
    rows,
    schools: drafts.length,
    counts,
    skipped,
    duplicates,
    problems,
    unusedColumns: [],
    skipInvalid: options.skipInvalid ?? false,
    dryRun: options.dryRun,
    timings: { readMs: Math.round(readAt - startedAt), writeMs: Math.round(performance.now() - readAt) },
  };
}
