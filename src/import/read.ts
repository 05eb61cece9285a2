// Reads and validates a whole file into school drafts before anything is written, so that a
// file with any bad row changes nothing and its report lists every bad row.
//
// Two rows of one school (the same id) with different values are a duplicate: directories list
// some schools twice (ODEF: "Pierre de Coubertin" and "Pierre-De-Coubertin", both Montréal, QC).
// By default the later row wins, as it would had the two rows come in two files one after the
// other, and the report names both lines; `strict` refuses the file instead. A row repeating
// the school's row exactly is only counted (IDENTICAL_DUPLICATE).
import type { SchoolDraft } from '../domain/ports.ts';
import { draftSchool } from '../domain/school.draft.ts';
import { readInput } from './input.ts';
import { decode, defaultEncoding, type Encoding } from './encoding.ts';
import { ImportError, ImportSourceError, type RowProblem } from './errors.ts';
import { DEFAULT_ENCODINGS, detectFormat, READERS, type ImportFormat } from './format.ts';
import { silentProgress, type ProgressReporter } from './progress.ts';

export interface ReadOptions {
  format?: ImportFormat | undefined;
  /** Default: the format's (DEFAULT_ENCODINGS), but UTF-8 for a file that starts with a UTF-8 byte order mark. */
  encoding?: Encoding | undefined;
  /** Refuse the file when two rows give one school different values, instead of keeping the later row. */
  strict?: boolean | undefined;
  progress?: ProgressReporter | undefined;
}

/** A row that replaced an earlier row of the same school, which had different values. */
export interface Duplicate {
  /** The later row: the one kept. */
  readonly line: number;
  /** The earlier row it replaced. */
  readonly replaces: number;
  readonly id: string;
}

export interface ReadResult {
  readonly format: ImportFormat;
  readonly encoding: Encoding;
  /** Data rows in the file (blank lines and the header not counted). */
  readonly rows: number;
  /** One per school, each the school's last row. */
  readonly drafts: readonly SchoolDraft[];
  /** Rows left out on purpose, by reason. */
  readonly skipped: Readonly<Record<string, number>>;
  /** Rows that replaced an earlier row of their school, in the file's order. */
  readonly duplicates: readonly Duplicate[];
  /** Invalid rows (readSource only: readDrafts throws them). rows = drafts + skipped + duplicates + problems. */
  readonly problems: readonly RowProblem[];
}

export const IDENTICAL_DUPLICATE = 'repeats an identical earlier row';

export function describeDuplicate(d: Duplicate): string {
  return `line ${d.line} replaces line ${d.replaces} (same school id ${d.id})`;
}

/** Throws ImportError (with every invalid row) when any row is invalid. */
export async function readDrafts(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const result = await readSource(path, options);
  if (result.problems.length > 0) throw new ImportError(path, result.problems);
  return result;
}

/**
 * Reads the whole file and reports invalid rows instead of throwing for them (a dry run shows
 * them with the counts). Throws ImportError when the file is not in its encoding: no row can be
 * trusted then.
 */
export async function readSource(path: string, options: ReadOptions = {}): Promise<ReadResult> {
  const progress = options.progress ?? silentProgress;
  let data: Buffer;
  try {
    data = await readInput(path);
  } catch (error) {
    throw new ImportSourceError(`Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  const format = options.format ?? detectFormat(path, data);
  const encoding = options.encoding ?? defaultEncoding(data, DEFAULT_ENCODINGS[format]);
  const decoded = decode(data, encoding);
  if (!decoded.ok) {
    throw new ImportError(
      path,
      decoded.problems,
      'The file is not UTF-8: if it is Windows-1252 or Latin-1, import it with --encoding windows-1252.',
    );
  }
  const drafts: SchoolDraft[] = [];
  const skipped: Record<string, number> = {};
  const duplicates: Duplicate[] = [];
  const problems: RowProblem[] = [];
  /** Each school's row so far: its line, its values, and where its draft is in `drafts`. */
  const seen = new Map<string, { line: number; fingerprint: string; index: number }>();
  let rows = 0;

  progress.start('read', data.length);
  try {
    const onProgress = (fraction: number) => progress.update(Math.round(fraction * data.length));
    for await (const row of READERS[format](decoded.utf8, onProgress)) {
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
      // Everything a store compares (a draft's keys come in one order, known fields only).
      const fingerprint = JSON.stringify(draft);
      const earlier = seen.get(draft.id);
      if (!earlier) {
        seen.set(draft.id, { line: row.line, fingerprint, index: drafts.length });
        drafts.push(draft);
      } else if (earlier.fingerprint === fingerprint) {
        skipped[IDENTICAL_DUPLICATE] = (skipped[IDENTICAL_DUPLICATE] ?? 0) + 1;
      } else if (options.strict) {
        problems.push({
          line: row.line,
          reason: `has the same school id ${draft.id} as line ${earlier.line}, with different values`,
        });
      } else {
        duplicates.push({ line: row.line, replaces: earlier.line, id: draft.id });
        drafts[earlier.index] = draft;
        seen.set(draft.id, { line: row.line, fingerprint, index: earlier.index });
      }
    }
  } finally {
    progress.stop();
  }
  return { format, encoding, rows, drafts, skipped, duplicates, problems };
}
