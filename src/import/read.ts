// Reads and validates a whole file into school drafts before anything is written, so that a
// file with any bad row changes nothing and its report lists every bad row.
import { readFile } from 'node:fs/promises';
import type { SchoolDraft } from '../domain/ports.ts';
import { draftSchool } from '../domain/school.draft.ts';
import { ImportError, ImportSourceError, type RowProblem } from './errors.ts';
import { detectFormat, READERS, type ImportFormat } from './format.ts';
import { silentProgress, type ProgressReporter } from './progress.ts';

export interface ReadOptions {
  format?: ImportFormat | undefined;
  progress?: ProgressReporter | undefined;
}

export interface ReadResult {
  readonly format: ImportFormat;
  /** Data rows in the file (blank lines and the header not counted). */
  readonly rows: number;
  readonly drafts: readonly SchoolDraft[];
  /** Rows left out on purpose, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
}

export const IDENTICAL_DUPLICATE = 'repeats an identical earlier row';

export async function readDrafts(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const progress = options.progress ?? silentProgress;
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    throw new ImportSourceError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const format = options.format ?? detectFormat(path, data);
  const drafts: SchoolDraft[] = [];
  const skipped: Record<string, number> = {};
  const problems: RowProblem[] = [];
  const seen = new Map<string, { line: number; fingerprint: string }>();
  let rows = 0;

  progress.start('read', data.length);
  try {
    for await (const row of READERS[format](data, (fraction) => progress.update(Math.round(fraction * data.length)))) {
      rows++;
      if ('skip' in row) {
        skipped[row.skip] = (skipped[row.skip] ?? 0) + 1;
        continue;
      }
      if ('error' in row) {
        problems.push({ line: row.line, reason: row.error });
        continue;
      }
      const result = draftSchool(row.input);
      if (!result.ok) {
        problems.push({ line: row.line, reason: result.reason });
        continue;
      }
      const { draft } = result;
      const fingerprint = JSON.stringify([draft.name, draft.city, draft.state, draft.imageUrl, draft.aliases]);
      const earlier = seen.get(draft.id);
      if (!earlier) {
        seen.set(draft.id, { line: row.line, fingerprint });
        drafts.push(draft);
      } else if (earlier.fingerprint === fingerprint) {
        skipped[IDENTICAL_DUPLICATE] = (skipped[IDENTICAL_DUPLICATE] ?? 0) + 1;
      } else {
        problems.push({ line: row.line, reason: `has the same school id ${draft.id} as line ${earlier.line}, with different values` });
      }
    }
  } finally {
    progress.stop();
  }
  if (problems.length > 0) throw new ImportError(path, problems);
  return { format, rows, drafts, skipped };
}
