// The one error type of the HTTP edge: a refusal already decided, with the problem it answers
// with. The edge's own checks throw it; the error middleware turns what the domain and the
// libraries throw into it (domain-errors.ts, library-errors.ts), and sends it.
import { PROBLEMS, type ProblemItem, type ProblemKind } from './problems.ts';

export interface EdgeErrorOptions {
  /** What is wrong, item by item (a 400's `errors`). */
  readonly errors?: readonly ProblemItem[];
  /** Headers the answer carries (WWW-Authenticate, Allow, Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

export class EdgeError extends Error {
  override readonly name: string = 'EdgeError';
  readonly kind: ProblemKind;
  readonly errors: readonly ProblemItem[] | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;

  /** `detail`: the problem's detail, said to the client (and the error's message). */
  constructor(kind: ProblemKind, detail: string, options: EdgeErrorOptions = {}) {
    super(detail, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.errors = options.errors;
    this.headers = options.headers;
  }
}

/** A 400 listing every item that is wrong; its detail says them all in one line. */
export function invalidRequest(errors: readonly ProblemItem[]): EdgeError {
  const detail = errors.length > 0 ? errors.map(describe).join('; ') : 'The request is invalid.';
  return new EdgeError(PROBLEMS.validation, detail, { errors });
}

function describe(item: ProblemItem): string {
  return item.location === 'body'
    ? `body at ${item.name}: ${item.message}`
    : `${item.location} parameter "${item.name}": ${item.message}`;
}
