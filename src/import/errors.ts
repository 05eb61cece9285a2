// Import failures are domain errors: the command line maps them to exit codes, and a future
// HTTP import endpoint could map them to problem+json the same way as the other DomainErrors.
import { DomainError } from '../domain/errors.ts';

/** One row that cannot be imported. `line` is 1-based and counts the header as line 1. */
export interface RowProblem {
  readonly line: number;
  readonly reason: string;
}

/** How many problems the message lists; `problems` always holds all of them. */
export const LISTED_PROBLEMS = 20;

/** The file has bad rows: nothing of it was written. */
export class ImportError extends DomainError {
  readonly code = 'import_rejected';
  readonly file: string;
  readonly problems: readonly RowProblem[];

  constructor(file: string, problems: readonly RowProblem[]) {
    super(describe(file, problems));
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

function describe(file: string, problems: readonly RowProblem[]): string {
  const rows = problems.length === 1 ? '1 row is' : `${problems.length} rows are`;
  const listed = problems.slice(0, LISTED_PROBLEMS).map((p) => `  line ${p.line}: ${p.reason}`);
  if (problems.length > LISTED_PROBLEMS) listed.push(`  … and ${problems.length - LISTED_PROBLEMS} more`);
  return `${file}: ${rows} invalid; nothing was imported.\n${listed.join('\n')}`;
}
