// Reads and validates a whole file into school drafts before anything is written, so that a
// file with any bad row changes nothing and its report lists every bad row.
//
// Two rows are one school only when an id says so (the same schoolid, or the same key of the
// source: IPEDS UNITID, ODEF Provider + Source_Id), or, for rows without either, when name, city
// and province are the same and every location field both rows know agrees
// (src/domain/catalog/school-identity.ts). Directories do list some schools twice; by default the later
// row wins, as it would had the two rows come in two files one after the other, and the report
// names both lines and why; `strict` refuses rows that differ instead.
import type { SchoolDraft } from '../domain/catalog/catalog.ports.ts';
import { draftSchool, type IdBasis } from '../domain/catalog/school-draft.ts';
import { nameId, someDisagree } from '../domain/catalog/school-identity.ts';
import type { Encoding } from './encoding.ts';
import { importBytes, importText } from './input.ts';
import { ImportError, rowName, type RowProblem } from './errors.ts';
import { DEFAULT_ENCODINGS, detectFormat, detectSyntax, READERS, type ImportFormat } from './format.ts';
import { MAPPED_SYNTAXES, mappedReader, type MappedSyntax } from './mapped.reader.ts';
import { type ColumnMapping, MappingError } from './mapping.ts';
import { silentProgress, type ProgressReporter } from './progress.ts';

export interface ReadOptions {
  format?: ImportFormat | undefined;
  /** Default: the format's (DEFAULT_ENCODINGS), but UTF-8 for a file that starts with a UTF-8 byte order mark. */
  encoding?: Encoding | undefined;
  /** Refuse the file when two rows give one school different values, instead of keeping the later row. */
  strict?: boolean | undefined;
  /** Read any CSV, NDJSON or JSON array through this mapping of columns to fields. */
  mapping?: ColumnMapping | undefined;
  progress?: ProgressReporter | undefined;
}

/** A row merged into an earlier row of the same school. */
export interface Duplicate {
  /** The later row: the one kept. */
  readonly line: number;
  /** The earlier row it replaced. */
  readonly replaces: number;
  /** In a JSON array: the two rows' elements (1-based). */
  readonly element?: number | undefined;
  readonly replacesElement?: number | undefined;
  readonly id: string;
  /** What says they are one school: the same schoolid, the same source key, or name and location. */
  readonly reason: IdBasis;
  /** The two rows give the school the same values: nothing was replaced. */
  readonly identical: boolean;
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
  /** Rows merged into an earlier row of their school, in the file's order. */
  readonly duplicates: readonly Duplicate[];
  /** With a mapping: the file's columns (or JSON fields) that were not read, ignored. */
  readonly unusedColumns: readonly string[];
  /** Invalid rows (readSource only: readDrafts throws them). rows = drafts + skipped + duplicates + problems. */
  readonly problems: readonly RowProblem[];
}

const BECAUSE: Readonly<Record<IdBasis, string>> = {
  schoolid: 'same schoolid',
  source: 'same id in the source',
  name: 'same name, city, province and location',
};

