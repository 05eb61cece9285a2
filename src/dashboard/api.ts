// The API, through the generated client: the dashboard calls the same operations any client
// does, with the session token as its bearer token.
import { createClient } from '../../generated/client/index.ts';
import type { Problem } from '../../generated/types.gen.ts';
import { loadSession } from './session.ts';

export const client = createClient({
  baseUrl: location.origin,
  auth: () => loadSession()?.token,
});

/** An answer other than success: its status, the problem's detail, and when to retry (429, 503). */
export class ApiFailure extends Error {
  override readonly name: string = 'ApiFailure';
  readonly status: number;
  readonly type: string;
  readonly retryAfterSeconds: number | null;

  constructor(status: number, problem: Partial<Problem> | undefined, retryAfter: string | null) {
    super(problem?.detail ?? `The server answered ${status}.`);
    this.status = status;
    this.type = problem?.type ?? '';
    const seconds = retryAfter === null ? NaN : Number(retryAfter);
    this.retryAfterSeconds = Number.isFinite(seconds) ? seconds : null;
  }
}

let onSessionEnded: () => void = () => undefined;

/** What to do when the token stops working (expired, revoked elsewhere): back to sign-in. */
export function whenSessionEnds(handler: () => void): void {
  onSessionEnded = handler;
}

interface Result<T> {
  data?: T;
  error?: unknown;
  response?: Response;
}

/**
 * The data of a successful call, or an ApiFailure. A 401 on a signed-in call ends the session;
 * `signIn` calls pass `ending: false` (there, 401 means a wrong password).
 */
export async function ok<T>(pending: Promise<Result<T>>, options: { ending?: boolean } = {}): Promise<T> {
  let result: Result<T>;
  try {
    result = await pending;
  } catch {
    throw new ApiFailure(0, { detail: 'The server could not be reached. Check the connection and try again.' }, null);
  }
  const status = result.response?.status ?? 0;
  // The client's own check of a request (the contract's zod schema) refused it before sending.
  if (!result.response && isSchemaRefusal(result.error)) {
    const issue = result.error.issues[0]!;
    const where = issue.path.filter((part) => part !== 'body').join('.');
    throw new ApiFailure(0, { detail: `Check ${where || 'the form'}: ${issue.message}.` }, null);
  }
  if (status >= 200 && status < 300) return result.data as T;
  if (status === 401 && options.ending !== false) onSessionEnded();
  throw new ApiFailure(
    status,
    result.error as Partial<Problem> | undefined,
    result.response?.headers.get('retry-after') ?? null,
  );
}

function isSchemaRefusal(error: unknown): error is { issues: Array<{ path: PropertyKey[]; message: string }> } {
  return (
    typeof error === 'object' &&
    error !== null &&
    Array.isArray((error as { issues?: unknown }).issues) &&
    (error as { issues: unknown[] }).issues.length > 0
  );
}

/** A sentence for a failure, for the page. */
export function explain(failure: unknown): string {
  if (!(failure instanceof ApiFailure)) return 'Something went wrong. Reload the page and try again.';
  if (failure.status === 429) {
    const wait = failure.retryAfterSeconds;
    return `Too many attempts. Try again in ${wait === null ? 'a minute' : `${wait} second${wait === 1 ? '' : 's'}`}.`;
  }
  if (failure.status === 503) return 'The service is unavailable for a moment. Try again shortly.';
  if (failure.status >= 500) return 'Something failed on the server. Try again later.';
  return failure.message;
}
