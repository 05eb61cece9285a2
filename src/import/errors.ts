// Import failures are domain errors: the command line maps them to exit codes, and a future
// HTTP import endpoint could map them to problem+json the same way as the other DomainErrors.
import { DomainError } from '../domain/shared/errors.ts';

/**
 * One row that cannot be imported. `line` is 1-based and counts the header as line 1; an
 * element of a JSON array also has its index, 1-based.
 */
export interface RowProblem {
  readonly line: number;
  readonly element?: number | undefined;
  readonly reason: string;
}

/** "line 12", or "element 3 (line 12)" for an element of a JSON array (all may be on line 1). */
export function rowName(place: { readonly line: number; readonly element?: number | undefined }): string {
  return place.element === undefined ? `line ${place.line}` : `element ${place.element} (line ${place.line})`;
}

/** How many problems the message lists; `problems` always holds all of them. */
export const LISTED_PROBLEMS = 20;

/** The file has bad rows: nothing of it was written. */
export class ImportError extends DomainError {
  readonly code = 'import_rejected';
  readonly file: string;
  readonly problems: readonly RowProblem[];

  /** `hint`: what to do about all of them at once (e.g. the encoding to read the file in), after the list. */
  constructor(file: string, problems: readonly RowProblem[], hint?: string) {
    super(describeProblems(file, problems, hint));
    this.file = file;
    this.problems = problems;
  }
}

/** The file cannot be read at all (missing, unreadable). */
export class ImportSourceError extends DomainError {
  readonly code = 'import_source';
}

/** The format was not given and cannot be told from the file's name or header. */
export class UnknownFormatError extends DomainError {
  readonly code = 'import_format_unknown';
}

/** The file, how many rows are invalid, the first LISTED_PROBLEMS of them, and the hint. */
export function describeProblems(file: string, problems: readonly RowProblem[], hint?: string): string {
  const rows = problems.length === 1 ? '1 row is' : `${problems.length} rows are`;
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `  ${rowName(p)}: ${p.reason}`);
  if (problems.length > LISTED_PROBLEMS) listed.push(`  … and ${problems.length - LISTED_PROBLEMS} more`);
  if (hint) listed.push(hint);
  return `${file}: ${rows} invalid; nothing was imported.\n${listed.join('\n')}`;
}