export function describeDuplicate(d: Duplicate): string {
  const earlier = rowName({ line: d.replaces, element: d.replacesElement });
  const what = d.identical ? `repeats ${earlier} exactly` : `replaces ${earlier}`;
  return `${rowName(d)} ${what} (${BECAUSE[d.reason]}; school id ${d.id})`;
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
  const data = await importBytes(path);
  const { mapping } = options;
  if (mapping && options.format !== undefined && !(MAPPED_SYNTAXES as readonly string[]).includes(options.format)) {
    throw new MappingError(
      `With a column mapping, the format is ${MAPPED_SYNTAXES.join(', ')}, not ${options.format}.`,
    );
  }
  const format: ImportFormat = mapping
    ? (options.format ?? detectSyntax(path, data))
    : (options.format ?? detectFormat(path, data));
  const mapped = mapping ? mappedReader(mapping, format as MappedSyntax) : undefined;
  const reader = mapped?.read ?? READERS[format];
  const { encoding, utf8 } = importText(path, data, options.encoding, DEFAULT_ENCODINGS[format]);
  const valid: Valid[] = [];
  const skipped: Record<string, number> = {};
  const problems: RowProblem[] = [];
  let rows = 0;

  progress.start('read', data.length);
  try {
    const onProgress = (fraction: number) => progress.update(Math.round(fraction * data.length));
    for await (const row of reader(utf8, onProgress)) {
      rows++;
      if ('skip' in row) {
        skipped[row.skip] = (skipped[row.skip] ?? 0) + 1;
        continue;
      }
      const place = row.element === undefined ? { line: row.line } : { line: row.line, element: row.element };
      if ('error' in row) {
        problems.push({ ...place, reason: row.error });
        continue;
      }
      const result = draftSchool(row.input);
      if (result.ok) valid.push({ ...place, draft: result.draft, idBasis: result.idBasis });
      else problems.push({ ...place, reason: result.reason });
    }
  } finally {
    progress.stop();
  }
  const { drafts, duplicates, conflicts } = mergeRows(separateNamesakes(valid), options.strict ?? false);
  problems.push(...conflicts);
  problems.sort((a, b) => a.line - b.line || (a.element ?? 0) - (b.element ?? 0));
  const unusedColumns = mapped?.unusedColumns() ?? [];
  return { format, encoding, rows, drafts, skipped, duplicates, unusedColumns, problems };
}

interface Valid {
  readonly line: number;
  readonly element?: number | undefined;
  readonly draft: SchoolDraft;
  readonly idBasis: IdBasis;
}

/**
 * Rows without an id share one when name, city, province and their first known location field
 * agree. Where rows sharing one disagree on another field both know (two schools in one rural
 * postal code, at two addresses), each of them gets the id of all its location fields instead,
 * whatever their order in the file: so a shuffled file gives the same ids.
 */
function separateNamesakes(valid: readonly Valid[]): Valid[] {
  const byId = new Map<string, SchoolDraft[]>();
  for (const { draft, idBasis } of valid) {
    if (idBasis !== 'name') continue;
    const same = byId.get(draft.id);
    if (same) same.push(draft);
    else byId.set(draft.id, [draft]);
  }
  const apart = new Set<string>();
  for (const [id, drafts] of byId) {
    if (drafts.length > 1 && someDisagree(drafts)) apart.add(id);
  }
  if (apart.size === 0) return [...valid];
  return valid.map((row) =>
    row.idBasis === 'name' && apart.has(row.draft.id)
      ? { ...row, draft: { ...row.draft, id: nameId(row.draft, 'all') } }
      : row,
  );
}

/** One draft per school, its last row's; each merged row reported, or refused when strict and different. */
function mergeRows(
  valid: readonly Valid[],
  strict: boolean,
): { drafts: SchoolDraft[]; duplicates: Duplicate[]; conflicts: RowProblem[] } {
  const drafts: SchoolDraft[] = [];
  const duplicates: Duplicate[] = [];
  const conflicts: RowProblem[] = [];
  /** Each school's row so far: its line, and where its draft is in `drafts`. */
  const seen = new Map<string, { line: number; element?: number | undefined; index: number }>();
  // Everything a store compares (a draft's keys come in one order, known fields only); made
  // for the rare school listed twice only, not kept for every row.
  const fingerprint = (draft: SchoolDraft) => JSON.stringify(draft);
  for (const { line, element, draft, idBasis } of valid) {
    const earlier = seen.get(draft.id);
    if (!earlier) {
      seen.set(draft.id, { line, element, index: drafts.length });
      drafts.push(draft);
      continue;
    }
    const identical = fingerprint(drafts[earlier.index]!) === fingerprint(draft);
    if (!identical && strict) {
      conflicts.push({
        ...(element === undefined ? { line } : { line, element }),
        reason: `has the same school id ${draft.id} as ${rowName(earlier)}, with different values`,
      });
      continue;
    }
    const elements = element === undefined ? {} : { element, replacesElement: earlier.element };
    duplicates.push({ line, replaces: earlier.line, ...elements, id: draft.id, reason: idBasis, identical });
    // A repeat changes nothing: later rows are still reported against the row it repeats.
    if (identical) continue;
    drafts[earlier.index] = draft;
    seen.set(draft.id, { line, element, index: earlier.index });
  }
  return { drafts, duplicates, conflicts };
}
