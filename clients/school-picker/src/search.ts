// The picker's two calls to the API, GET /v1/fetchSchoolSearch and GET /v1/schools/{schoolId},
// made as a page may make them with a publishable key: the key in the query string (`key=`), no
// header of its own and no credentials, so each keystroke's search is a "simple" CORS request
// with no preflight before it. An answer other than success becomes the sentence to show: the
// problem's `detail` (every error of the API is problem+json), with Retry-After in words.
import type { Problem, SchoolRecord, SchoolSearchResponse, SearchResult } from '../../../generated/types.gen.ts';

export interface SearchOptions {
  /** The API's base URL, ending with a slash. */
  readonly api: string;
  readonly key: string | undefined;
  readonly stateCode: string | undefined;
  readonly levels: readonly string[];
  readonly types: readonly string[];
  readonly near: string | undefined;
  readonly limit: number;
}

export type Answer<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly status: number; readonly type: string; readonly message: string };

/** The search's URL: the contract's parameter names, a filter repeated for each of its values. */
export function searchUrl(query: string, options: SearchOptions): URL {
  const url = new URL('v1/fetchSchoolSearch', options.api);
  const params = url.searchParams;
  params.set('query', query);
  if (options.stateCode) params.set('stateCode', options.stateCode);
  for (const level of options.levels) params.append('level', level);
  for (const type of options.types) params.append('type', type);
  if (options.near) params.set('near', options.near);
  params.set('limit', String(options.limit));
  if (options.key) params.set('key', options.key);
  return url;
}

export function schoolUrl(id: string, options: Pick<SearchOptions, 'api' | 'key'>): URL {
  const url = new URL(`v1/schools/${encodeURIComponent(id)}`, options.api);
  if (options.key) url.searchParams.set('key', options.key);
  return url;
}

export async function searchSchools(url: URL, signal: AbortSignal): Promise<Answer<SearchResult>> {
  const answer = await call<SchoolSearchResponse>(url, signal);
  return answer.ok ? { ok: true, value: answer.value.requestresult } : answer;
}

export function readSchool(url: URL, signal: AbortSignal): Promise<Answer<SchoolRecord>> {
  return call<SchoolRecord>(url, signal);
}

/** Rejects only when `signal` aborts it (an AbortError); every other failure is an answer. */
async function call<T>(url: URL, signal: AbortSignal): Promise<Answer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      mode: 'cors',
      credentials: 'omit',
      // The page's origin, and only it, even where the page says `no-referrer`: a same-origin
      // GET carries no Origin header, and a publishable key works only from a page it can name.
      referrerPolicy: 'strict-origin',
    });
  } catch (error) {
    if (signal.aborted) throw error;
    // A network failure, or an answer CORS keeps from the page (the browser tells no more).
    return { ok: false, status: 0, type: '', message: 'The school search could not be reached. Try again later.' };
  }
  if (response.ok) return { ok: true, value: (await response.json()) as T };
  let problem: Partial<Problem> = {};
  try {
    problem = (await response.json()) as Partial<Problem>;
  } catch (error) {
    if (signal.aborted) throw error;
  }
  return { ok: false, status: response.status, type: problem.type ?? '', message: failureText(response, problem) };
}

function failureText(response: Response, problem: Partial<Problem>): string {
  const said = problem.detail ?? problem.title ?? `The school search answered ${response.status}.`;
  const retry = Number(response.headers.get('retry-after'));
  if (response.status === 429 && Number.isFinite(retry) && retry > 0) {
    return `${said} Try again in ${retry} second${retry === 1 ? '' : 's'}.`;
  }
  return said;
}
