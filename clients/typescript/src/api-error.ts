// The one error type callers catch for an HTTP error answer, and the step that turns the
// generated SDK's { data, error, response } result into "value or throw".
import type { Problem, ProblemItem } from '../../../generated/types.gen.ts';
import { zProblem } from '../../../generated/zod.gen.ts';
import { requestProblems, SchoolSearchValidationError } from './request-check.ts';

/** The API answered with an error status; `problem` is its application/problem+json body. */
export class SchoolSearchApiError extends Error {
  override readonly name = 'SchoolSearchApiError';
  readonly status: number;
  /** The body when it is a problem detail; undefined when a proxy or a stranger answered. */
  readonly problem: Problem | undefined;
  readonly requestId: string | undefined;

  constructor(status: number, problem: Problem | undefined, requestId: string | undefined, fallbackTitle: string) {
    super(problem ? `${status} ${problem.title}: ${problem.detail}` : `${status} ${fallbackTitle}`);
    this.status = status;
    this.problem = problem;
    this.requestId = problem?.request_id ?? requestId;
  }

  /** The problem type URI, e.g. `/problems/invalid-credentials`; RFC 9457's default when there is no problem body. */
  get type(): string {
    return this.problem?.type ?? 'about:blank';
  }

  get title(): string {
    return this.problem?.title ?? this.message;
  }

  get detail(): string | undefined {
    return this.problem?.detail;
  }

  get errors(): ProblemItem[] {
    return this.problem?.errors ?? [];
  }

  static from(response: Response, body: unknown): SchoolSearchApiError {
    const parsed = zProblem.safeParse(body);
    return new SchoolSearchApiError(
      response.status,
      parsed.success ? (body as Problem) : undefined,
      response.headers.get('X-Request-Id') ?? undefined,
      response.statusText || 'HTTP error',
    );
  }
}

export type SdkResult<T> = ({ data: T; error: undefined } | { data: undefined; error: unknown }) & {
  request?: Request;
  response?: Response;
};

/** The success type of an SDK result. */
export type DataOf<R> = R extends { error: undefined; data: infer D } ? D : never;

export function unwrap<R extends SdkResult<unknown>>(result: R): DataOf<R> {
  if (result.error === undefined) return result.data as DataOf<R>;
  const { response, error } = result;
  if (response && !response.ok) throw SchoolSearchApiError.from(response, error);
  // Refused by the request validator (nothing was sent, so there is no request): in the words the
  // server would have answered with.
  const refused = result.request === undefined ? requestProblems(error) : undefined;
  if (refused) throw new SchoolSearchValidationError(refused, error);
  // No HTTP error: the request never left (network) or the 2xx body broke the contract (response
  // validation). Those errors already say what happened.
  throw error instanceof Error ? error : new Error(String(error));
}
