// What reaches the logs never holds a token. Tokens can arrive in a query string (the deprecated
// tokenID), in a path (pasted as an id) or in an error message; every string logged goes through scrub().

const SECRETS: ReadonlyArray<[RegExp, string]> = [
  [/ssk_[A-Za-z0-9_-]+/g, 'ssk_[redacted]'],
  [/([?&]tokenID=)[^&\s"']*/gi, '$1[redacted]'],
];

/** Whether any of SECRETS may match: most text logged (every request's path) has none, and is given back as it is. */
const MAY_HOLD_SECRET = /ssk_|[?&]tokenID=/i;

export function scrub(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return SECRETS.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/**
 * What a log line may say about an error: its name, message, stack and validator items, scrubbed
 * of tokens. Validator errors carry the full URL (with a deprecated tokenID) in `path`: never
 * log an error object as it is.
 */
export function loggable(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  const items = (error as { errors?: unknown }).errors;
  return {
    type: error.name,
    message: scrub(error.message),
    stack: scrub(error.stack ?? ''),
    ...(Array.isArray(items) ? { errors: items.map((i: { message?: string }) => scrub(String(i.message))) } : {}),
    ...(error.cause !== undefined ? { cause: loggable(error.cause) } : {}),
  };
}
