// Every kind of problem the API answers with: its type URI (relative, served by this API at
// /problems/<slug>), title, and what a client should do about it.

export interface ProblemKind {
  readonly slug: string;
  readonly status: number;
  readonly title: string;
  readonly advice: string;
}

function kind(slug: string, status: number, title: string, advice: string): ProblemKind {
  return { slug, status, title, advice };
}

export const PROBLEMS = {
  validation: kind('validation-error', 400, 'Invalid request', 'Fix what `errors` lists and send the request again.'),
  malformedJson: kind('malformed-json', 400, 'Malformed JSON', 'The body must be one JSON object.'),
  badRequestLine: kind('bad-request', 400, 'Bad request', 'The request could not be read as HTTP.'),
  headersTooLarge: kind(
    'headers-too-large',
    431,
    'Request header fields too large',
    'The request line and headers are limited to 16 KiB. Search queries are at most 200 characters.',
  ),
  unauthorized: kind(
    'unauthorized',
    401,
    'Unauthorized',
    'Send a live token as `Authorization: Bearer ssk_…`. Get one from `POST /v1/auth`; a token stops working when it expires or is revoked.',
  ),
  invalidCredentials: kind(
    'invalid-credentials',
    401,
    'Invalid credentials',
    'The e-mail and password do not match an account. Check both; the answer does not say which one is wrong.',
  ),
  wrongPassword: kind(
    'wrong-password',
    403,
    'Wrong password',
    'The current password given (to change it, or to create or rotate an API key) is not right. The token is fine: do not sign in again, ask the user for the current password.',
  ),
  notASession: kind(
    'not-a-session',
    403,
    'Not a session token',
    'POST /v1/auth/rotate renews a session token from POST /v1/auth. An API key is rotated with POST /v1/keys/{tokenId}/rotate; the key presented is unchanged and still works.',
  ),
  signUpClosed: kind(
    'signup-closed',
    403,
    'Sign-up closed',
    'This server does not take this kind of sign-up (`GET /v1/signup` says which it takes). Ask its operator for an account or an invitation.',
  ),
  passwordResetOff: kind(
    'password-reset-off',
    403,
    'Password reset off',
    'This server sends no mail, so a password cannot be reset by e-mail. Ask its operator.',
  ),
  invalidLink: kind(
    'invalid-link',
    410,
    'Invalid link',
    'The link from the e-mail was used already, expired, or was never issued. Ask for a new one (sign up again, or "Forgot your password?").',
  ),
  mailUnavailable: kind(
    'mail-unavailable',
    503,
    'Mail unavailable',
    'The mail server did not take the e-mail. What you asked for is kept and the e-mail is sent again automatically; if it has not arrived after the `Retry-After` seconds, ask again.',
  ),
  notFound: kind('not-found', 404, 'Not found', 'There is no such resource, or it is not yours.'),
  tooManyKeys: kind(
    'too-many-keys',
    409,
    'Too many API keys',
    'A user holds at most 20 live secret keys and 20 live publishable keys. Revoke one you no longer use (`DELETE /v1/tokens/{tokenId}`), then create the new one.',
  ),
  publishableKeyNotAllowed: kind(
    'publishable-key-not-allowed',
    403,
    'Publishable key not allowed',
    'A publishable key (`spk_…`) can search and read schools, from the pages of its origins, and nothing else. Call this operation from a server with a session token or a secret key (`ssk_…`), never from a page.',
  ),
  originNotAllowed: kind(
    'origin-not-allowed',
    403,
    'Origin not allowed',
    "A publishable key works only from the pages of the origins its owner listed, as the browser names them in `Origin` (or `Referer`). Add the page's origin to the key (`PATCH /v1/keys/{tokenId}`, or the dashboard), or use the key from a listed page.",
  ),
  idempotencyKeyReused: kind(
    'idempotency-key-reused',
    409,
    'Idempotency key reused',
    'The `Idempotency-Key` was sent before with another search (other words, filters or page). Send a new key for a new search; send the same key only to retry the same search.',
  ),
  methodNotAllowed: kind(
    'method-not-allowed',
    405,
    'Method not allowed',
    'Use one of the methods in the `Allow` header.',
  ),
  requestTimeout: kind(
    'request-timeout',
    408,
    'Request timeout',
    'The request line and headers must arrive within 10 seconds, and the whole request within 30 seconds.',
  ),
  payloadTooLarge: kind('payload-too-large', 413, 'Payload too large', 'Request bodies are limited to 16 KiB.'),
  unsupportedMediaType: kind(
    'unsupported-media-type',
    415,
    'Unsupported media type',
    'Send the body as application/json.',
  ),
  rateLimited: kind(
    'rate-limited',
    429,
    'Too many requests',
    'Wait for the number of seconds in `Retry-After`, then retry.',
  ),
  internal: kind(
    'internal-error',
    500,
    'Internal server error',
    'Something failed on our side. Retry later, and quote `request_id` if you report it.',
  ),
  unavailable: kind(
    'service-unavailable',
    503,
    'Service unavailable',
    'The service cannot reach its store right now. Retry after the number of seconds in `Retry-After`.',
  ),
} as const satisfies Record<string, ProblemKind>;

export function problemType(kind: ProblemKind): string {
  return `/problems/${kind.slug}`;
}

export interface ProblemItem {
  location: 'query' | 'path' | 'header' | 'body';
  name: string;
  message: string;
}

/**
 * The contract's bounds on a problem body (OWASP API4: every string and array is bounded). Parts
 * of a problem echo the request (an unknown parameter's name, the values in `detail`), so a
 * hostile request could otherwise make an answer as large as itself.
 */
export const PROBLEM_LIMITS = { detail: 4096, items: 25, name: 256, message: 1024 } as const;

/** The RFC 9457 body every error response carries, whichever layer sends it. */
export function problemBody(
  kind: ProblemKind,
  detail: string,
  requestId: string,
  errors?: readonly ProblemItem[],
): string {
  const items = errors?.slice(0, PROBLEM_LIMITS.items).map((item) => ({
    location: item.location,
    name: clip(item.name, PROBLEM_LIMITS.name),
    message: clip(item.message, PROBLEM_LIMITS.message),
  }));
  return JSON.stringify({
    type: problemType(kind),
    title: kind.title,
    status: kind.status,
    detail: clip(detail, PROBLEM_LIMITS.detail),
    request_id: requestId,
    ...(items && items.length > 0 ? { errors: items } : {}),
  });
}

/** At most `max` code points, the last one an ellipsis when cut (JSON Schema counts code points). */
function clip(text: string, max: number): string {
  const points = [...text];
  return points.length <= max ? text : `${points.slice(0, max - 1).join('')}…`;
}
